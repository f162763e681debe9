// Host kernels for shapes and data movement: Shape, Size, Rank, ShapeN, the reshape family,
// ConcatV2, GatherV2, Slice, Transpose, Expand, Tile, ConstantOfShape.
#include <algorithm>
#include <cstring>

#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/infer_utils.h"
#include "host_kernels.h"
#include "host_tensor.h"

namespace ge::folding {
namespace {

using Inputs = std::vector<const GeTensor*>;
using Outputs = std::vector<GeTensor>;

std::vector<int64_t> KnownDims(const GeTensorDesc& desc, bool& known) {
  const GeShape& shape = desc.GetShape();
  known = !shape.IsUnknownDimNum() && !shape.IsUnknownShape();
  return shape.GetDims();
}

int64_t IntAttr(const OpDesc& op, const char* name, int64_t fallback) {
  int64_t v = fallback;
  AttrUtils::GetInt(op, name, v);
  return v;
}

DataType DtypeAttr(const OpDesc& op, const char* name, DataType fallback) {
  DataType v = fallback;
  AttrUtils::GetDataType(op, name, v);
  return v;
}

Result<Outputs> ShapeKernel(const OpDesc& op, const Inputs&) {
  bool known = false;
  std::vector<int64_t> dims = KnownDims(op.GetInputDesc(0), known);
  if (!known) return CannotFold("the input shape is not fully known");
  const int64_t rank = static_cast<int64_t>(dims.size());
  int64_t end = rank;
  const bool has_end = AttrUtils::GetInt(op, "end", end);
  const auto [start, stop] = infer::ShapeSlice(rank, IntAttr(op, "start", 0), end, has_end);
  std::vector<int64_t> values(dims.begin() + start, dims.begin() + stop);
  const int64_t n = static_cast<int64_t>(values.size());
  GE_ASSIGN_OR_RETURN(GeTensor t,
                      MakeTensorFromInts(DtypeAttr(op, "dtype", DT_INT64), {n}, values));
  return Outputs{std::move(t)};
}

Result<Outputs> ShapeNKernel(const OpDesc& op, const Inputs&) {
  Outputs out;
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    bool known = false;
    std::vector<int64_t> dims = KnownDims(op.GetInputDesc(static_cast<uint32_t>(i)), known);
    if (!known)
      return CannotFold("the shape of input " + std::to_string(i) + " is not fully known");
    const int64_t n = static_cast<int64_t>(dims.size());
    GE_ASSIGN_OR_RETURN(GeTensor t,
                        MakeTensorFromInts(DtypeAttr(op, "dtype", DT_INT64), {n}, dims));
    out.push_back(std::move(t));
  }
  return out;
}

Result<Outputs> SizeKernel(const OpDesc& op, const Inputs&) {
  bool known = false;
  std::vector<int64_t> dims = KnownDims(op.GetInputDesc(0), known);
  if (!known) return CannotFold("the input shape is not fully known");
  GE_ASSIGN_OR_RETURN(
      GeTensor t, MakeTensorFromInts(DtypeAttr(op, "dtype", DT_INT64), {}, {ElementCount(dims)}));
  return Outputs{std::move(t)};
}

Result<Outputs> RankKernel(const OpDesc& op, const Inputs&) {
  const GeShape& shape = op.GetInputDesc(0).GetShape();
  if (shape.IsUnknownDimNum()) return CannotFold("the input rank is not known");
  GE_ASSIGN_OR_RETURN(GeTensor t,
                      MakeTensorFromInts(DT_INT32, {}, {static_cast<int64_t>(shape.GetDimNum())}));
  return Outputs{std::move(t)};
}

// Reshape, Squeeze, Unsqueeze, ExpandDims, Flatten, Identity: the bytes of input 0 under the
// inferred output shape.
}  // namespace

Result<Outputs> ViewKernel(const OpDesc& op, const Inputs& in) {
  if (op.GetOutputsSize() != 1) return CannotFold("folds views of one output only");
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  bool known = false;
  std::vector<int64_t> dims = KnownDims(op.GetOutputDesc(0), known);
  if (!known) return CannotFold("the output shape is not known");
  DataType dtype = op.GetOutputDesc(0).GetDataType();
  if (dtype == DT_UNDEFINED) dtype = x->GetTensorDesc().GetDataType();
  const auto data = x->GetData();
  const int64_t bytes = TypeUtils::GetSizeInBytes(ElementCount(dims), dtype);
  if (bytes < 0 || static_cast<uint64_t>(bytes) != data.size()) {
    return ParamInvalid("output " + GeShape(dims).ToString() + " of " +
                        TypeUtils::DataTypeToSerialString(dtype) + " does not hold the " +
                        std::to_string(data.size()) + " bytes of input 0");
  }
  return Outputs{MakeTensorFromBytes(dtype, dims, std::vector<uint8_t>(data.begin(), data.end()))};
}

namespace {

int64_t NormalizeAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

Result<Outputs> ConcatKernel(const OpDesc& op, const Inputs& in) {
  if (in.empty()) return CannotFold("no inputs");
  GE_ASSIGN_OR_RETURN(const GeTensor* first, Need(in, 0));
  const DataType dtype = first->GetTensorDesc().GetDataType();
  const int64_t bytes = ElementBytes(dtype);
  if (bytes == 0) return CannotFold("dtype not handled");
  std::vector<int64_t> dims = DimsOf(*first);
  const int64_t rank = static_cast<int64_t>(dims.size());
  const int64_t axis = NormalizeAxis(IntAttr(op, "axis", 0), rank);
  if (axis < 0 || axis >= rank)
    return ParamInvalid("axis out of range for rank " + std::to_string(rank));
  int64_t total = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    GE_ASSIGN_OR_RETURN(const GeTensor* t, Need(in, i));
    const auto& d = DimsOf(*t);
    if (static_cast<int64_t>(d.size()) != rank || t->GetTensorDesc().GetDataType() != dtype) {
      return ParamInvalid("input " + std::to_string(i) +
                          " does not match input 0 in rank or dtype");
    }
    for (int64_t k = 0; k < rank; ++k) {
      if (k != axis && d[static_cast<size_t>(k)] != dims[static_cast<size_t>(k)]) {
        return ParamInvalid("input " + std::to_string(i) + " has shape " + GeShape(d).ToString() +
                            ", input 0 " + GeShape(dims).ToString());
      }
    }
    total += d[static_cast<size_t>(axis)];
  }
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= dims[static_cast<size_t>(k)];
  int64_t inner = bytes;
  for (int64_t k = axis + 1; k < rank; ++k) inner *= dims[static_cast<size_t>(k)];
  dims[static_cast<size_t>(axis)] = total;
  std::vector<uint8_t> out(static_cast<size_t>(ElementCount(dims) * bytes));
  size_t pos = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const GeTensor* t : in) {
      const size_t chunk = static_cast<size_t>(DimsOf(*t)[static_cast<size_t>(axis)] * inner);
      if (chunk == 0) continue;
      std::memcpy(out.data() + pos, t->GetData().data() + static_cast<size_t>(o) * chunk, chunk);
      pos += chunk;
    }
  }
  return Outputs{MakeTensorFromBytes(dtype, dims, std::move(out))};
}

Result<Outputs> GatherKernel(const OpDesc& op, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  GE_ASSIGN_OR_RETURN(const GeTensor* idx, Need(in, 1));
  const DataType dtype = x->GetTensorDesc().GetDataType();
  const int64_t bytes = ElementBytes(dtype);
  if (bytes == 0) return CannotFold("dtype not handled");
  const auto& xd = DimsOf(*x);
  const int64_t rank = static_cast<int64_t>(xd.size());
  const int64_t axis = NormalizeAxis(IntAttr(op, "axis", 0), rank);
  if (axis < 0 || axis >= rank)
    return ParamInvalid("axis out of range for rank " + std::to_string(rank));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> indices, ReadInts(*idx));
  const int64_t extent = xd[static_cast<size_t>(axis)];
  for (int64_t& i : indices) {
    if (i < -extent || i >= extent) {
      return ParamInvalid("index " + std::to_string(i) + " is out of range for axis " +
                          std::to_string(axis) + " of size " + std::to_string(extent));
    }
    if (i < 0) i += extent;
  }
  std::vector<int64_t> dims(xd.begin(), xd.begin() + axis);
  for (int64_t d : DimsOf(*idx)) dims.push_back(d);
  dims.insert(dims.end(), xd.begin() + axis + 1, xd.end());
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= xd[static_cast<size_t>(k)];
  int64_t inner = bytes;
  for (int64_t k = axis + 1; k < rank; ++k) inner *= xd[static_cast<size_t>(k)];
  std::vector<uint8_t> out(static_cast<size_t>(outer) * indices.size() *
                           static_cast<size_t>(inner));
  size_t pos = 0;
  const uint8_t* src = x->GetData().data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i : indices) {
      if (inner == 0) continue;
      std::memcpy(out.data() + pos, src + static_cast<size_t>((o * extent + i) * inner),
                  static_cast<size_t>(inner));
      pos += static_cast<size_t>(inner);
    }
  }
  return Outputs{MakeTensorFromBytes(dtype, dims, std::move(out))};
}

// Copies the elements of `x` selected per axis by start/step/count (count elements each).
std::vector<uint8_t> Gather(const GeTensor& x, const std::vector<int64_t>& start,
                            const std::vector<int64_t>& step, const std::vector<int64_t>& count,
                            int64_t bytes) {
  const std::vector<int64_t> strides = Strides(DimsOf(x));
  const int64_t n = ElementCount(count);
  std::vector<uint8_t> out(static_cast<size_t>(n * bytes));
  std::vector<int64_t> pos(count.size(), 0);
  const uint8_t* src = x.GetData().data();
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t offset = 0;
    for (size_t d = 0; d < count.size(); ++d) offset += (start[d] + pos[d] * step[d]) * strides[d];
    std::memcpy(out.data() + flat * bytes, src + offset * bytes, static_cast<size_t>(bytes));
    for (size_t d = count.size(); d-- > 0;) {
      if (++pos[d] < count[d]) break;
      pos[d] = 0;
    }
  }
  return out;
}

Result<Outputs> SliceKernel(const OpDesc&, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  GE_ASSIGN_OR_RETURN(const GeTensor* starts_t, Need(in, 1));
  GE_ASSIGN_OR_RETURN(const GeTensor* ends_t, Need(in, 2));
  const DataType dtype = x->GetTensorDesc().GetDataType();
  const int64_t bytes = ElementBytes(dtype);
  if (bytes == 0) return CannotFold("dtype not handled");
  const auto& xd = DimsOf(*x);
  const int64_t rank = static_cast<int64_t>(xd.size());
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> starts, ReadInts(*starts_t));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> ends, ReadInts(*ends_t));
  std::vector<int64_t> axes;
  std::vector<int64_t> steps(starts.size(), 1);
  if (in.size() > 3 && in[3] != nullptr) {  // absent optional inputs are nullptr
    GE_ASSIGN_OR_RETURN(axes, ReadInts(*in[3]));
  } else {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (in.size() > 4 && in[4] != nullptr) {
    GE_ASSIGN_OR_RETURN(steps, ReadInts(*in[4]));
  }
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    return ParamInvalid("starts, ends, axes and steps differ in length");
  }
  std::vector<int64_t> start(static_cast<size_t>(rank), 0);
  std::vector<int64_t> step(static_cast<size_t>(rank), 1);
  std::vector<int64_t> count(xd.begin(), xd.end());
  for (size_t i = 0; i < starts.size(); ++i) {
    const int64_t axis = NormalizeAxis(axes[i], rank);
    if (axis < 0 || axis >= rank)
      return ParamInvalid("axis " + std::to_string(axes[i]) + " out of range");
    const int64_t dim = xd[static_cast<size_t>(axis)];
    const int64_t s = steps[i];
    if (s == 0) return ParamInvalid("a step is 0");
    int64_t b = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t e = ends[i] < 0 ? std::max<int64_t>(ends[i], -dim - 1) + dim : ends[i];
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
    }
    const int64_t n = s > 0 ? (e - b + s - 1) / s : (b - e + (-s) - 1) / (-s);
    start[static_cast<size_t>(axis)] = b;
    step[static_cast<size_t>(axis)] = s;
    count[static_cast<size_t>(axis)] = std::max<int64_t>(n, 0);
  }
  return Outputs{MakeTensorFromBytes(dtype, count, Gather(*x, start, step, count, bytes))};
}

Result<Outputs> TransposeKernel(const OpDesc& op, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  const DataType dtype = x->GetTensorDesc().GetDataType();
  const int64_t bytes = ElementBytes(dtype);
  if (bytes == 0) return CannotFold("dtype not handled");
  const auto& xd = DimsOf(*x);
  const size_t rank = xd.size();
  std::vector<int64_t> perm;
  AttrUtils::GetListInt(op, "perm", perm);
  if (perm.empty()) {
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  }
  if (perm.size() != rank) return ParamInvalid("perm does not match the rank");
  std::vector<int64_t> dims(rank);
  std::vector<int64_t> src_strides(rank);
  const std::vector<int64_t> strides = Strides(xd);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t p = perm[i];
    if (p < 0 || p >= static_cast<int64_t>(rank)) return ParamInvalid("perm entry out of range");
    dims[i] = xd[static_cast<size_t>(p)];
    src_strides[i] = strides[static_cast<size_t>(p)];
  }
  const int64_t n = ElementCount(dims);
  std::vector<uint8_t> out(static_cast<size_t>(n * bytes));
  std::vector<int64_t> pos(rank, 0);
  const uint8_t* src = x->GetData().data();
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) offset += pos[d] * src_strides[d];
    std::memcpy(out.data() + flat * bytes, src + offset * bytes, static_cast<size_t>(bytes));
    for (size_t d = rank; d-- > 0;) {
      if (++pos[d] < dims[d]) break;
      pos[d] = 0;
    }
  }
  return Outputs{MakeTensorFromBytes(dtype, dims, std::move(out))};
}

// Broadcasts the bytes of `x` to `dims`.
GeTensor BroadcastBytes(const GeTensor& x, const std::vector<int64_t>& dims, int64_t bytes) {
  const std::vector<int64_t> index = BroadcastIndex(DimsOf(x), dims);
  std::vector<uint8_t> out(index.size() * static_cast<size_t>(bytes));
  const uint8_t* src = x.GetData().data();
  for (size_t i = 0; i < index.size(); ++i) {
    std::memcpy(out.data() + i * static_cast<size_t>(bytes), src + index[i] * bytes,
                static_cast<size_t>(bytes));
  }
  return MakeTensorFromBytes(x.GetTensorDesc().GetDataType(), dims, std::move(out));
}

Result<Outputs> ExpandKernel(const OpDesc&, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  GE_ASSIGN_OR_RETURN(const GeTensor* shape_t, Need(in, 1));
  const int64_t bytes = ElementBytes(x->GetTensorDesc().GetDataType());
  if (bytes == 0) return CannotFold("dtype not handled");
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ReadInts(*shape_t));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastDims(DimsOf(*x), shape));
  return Outputs{BroadcastBytes(*x, dims, bytes)};
}

Result<Outputs> TileKernel(const OpDesc&, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  GE_ASSIGN_OR_RETURN(const GeTensor* reps_t, Need(in, 1));
  const int64_t bytes = ElementBytes(x->GetTensorDesc().GetDataType());
  if (bytes == 0) return CannotFold("dtype not handled");
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> reps, ReadInts(*reps_t));
  const auto& xd = DimsOf(*x);
  if (reps.size() != xd.size()) return ParamInvalid("repeats do not match the rank");
  std::vector<int64_t> dims(xd.size());
  for (size_t i = 0; i < xd.size(); ++i) {
    if (reps[i] < 0) return ParamInvalid("a repeat is negative");
    dims[i] = xd[i] * reps[i];
  }
  const std::vector<int64_t> strides = Strides(xd);
  const int64_t n = ElementCount(dims);
  std::vector<uint8_t> out(static_cast<size_t>(n * bytes));
  std::vector<int64_t> pos(dims.size(), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t offset = 0;
    for (size_t d = 0; d < dims.size(); ++d) offset += (pos[d] % xd[d]) * strides[d];
    std::memcpy(out.data() + flat * bytes, x->GetData().data() + offset * bytes,
                static_cast<size_t>(bytes));
    for (size_t d = dims.size(); d-- > 0;) {
      if (++pos[d] < dims[d]) break;
      pos[d] = 0;
    }
  }
  return Outputs{MakeTensorFromBytes(x->GetTensorDesc().GetDataType(), dims, std::move(out))};
}

Result<Outputs> ConstantOfShapeKernel(const OpDesc& op, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* shape_t, Need(in, 0));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ReadInts(*shape_t));
  GeTensor value;
  if (!AttrUtils::GetTensor(op, "value", value)) {
    value = MakeTensorFromBytes(DT_FLOAT, {1}, std::vector<uint8_t>(4, 0));
  }
  const int64_t bytes = ElementBytes(value.GetTensorDesc().GetDataType());
  if (bytes == 0 || static_cast<int64_t>(value.GetSize()) != bytes) {
    return CannotFold("the value attribute is not one element of a handled dtype");
  }
  for (int64_t d : dims) {
    if (d < 0) return ParamInvalid("a dimension of the shape is negative");
  }
  GeTensor scalar =
      MakeTensorFromBytes(value.GetTensorDesc().GetDataType(), {},
                          std::vector<uint8_t>(value.GetData().begin(), value.GetData().end()));
  return Outputs{BroadcastBytes(scalar, dims, bytes)};
}

}  // namespace

void AddShapeKernels(std::vector<std::pair<std::string, HostKernel>>& out) {
  out.push_back({"Shape", {ShapeKernel, true}});
  out.push_back({"ShapeN", {ShapeNKernel, true}});
  out.push_back({"Size", {SizeKernel, true}});
  out.push_back({"Rank", {RankKernel, true}});
  out.push_back({"ConcatV2", {ConcatKernel, false}});
  out.push_back({"GatherV2", {GatherKernel, false}});
  out.push_back({"Slice", {SliceKernel, false}});
  out.push_back({"Transpose", {TransposeKernel, false}});
  out.push_back({"Expand", {ExpandKernel, false}});
  out.push_back({"Tile", {TileKernel, false}});
  out.push_back({"ConstantOfShape", {ConstantOfShapeKernel, false}});
}

}  // namespace ge::folding
