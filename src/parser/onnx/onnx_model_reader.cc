// Reads a serialized ONNX ModelProto (see onnx_model_reader.h).
#include "onnx_model_reader.h"

#include <google/protobuf/io/coded_stream.h>

#include <climits>
#include <fstream>

namespace ge::onnx_parser {
namespace {

using google::protobuf::io::CodedInputStream;

enum class WireCheck { kOk, kTruncated, kNotProtobuf };

// Walks the top-level fields of the message: a field running past the end means the file was
// cut short; a bad tag or wire type means it is no protobuf at all. `offset` gets the position.
WireCheck CheckTopLevelWire(const std::string& bytes, size_t& offset, bool& has_graph) {
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                      static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(INT_MAX);
  has_graph = false;
  while (true) {
    offset = static_cast<size_t>(in.CurrentPosition());
    uint32_t tag = in.ReadTag();
    if (tag == 0) {
      return offset == bytes.size() ? WireCheck::kOk : WireCheck::kNotProtobuf;
    }
    uint32_t field = tag >> 3;
    if (field == 0) return WireCheck::kNotProtobuf;
    if (field == 7) has_graph = true;
    switch (tag & 7) {
      case 0: {
        uint64_t v = 0;
        if (!in.ReadVarint64(&v)) return WireCheck::kTruncated;
        break;
      }
      case 1:
        if (!in.Skip(8)) return WireCheck::kTruncated;
        break;
      case 5:
        if (!in.Skip(4)) return WireCheck::kTruncated;
        break;
      case 2: {
        uint32_t len = 0;
        if (!in.ReadVarint32(&len)) return WireCheck::kTruncated;
        if (len > bytes.size() - static_cast<size_t>(in.CurrentPosition())) {
          return WireCheck::kTruncated;
        }
        if (!in.Skip(static_cast<int>(len))) return WireCheck::kTruncated;
        break;
      }
      default:
        return WireCheck::kNotProtobuf;
    }
  }
}

}  // namespace

Result<std::string> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return ParamInvalid(path + ": cannot open the model file (missing or unreadable)");
  const std::streamoff size = in.tellg();
  if (size < 0) return ParamInvalid(path + ": cannot read the model file's size");
  // Protobuf cannot parse 2 GB or more: refuse before reading (and allocating) it all.
  if (size >= static_cast<std::streamoff>(INT_MAX)) {
    return ParamInvalid(path + ": the model file is " + std::to_string(size) +
                        " bytes; an ONNX file holds at most 2 GB, so save its weights as external "
                        "data (onnx.save_model(..., save_as_external_data=True))");
  }
  std::string bytes(static_cast<size_t>(size), '\0');  // read once, into its final place
  in.seekg(0);
  if (!in.read(bytes.data(), size)) {
    return ParamInvalid(path + ": error while reading the model file");
  }
  return bytes;
}

Status ParseModelBytes(const std::string& bytes, const std::string& model_name,
                       onnx::ModelProto& model) {
  if (bytes.size() >= static_cast<size_t>(INT_MAX)) {
    return ParamInvalid(model_name +
                        ": the model is larger than 2 GB; save its weights as "
                        "external data (onnx.save_model(..., save_as_external_data=True))");
  }
  if (bytes.empty()) return ParamInvalid(model_name + ": the file is empty, not an ONNX model");
  size_t offset = 0;
  bool has_graph = false;
  WireCheck check = CheckTopLevelWire(bytes, offset, has_graph);
  if (check == WireCheck::kTruncated) {
    return ParamInvalid(model_name + ": the model is truncated: a field at byte " +
                        std::to_string(offset) + " runs past the end of the " +
                        std::to_string(bytes.size()) + "-byte file; copy or export it again");
  }
  if (check == WireCheck::kNotProtobuf) {
    return ParamInvalid(model_name + ": not an ONNX model: the bytes at offset " +
                        std::to_string(offset) + " are not protobuf wire format");
  }
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                      static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(INT_MAX);
  if (!model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return ParamInvalid(model_name +
                        ": not an ONNX model: the protobuf does not decode as an "
                        "onnx.ModelProto (corrupt or truncated inside a nested message)");
  }
  if (!has_graph || !model.has_graph()) {
    return ParamInvalid(model_name +
                        ": not an ONNX model: it has no graph (field 7 of "
                        "ModelProto); is this an ONNX file?");
  }
  return Status::Ok();
}

}  // namespace ge::onnx_parser
