// GeTensorDesc <-> TensorDescriptor and GeTensor <-> TensorDef.
#pragma once

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "serialize_internal.h"

namespace ge::serialize {

/// Writes every field of `desc`: shape, dtype (proto numbering), format name with ":sub",
/// the extended metadata fields, origin information and the C0 format as reserved attrs, and
/// the desc's own attributes. Fails for a dtype or format that has no serialized form.
Status SaveTensorDesc(const GeTensorDesc& desc, proto::TensorDescriptor& out, SaveContext& ctx);
/// Rebuilds a desc; errors name the field ("dtype", "layout", "attr 'x'", ...).
Status LoadTensorDesc(proto::TensorDescriptor& in, GeTensorDesc& out, LoadContext& ctx);

/// A tensor: its desc and (unless the options drop weights) its bytes.
Status SaveTensor(const GeTensor& tensor, proto::TensorDef& out, SaveContext& ctx);
/// Takes the bytes out of `in` without copying them again.
Result<GeTensor> LoadTensor(proto::TensorDef& in, LoadContext& ctx);

}  // namespace ge::serialize
