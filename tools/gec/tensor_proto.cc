// TensorProto → GeTensor for gec onnx-test.
#include "tensor_proto.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ge/parser/onnx_parser.h"

namespace gec {

ge::Result<ge::GeTensor> ReadTensorProto(const std::string& path, std::string* name) {
  return ReadValueProto(path, "", name);
}

ge::Result<ge::GeTensor> ReadValueProto(const std::string& path, const std::string& value_type,
                                        std::string* name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ge::ParamInvalid("cannot open '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ge::ParseOnnxValue(buffer.str(), std::filesystem::path(path).parent_path().string(),
                            "'" + path + "'", value_type, name);
}

}  // namespace gec
