// Reads a serialized ONNX ModelProto, its weights left in the file (see onnx_model_reader.h).
#include "onnx_model_reader.h"

#include <climits>
#include <cstring>
#include <optional>
#include <random>
#include <string_view>

#include "ge/graph/compute_graph.h"
#include "ge/graph/utils/string_utils.h"
#include "google/protobuf/io/coded_stream.h"

namespace ge::onnx_parser {
namespace {

// The messages the walk looks into, on the paths from ModelProto to every TensorProto that can
// hold large raw data: initializers and Constant-style tensor attributes, in bodies too.
enum class Msg { kModel, kGraph, kNode, kAttribute, kTensor };

// The messages the walk descends into nest at most this deep: ModelProto > GraphProto, then
// per body level NodeProto > AttributeProto > GraphProto, then a node, attribute and tensor in
// the innermost body. With kMaxSubgraphDepth at 32 this is 100, protobuf's own default limit.
constexpr int kMaxDepth = 4 + 3 * kMaxSubgraphDepth;
// Protobuf's limit for the parse: the walk's levels, plus protobuf's usual 100 for what the walk
// does not look into (value types, which nest through sequence, map and optional types).
constexpr int kParseRecursionLimit = kMaxDepth + 100;
constexpr uint32_t kNodeName = 3;
constexpr uint32_t kNodeOpType = 4;
constexpr uint32_t kAttributeName = 1;
constexpr uint32_t kTensorRawData = 9;
constexpr size_t kMarkerBytes = 16;  // u64 nonce, u64 index

std::optional<Msg> Child(Msg msg, uint32_t field) {
  switch (msg) {
    case Msg::kModel:
      if (field == 7) return Msg::kGraph;  // ModelProto.graph
      break;
    case Msg::kGraph:
      if (field == 1) return Msg::kNode;    // GraphProto.node
      if (field == 5) return Msg::kTensor;  // GraphProto.initializer
      break;
    case Msg::kNode:
      if (field == 5) return Msg::kAttribute;  // NodeProto.attribute
      break;
    case Msg::kAttribute:
      if (field == 5 || field == 10) return Msg::kTensor;  // AttributeProto.t, .tensors
      if (field == 6 || field == 11) return Msg::kGraph;   // AttributeProto.g, .graphs
      break;
    case Msg::kTensor:
      break;
  }
  return std::nullopt;
}

void PutVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void PutU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t GetU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// What went wrong, and at which byte of the file.
struct WireError {
  enum Kind { kNone, kTruncated, kNotProtobuf, kCorrupt, kTooDeep, kSubgraphTooDeep } kind = kNone;
  size_t offset = 0;
};

// Where a walk is, for the message about a body nested too deeply: the level of the graph it is
// in (the main graph is 0), and the node and attribute being read. The names are views of the
// file's bytes; protobuf writers put a node's name and op_type (fields 3, 4) before its
// attributes (field 5) and an attribute's name (field 1) before its graph, so they are known by
// the time a graph attribute is reached.
struct Scope {
  int level = 0;
  std::string_view node;
  std::string_view op_type;
  std::string_view attribute;
};

// Copies the message, replacing large TensorProto.raw_data fields by markers.
class Stripper {
 public:
  // Records into `weights`, whose nonce the markers carry.
  Stripper(const uint8_t* base, size_t size, InlineWeights& weights)
      : base_(base), size_(size), weights_(weights) {}

  bool has_graph() const { return has_graph_; }
  /// After kSubgraphTooDeep: the graph attribute nested too deeply.
  const Scope& too_deep() const { return too_deep_; }

  WireError Walk(Msg msg, size_t pos, size_t end, std::string& out, int depth, Scope scope) {
    if (depth > kMaxDepth) return {WireError::kTooDeep, pos};
    while (pos < end) {
      const size_t field_start = pos;
      uint64_t tag = 0;
      if (!ReadVarint(pos, end, tag)) return Short(field_start, end);
      const auto field = static_cast<uint32_t>(tag >> 3);
      if (field == 0 || tag > UINT32_MAX) return {WireError::kNotProtobuf, field_start};
      if (msg == Msg::kModel && field == 7) has_graph_ = true;
      switch (tag & 7) {
        case 0: {
          uint64_t ignored = 0;
          if (!ReadVarint(pos, end, ignored)) return Short(field_start, end);
          break;
        }
        case 1:
        case 5: {
          const size_t width = (tag & 7) == 1 ? 8 : 4;
          if (end - pos < width) return Short(field_start, end);
          pos += width;
          break;
        }
        case 2: {
          uint64_t len = 0;
          if (!ReadVarint(pos, end, len)) return Short(field_start, end);
          if (len > end - pos) return Short(field_start, end);
          const size_t body = pos;
          pos += static_cast<size_t>(len);
          const std::string_view text(reinterpret_cast<const char*>(base_ + body), pos - body);
          if (msg == Msg::kNode && field == kNodeName) scope.node = text;
          if (msg == Msg::kNode && field == kNodeOpType) scope.op_type = text;
          if (msg == Msg::kAttribute && field == kAttributeName) scope.attribute = text;
          if (msg == Msg::kTensor && field == kTensorRawData && len >= kInlineThreshold) {
            PutVarint(out, tag);
            PutVarint(out, kMarkerBytes);
            PutU64(out, weights_.nonce);
            PutU64(out, weights_.spans.size());
            weights_.spans.emplace_back(body, static_cast<size_t>(len));
            continue;
          }
          if (std::optional<Msg> child = Child(msg, field)) {
            Scope inner_scope = scope;  // an attribute keeps its node's names
            if (*child != Msg::kAttribute) inner_scope = Scope{scope.level, {}, {}, {}};
            if (msg == Msg::kAttribute && *child == Msg::kGraph) {
              inner_scope.level = scope.level + 1;
              if (inner_scope.level > kMaxSubgraphDepth) {
                too_deep_ = scope;
                too_deep_.level = inner_scope.level;
                return {WireError::kSubgraphTooDeep, field_start};
              }
            }
            std::string inner;
            WireError error = Walk(*child, body, pos, inner, depth + 1, inner_scope);
            if (error.kind != WireError::kNone) return error;
            PutVarint(out, tag);
            PutVarint(out, inner.size());
            out += inner;
            continue;
          }
          break;
        }
        default:  // groups (3, 4) and the unused wire types: no ONNX message has them
          return {WireError::kNotProtobuf, field_start};
      }
      out.append(reinterpret_cast<const char*>(base_ + field_start), pos - field_start);
    }
    return {};
  }

 private:
  // A field that does not fit: cut short when it runs past the file, corrupt when past the
  // message that holds it.
  WireError Short(size_t field_start, size_t end) const {
    return {end == size_ ? WireError::kTruncated : WireError::kCorrupt, field_start};
  }

  bool ReadVarint(size_t& pos, size_t end, uint64_t& v) const {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) return false;
      const uint8_t b = base_[pos++];
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  }

  const uint8_t* base_;
  size_t size_;
  InlineWeights& weights_;
  bool has_graph_ = false;
  Scope too_deep_;
};

uint64_t NewNonce() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

}  // namespace

std::span<const uint8_t> InlineWeights::Resolve(const std::string& raw_data,
                                                bool& is_marker) const {
  is_marker = false;
  if (raw_data.size() != kMarkerBytes) return {};
  const auto* p = reinterpret_cast<const uint8_t*>(raw_data.data());
  if (GetU64(p) != nonce) return {};
  const uint64_t index = GetU64(p + 8);
  if (index >= spans.size()) return {};
  is_marker = true;
  return file.span().subspan(spans[index].first, spans[index].second);
}

Result<FileBytes> MapModelFile(const std::string& path) {
  Result<FileBytes> mapped = MapFile(path);
  if (!mapped.ok()) {
    return ParamInvalid(path + ": cannot open the model file (missing or unreadable): " +
                        mapped.status().message());
  }
  return mapped;
}

Status ParseModelBytes(const FileBytes& bytes, const std::string& model_name,
                       onnx::ModelProto& model, InlineWeights& weights) {
  if (bytes.size == 0) return ParamInvalid(model_name + ": the file is empty, not an ONNX model");
  weights.file = bytes;
  weights.nonce = NewNonce();
  weights.spans.clear();
  Stripper stripper(bytes.data.get(), bytes.size, weights);
  std::string message;
  const WireError error = stripper.Walk(Msg::kModel, 0, bytes.size, message, 0, Scope{});
  const std::string at = std::to_string(error.offset);
  switch (error.kind) {
    case WireError::kNone:
      break;
    case WireError::kTruncated:
      return ParamInvalid(model_name + ": the model is truncated: a field at byte " + at +
                          " runs past the end of the " + std::to_string(bytes.size) +
                          "-byte file; copy or export it again");
    case WireError::kNotProtobuf:
      return ParamInvalid(model_name + ": not an ONNX model: the bytes at offset " + at +
                          " are not protobuf wire format");
    case WireError::kCorrupt:
      return ParamInvalid(model_name + ": not an ONNX model: the field at byte " + at +
                          " runs past the end of the message that holds it (corrupt)");
    case WireError::kTooDeep:
      return ParamInvalid(model_name + ": the message at byte " + at + " is nested more than " +
                          std::to_string(kMaxDepth) + " deep");
    case WireError::kSubgraphTooDeep: {
      const Scope& scope = stripper.too_deep();
      return ParamInvalid(model_name + ": node " + Quote(scope.node) + " (" +
                          Sanitize(scope.op_type) + "), graph attribute " + Quote(scope.attribute) +
                          " at byte " + at + ": the graph is nested " +
                          std::to_string(scope.level) +
                          " levels deep; subgraphs may nest at most " +
                          std::to_string(kMaxSubgraphDepth) + " levels");
    }
  }
  // Protobuf parses at most 2 GB; weights left in the file do not count.
  if (message.size() >= static_cast<size_t>(INT_MAX)) {
    return ParamInvalid(model_name +
                        ": the model's graph is larger than 2 GB without its "
                        "weights; protobuf cannot parse it");
  }
  google::protobuf::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(message.data()),
                                               static_cast<int>(message.size()));
  input.SetRecursionLimit(kParseRecursionLimit);
  if (!model.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
    return ParamInvalid(model_name +
                        ": not an ONNX model: the protobuf does not decode as an "
                        "onnx.ModelProto (corrupt or truncated inside a nested message)");
  }
  if (!stripper.has_graph() || !model.has_graph()) {
    return ParamInvalid(model_name +
                        ": not an ONNX model: it has no graph (field 7 of "
                        "ModelProto); is this an ONNX file?");
  }
  return Status::Ok();
}

}  // namespace ge::onnx_parser
