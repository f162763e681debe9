// TensorProto → GeTensor for gec onnx-test.
#include "tensor_proto.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "onnx/onnx_pb.h"

namespace gec {
namespace {

template <typename T, typename Field>
std::vector<uint8_t> Pack(const Field& field) {
  std::vector<uint8_t> bytes(static_cast<size_t>(field.size()) * sizeof(T));
  for (int i = 0; i < field.size(); ++i) {
    const T v = static_cast<T>(field.Get(i));
    std::memcpy(bytes.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
  }
  return bytes;
}

}  // namespace

ge::Result<ge::GeTensor> ReadTensorProto(const std::string& path, std::string* name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ge::ParamInvalid("cannot open '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  onnx::TensorProto proto;
  if (!proto.ParseFromString(buffer.str())) {
    return ge::ParamInvalid("'" + path + "' is not a serialized onnx.TensorProto");
  }
  if (name != nullptr) *name = proto.name();
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  ge::DataType dtype = ge::DT_UNDEFINED;
  std::vector<uint8_t> bytes;
  const bool raw = proto.has_raw_data();
  switch (proto.data_type()) {
    case onnx::TensorProto::FLOAT:
      dtype = ge::DT_FLOAT;
      if (!raw) bytes = Pack<float>(proto.float_data());
      break;
    case onnx::TensorProto::DOUBLE:
      dtype = ge::DT_DOUBLE;
      if (!raw) bytes = Pack<double>(proto.double_data());
      break;
    case onnx::TensorProto::FLOAT16:
      dtype = ge::DT_FLOAT16;
      if (!raw) bytes = Pack<uint16_t>(proto.int32_data());
      break;
    case onnx::TensorProto::BFLOAT16:
      dtype = ge::DT_BF16;
      if (!raw) bytes = Pack<uint16_t>(proto.int32_data());
      break;
    case onnx::TensorProto::INT8:
      dtype = ge::DT_INT8;
      if (!raw) bytes = Pack<int8_t>(proto.int32_data());
      break;
    case onnx::TensorProto::INT16:
      dtype = ge::DT_INT16;
      if (!raw) bytes = Pack<int16_t>(proto.int32_data());
      break;
    case onnx::TensorProto::INT32:
      dtype = ge::DT_INT32;
      if (!raw) bytes = Pack<int32_t>(proto.int32_data());
      break;
    case onnx::TensorProto::INT64:
      dtype = ge::DT_INT64;
      if (!raw) bytes = Pack<int64_t>(proto.int64_data());
      break;
    case onnx::TensorProto::UINT8:
      dtype = ge::DT_UINT8;
      if (!raw) bytes = Pack<uint8_t>(proto.int32_data());
      break;
    case onnx::TensorProto::UINT16:
      dtype = ge::DT_UINT16;
      if (!raw) bytes = Pack<uint16_t>(proto.int32_data());
      break;
    case onnx::TensorProto::UINT32:
      dtype = ge::DT_UINT32;
      if (!raw) bytes = Pack<uint32_t>(proto.uint64_data());
      break;
    case onnx::TensorProto::UINT64:
      dtype = ge::DT_UINT64;
      if (!raw) bytes = Pack<uint64_t>(proto.uint64_data());
      break;
    case onnx::TensorProto::BOOL:
      dtype = ge::DT_BOOL;
      if (!raw) bytes = Pack<uint8_t>(proto.int32_data());
      break;
    default:
      return ge::ParamInvalid("'" + path + "': TensorProto data type " +
                              std::to_string(proto.data_type()) + " is not supported");
  }
  if (raw) bytes.assign(proto.raw_data().begin(), proto.raw_data().end());
  return ge::GeTensor(ge::GeTensorDesc(ge::GeShape(dims), ge::FORMAT_ND, dtype), std::move(bytes));
}

}  // namespace gec
