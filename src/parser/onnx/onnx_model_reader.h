// Reads a serialized ONNX ModelProto without copying its weights: the file is mapped, and a walk
// over the wire format takes the large raw_data payloads out of the message before protobuf
// parses it, leaving in their place a marker that names where the bytes lie. Errors tell "not a
// protobuf" from "truncated" and name the byte offset.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ge/graph/file_bytes.h"
#include "ge/graph/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

/// Raw data of at least this many bytes stays in the file; smaller tensors are parsed as usual.
inline constexpr size_t kInlineThreshold = 1024;

/// The raw data a parse left where it lies: the file and, per marker, the bytes' place in it.
struct InlineWeights {
  FileBytes file;      ///< the mapped model file (or a copy of caller-owned bytes)
  uint64_t nonce = 0;  ///< this parse's marker key: a file cannot forge a marker
  std::vector<std::pair<size_t, size_t>> spans;  ///< (offset, size) in `file`, by marker index
  /// The bytes a TensorProto's raw_data stands for: a marker of this parse gives its span; any
  /// other raw_data is itself (empty span, `is_marker` false).
  std::span<const uint8_t> Resolve(const std::string& raw_data, bool& is_marker) const;
};

/// Maps the model file; an unreadable or missing file is an error naming the path.
Result<FileBytes> MapModelFile(const std::string& path);

/// Parses `bytes` into `model`, leaving every raw_data of kInlineThreshold bytes or more in
/// `bytes` (recorded in `weights`, which keeps `bytes` alive). `model_name` is used in messages.
Status ParseModelBytes(const FileBytes& bytes, const std::string& model_name,
                       onnx::ModelProto& model, InlineWeights& weights);

}  // namespace ge::onnx_parser
