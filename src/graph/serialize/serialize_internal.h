// Shared internals of the serializer: save/load contexts, nesting limits and message helpers.
#pragma once

#include <string>
#include <string_view>

#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/status.h"
#include "ge/graph/types.h"
#include "ge/graph/utils/string_utils.h"
#include "ge_ir.pb.h"

namespace ge::serialize {

using AttrMap = google::protobuf::Map<std::string, proto::AttrDef>;

/// State of one Serialize call.
struct SaveContext {
  SerializeOptions options;
  int depth = 0;  ///< nesting of attribute maps (graphs, named attrs, descs inside attributes)
};

/// State of one Deserialize call. Loading moves bytes out of the parsed message (tensor data is
/// not copied twice), so loaders take the message by non-const reference.
struct LoadContext {
  int depth = 0;
};

/// Counts one level of nesting for the lifetime of the guard; `status()` is an error past
/// ModelSerialize::kMaxNestingDepth.
class DepthGuard {
 public:
  explicit DepthGuard(int& depth) : depth_(depth) { ++depth_; }
  ~DepthGuard() { --depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  Status status() const {
    if (depth_ <= ModelSerialize::kMaxNestingDepth) return Status::Ok();
    return ParamInvalid("attributes nest more than " +
                        std::to_string(ModelSerialize::kMaxNestingDepth) +
                        " levels deep (a graph attribute that contains itself?)");
  }

 private:
  int& depth_;
};

/// Whether a C++ DataType value has a serialized form: a concrete type or DT_UNDEFINED.
inline bool IsSerializableDataType(int64_t value) {
  return value >= 0 && value < DT_MAX &&
         (value == DT_UNDEFINED || TypeUtils::IsValidDataType(static_cast<DataType>(value)));
}

using ge::IsValidUtf8;
using ge::Quote;
using ge::Sanitize;
/// An error naming `field` when `text` is not valid UTF-8: protobuf would write such a file but
/// refuse to read it back.
Status CheckUtf8(std::string_view text, std::string_view field);

/// "graph 'g'".
inline std::string GraphWhere(std::string_view graph) { return "graph " + Quote(graph); }
/// "graph 'g', node 'n' (Type)".
inline std::string NodeWhere(std::string_view graph, std::string_view node, std::string_view type) {
  return GraphWhere(graph) + ", node " + Quote(node) + " (" + Sanitize(type) + ")";
}

}  // namespace ge::serialize
