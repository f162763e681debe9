// Prototypes of ops the fusion pass creates (filled in by issue 11's work).
#include "builtin_ops.h"

namespace ge::builtin {

void RegisterFusedTransformerOps(OpProtoRegistrar& r) { (void)r; }

}  // namespace ge::builtin
