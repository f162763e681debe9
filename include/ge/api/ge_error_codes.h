// GE's graph status codes and the message of the last failure, for the graph construction API
// (ge::Operator, ge::Graph) and the build and session calls above it, which return a graphStatus
// where GE's signatures do.
#pragma once

#include <cstdint>
#include <string>

#include "ge/api/ascend_string.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// GE's graphStatus: 0 is success, any other value a failure (the number is GE's status code).
using graphStatus = uint32_t;
inline constexpr graphStatus GRAPH_SUCCESS = 0;
inline constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFFu;
inline constexpr graphStatus GRAPH_PARAM_INVALID = 50331649u;
inline constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304u;
/// GE's names for the same two outcomes in the session API.
inline constexpr graphStatus SUCCESS = GRAPH_SUCCESS;
inline constexpr graphStatus FAILED = GRAPH_FAILED;

/// The one-line message of the last call of this thread that failed, or "" when none has. Every
/// call of this API that returns a graphStatus other than GRAPH_SUCCESS (or an empty result) sets
/// it first, naming the graph, the operator and the cause.
GE_API std::string GEGetErrorMsg();
GE_API AscendString GEGetErrorMsgV2();

/// Records `status` as this thread's last error (when it is a failure) and returns its code as a
/// graphStatus: how this API turns the Status of the layers below into GE's return values (a bad
/// argument or graph is GRAPH_PARAM_INVALID, other failures keep their GE code).
GE_API graphStatus ReportStatus(const Status& status);

}  // namespace ge
