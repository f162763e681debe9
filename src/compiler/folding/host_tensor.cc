// Element access and broadcasting for the host kernels.
#include "host_tensor.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace ge::folding {
namespace {

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

int64_t LoadInt(const uint8_t* p, DataType dtype) {
  switch (dtype) {
    case DT_INT8:
      return Load<int8_t>(p);
    case DT_UINT8:
      return Load<uint8_t>(p);
    case DT_INT16:
      return Load<int16_t>(p);
    case DT_UINT16:
      return Load<uint16_t>(p);
    case DT_INT32:
      return Load<int32_t>(p);
    case DT_UINT32:
      return Load<uint32_t>(p);
    case DT_INT64:
      return Load<int64_t>(p);
    case DT_UINT64:
      return static_cast<int64_t>(Load<uint64_t>(p));
    case DT_BOOL:
      return Load<uint8_t>(p) != 0 ? 1 : 0;
    default:
      return 0;
  }
}

double LoadDouble(const uint8_t* p, DataType dtype) {
  switch (dtype) {
    case DT_FLOAT:
      return Load<float>(p);
    case DT_DOUBLE:
      return Load<double>(p);
    default:
      return static_cast<double>(LoadInt(p, dtype));
  }
}

void StoreInt(uint8_t* p, DataType dtype, int64_t v) {
  switch (dtype) {
    case DT_INT8:
      Store<int8_t>(p, static_cast<int8_t>(v));
      break;
    case DT_UINT8:
      Store<uint8_t>(p, static_cast<uint8_t>(v));
      break;
    case DT_INT16:
      Store<int16_t>(p, static_cast<int16_t>(v));
      break;
    case DT_UINT16:
      Store<uint16_t>(p, static_cast<uint16_t>(v));
      break;
    case DT_INT32:
      Store<int32_t>(p, static_cast<int32_t>(v));
      break;
    case DT_UINT32:
      Store<uint32_t>(p, static_cast<uint32_t>(v));
      break;
    case DT_INT64:
      Store<int64_t>(p, v);
      break;
    case DT_UINT64:
      Store<uint64_t>(p, static_cast<uint64_t>(v));
      break;
    case DT_BOOL:
      Store<uint8_t>(p, v != 0 ? 1 : 0);
      break;
    case DT_FLOAT:
      Store<float>(p, static_cast<float>(v));
      break;
    case DT_DOUBLE:
      Store<double>(p, static_cast<double>(v));
      break;
    default:
      break;
  }
}

// Float to integer as a C cast would, but defined for NaN and out-of-range values (saturating).
int64_t DoubleToInt(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
  if (v <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

void StoreDouble(uint8_t* p, DataType dtype, double v) {
  switch (dtype) {
    case DT_FLOAT:
      Store<float>(p, static_cast<float>(v));
      break;
    case DT_DOUBLE:
      Store<double>(p, v);
      break;
    case DT_BOOL:
      Store<uint8_t>(p, v != 0.0 ? 1 : 0);
      break;
    default:
      StoreInt(p, dtype, DoubleToInt(v));
      break;
  }
}

Status CheckBytes(const GeTensor& tensor) {
  const DataType dtype = tensor.GetTensorDesc().GetDataType();
  const int64_t bytes = ElementBytes(dtype);
  if (bytes == 0) {
    return CannotFold("dtype " + std::to_string(static_cast<int>(dtype)) +
                      " is not handled by the host kernels");
  }
  const int64_t count = ElementCount(DimsOf(tensor));
  if (count < 0 || static_cast<int64_t>(tensor.GetSize()) != count * bytes) {
    return CannotFold("constant holds " + std::to_string(tensor.GetSize()) +
                      " bytes, not the size of its shape " +
                      tensor.GetTensorDesc().GetShape().ToString());
  }
  return Status::Ok();
}

}  // namespace

Status CannotFold(std::string reason) { return Status(StatusCode::kNotChanged, std::move(reason)); }
bool IsCannotFold(const Status& status) { return status.code() == StatusCode::kNotChanged; }

bool IsFloatType(DataType dtype) { return dtype == DT_FLOAT || dtype == DT_DOUBLE; }

bool IsIntType(DataType dtype) {
  switch (dtype) {
    case DT_INT8:
    case DT_UINT8:
    case DT_INT16:
    case DT_UINT16:
    case DT_INT32:
    case DT_UINT32:
    case DT_INT64:
    case DT_UINT64:
    case DT_BOOL:
      return true;
    default:
      return false;
  }
}

int64_t ElementBytes(DataType dtype) {
  switch (dtype) {
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL:
      return 1;
    case DT_INT16:
    case DT_UINT16:
      return 2;
    case DT_INT32:
    case DT_UINT32:
    case DT_FLOAT:
      return 4;
    case DT_INT64:
    case DT_UINT64:
    case DT_DOUBLE:
      return 8;
    default:
      return 0;
  }
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

const std::vector<int64_t>& DimsOf(const GeTensor& tensor) {
  return tensor.GetTensorDesc().GetShape().GetDims();
}

Result<const GeTensor*> Need(const std::vector<const GeTensor*>& inputs, size_t i) {
  if (i >= inputs.size() || inputs[i] == nullptr) {
    return CannotFold("input " + std::to_string(i) + " is not a constant");
  }
  return inputs[i];
}

Result<std::vector<int64_t>> ReadInts(const GeTensor& tensor) {
  GE_RETURN_IF_ERROR(CheckBytes(tensor));
  const DataType dtype = tensor.GetTensorDesc().GetDataType();
  const int64_t bytes = ElementBytes(dtype);
  const auto data = tensor.GetData();
  std::vector<int64_t> out(data.size() / static_cast<size_t>(bytes));
  for (size_t i = 0; i < out.size(); ++i) {
    const uint8_t* p = data.data() + i * static_cast<size_t>(bytes);
    out[i] = IsFloatType(dtype) ? DoubleToInt(LoadDouble(p, dtype)) : LoadInt(p, dtype);
  }
  return out;
}

Result<std::vector<double>> ReadDoubles(const GeTensor& tensor) {
  GE_RETURN_IF_ERROR(CheckBytes(tensor));
  const DataType dtype = tensor.GetTensorDesc().GetDataType();
  const int64_t bytes = ElementBytes(dtype);
  const auto data = tensor.GetData();
  std::vector<double> out(data.size() / static_cast<size_t>(bytes));
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = LoadDouble(data.data() + i * static_cast<size_t>(bytes), dtype);
  }
  return out;
}

GeTensor MakeTensorFromBytes(DataType dtype, const std::vector<int64_t>& dims,
                             std::vector<uint8_t> bytes) {
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  desc.SetOriginShape(GeShape(dims));
  desc.SetOriginDataType(dtype);
  return GeTensor(desc, std::move(bytes));
}

Result<GeTensor> MakeTensorFromInts(DataType dtype, const std::vector<int64_t>& dims,
                                    const std::vector<int64_t>& values) {
  const int64_t bytes = ElementBytes(dtype);
  if (bytes == 0) return CannotFold("output dtype is not handled by the host kernels");
  std::vector<uint8_t> data(values.size() * static_cast<size_t>(bytes));
  for (size_t i = 0; i < values.size(); ++i) {
    StoreInt(data.data() + i * static_cast<size_t>(bytes), dtype, values[i]);
  }
  return MakeTensorFromBytes(dtype, dims, std::move(data));
}

Result<GeTensor> MakeTensorFromDoubles(DataType dtype, const std::vector<int64_t>& dims,
                                       const std::vector<double>& values) {
  const int64_t bytes = ElementBytes(dtype);
  if (bytes == 0) return CannotFold("output dtype is not handled by the host kernels");
  std::vector<uint8_t> data(values.size() * static_cast<size_t>(bytes));
  for (size_t i = 0; i < values.size(); ++i) {
    StoreDouble(data.data() + i * static_cast<size_t>(bytes), dtype, values[i]);
  }
  return MakeTensorFromBytes(dtype, dims, std::move(data));
}

Result<std::vector<int64_t>> BroadcastDims(const std::vector<int64_t>& a,
                                           const std::vector<int64_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return ParamInvalid("shapes " + GeShape(a).ToString() + " and " + GeShape(b).ToString() +
                          " do not broadcast");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> BroadcastIndex(const std::vector<int64_t>& in_dims,
                                    const std::vector<int64_t>& out_dims) {
  const int64_t count = ElementCount(out_dims);
  std::vector<int64_t> index(static_cast<size_t>(std::max<int64_t>(count, 0)));
  const size_t rank = out_dims.size();
  const size_t offset = rank - in_dims.size();
  const std::vector<int64_t> in_strides = Strides(in_dims);
  std::vector<int64_t> pos(rank, 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t src = 0;
    for (size_t d = offset; d < rank; ++d) {
      if (in_dims[d - offset] != 1) src += pos[d] * in_strides[d - offset];
    }
    index[static_cast<size_t>(flat)] = src;
    for (size_t d = rank; d-- > 0;) {
      if (++pos[d] < out_dims[d]) break;
      pos[d] = 0;
    }
  }
  return index;
}

}  // namespace ge::folding
