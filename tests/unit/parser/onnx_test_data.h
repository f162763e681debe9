// Test helper: the build's generated ONNX test data (tests/models/onnx_models.cmake) and reading
// ONNX protobufs in tests.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "onnx/onnx_pb.h"

namespace ge::testing {

/// The first line of a generator's status file, or a note that it is missing. The data exist
/// only when this is "ok"; tests that need the data fail (never skip) otherwise.
inline std::string ReadStatus(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "status file " + path + " is missing: the generator did not run";
  std::string line;
  std::getline(in, line);
  return line;
}

template <typename Proto>
bool ReadProto(const std::string& path, Proto& proto) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return in.good() && proto.ParseFromString(buffer.str());
}

}  // namespace ge::testing
