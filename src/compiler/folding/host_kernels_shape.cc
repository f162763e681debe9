// The folds that need no kernel: Shape, ShapeN, Size and Rank read the input descs, and views and
// pass-throughs give input 0's bytes under the output desc. Everything else folds on an engine.
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
  const auto rank = static_cast<int64_t>(dims.size());
  int64_t end = rank;
  const bool has_end = AttrUtils::GetInt(op, "end", end);
  const auto [start, stop] = infer::ShapeSlice(rank, IntAttr(op, "start", 0), end, has_end);
  std::vector<int64_t> values(dims.begin() + start, dims.begin() + stop);
  const auto n = static_cast<int64_t>(values.size());
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
    const auto n = static_cast<int64_t>(dims.size());
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

void AddShapeKernels(std::vector<std::pair<std::string, HostKernel>>& out) {
  out.push_back({"Shape", {ShapeKernel, true}});
  out.push_back({"ShapeN", {ShapeNKernel, true}});
  out.push_back({"Size", {SizeKernel, true}});
  out.push_back({"Rank", {RankKernel, true}});
}

}  // namespace ge::folding
