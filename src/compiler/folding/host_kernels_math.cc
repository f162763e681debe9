// Host kernels for arithmetic: unary and binary elementwise ops with broadcasting, comparisons,
// Cast, Range, SelectV2. Floats compute in double and round once to the output dtype, which
// for float32 gives the correctly rounded result of + - * / and sqrt (as the CPU kernels do).
#include <cmath>
#include <functional>

#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/infer_utils.h"
#include "host_kernels.h"
#include "host_tensor.h"

namespace ge::folding {
namespace {

using Inputs = std::vector<const GeTensor*>;
using Outputs = std::vector<GeTensor>;

DataType TypeOf(const GeTensor& t) { return t.GetTensorDesc().GetDataType(); }

Status CheckHandled(DataType dtype) {
  if (IsFloatType(dtype) || IsIntType(dtype)) return Status::Ok();
  return CannotFold("dtype " + std::to_string(static_cast<int>(dtype)) + " not handled");
}

enum class Unary { kNeg, kAbs, kSqrt, kExp, kLog, kFloor, kCeil, kReciprocal, kRelu, kNot, kSign };

template <Unary kOp>
Result<Outputs> UnaryKernel(const OpDesc&, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  const DataType dtype = TypeOf(*x);
  GE_RETURN_IF_ERROR(CheckHandled(dtype));
  if (IsFloatType(dtype)) {
    GE_ASSIGN_OR_RETURN(std::vector<double> v, ReadDoubles(*x));
    for (double& e : v) {
      switch (kOp) {
        case Unary::kNeg:
          e = -e;
          break;
        case Unary::kAbs:
          e = std::fabs(e);
          break;
        case Unary::kSqrt:
          e = std::sqrt(e);
          break;
        case Unary::kExp:
          e = std::exp(e);
          break;
        case Unary::kLog:
          e = std::log(e);
          break;
        case Unary::kFloor:
          e = std::floor(e);
          break;
        case Unary::kCeil:
          e = std::ceil(e);
          break;
        case Unary::kReciprocal:
          e = 1.0 / e;
          break;
        case Unary::kRelu:
          e = e > 0 ? e : 0.0;
          break;
        case Unary::kNot:
          e = e == 0.0 ? 1.0 : 0.0;
          break;
        case Unary::kSign:
          e = e > 0 ? 1.0 : (e < 0 ? -1.0 : 0.0);
          break;
      }
    }
    GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromDoubles(dtype, DimsOf(*x), v));
    return Outputs{std::move(t)};
  }
  if (kOp == Unary::kSqrt || kOp == Unary::kExp || kOp == Unary::kLog ||
      kOp == Unary::kReciprocal) {
    return CannotFold("integer input for a floating-point function");
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, ReadInts(*x));
  for (int64_t& e : v) {
    switch (kOp) {
      case Unary::kNeg:
        e = -e;
        break;
      case Unary::kAbs:
        e = e < 0 ? -e : e;
        break;
      case Unary::kRelu:
        e = e > 0 ? e : 0;
        break;
      case Unary::kNot:
        e = e == 0 ? 1 : 0;
        break;
      case Unary::kSign:
        e = e > 0 ? 1 : (e < 0 ? -1 : 0);
        break;
      default:
        break;  // floor/ceil of an integer is itself
    }
  }
  GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromInts(dtype, DimsOf(*x), v));
  return Outputs{std::move(t)};
}

enum class Binary {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kFloorDiv,
  kMod,
  kFmod,
  kPow,
  kMax,
  kMin,
  kEqual,
  kLess,
  kGreater,
  kLessEqual,
  kGreaterEqual,
  kAnd,
  kOr
};

constexpr bool IsCompare(Binary op) { return op >= Binary::kEqual; }

double ApplyDouble(Binary op, double a, double b) {
  switch (op) {
    case Binary::kAdd:
      return a + b;
    case Binary::kSub:
      return a - b;
    case Binary::kMul:
      return a * b;
    case Binary::kDiv:
      return a / b;
    case Binary::kFloorDiv:
      return std::floor(a / b);
    case Binary::kMod: {
      const double r = std::fmod(a, b);
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
    case Binary::kFmod:
      return std::fmod(a, b);
    case Binary::kPow:
      return std::pow(a, b);
    case Binary::kMax:
      return a > b ? a : b;
    case Binary::kMin:
      return a < b ? a : b;
    case Binary::kEqual:
      return a == b;
    case Binary::kLess:
      return a < b;
    case Binary::kGreater:
      return a > b;
    case Binary::kLessEqual:
      return a <= b;
    case Binary::kGreaterEqual:
      return a >= b;
    case Binary::kAnd:
      return (a != 0) && (b != 0);
    case Binary::kOr:
      return (a != 0) || (b != 0);
  }
  return 0;
}

Result<int64_t> ApplyInt(Binary op, int64_t a, int64_t b) {
  // Wrapping arithmetic as the integer kernels do (unsigned to avoid undefined overflow).
  const auto ua = static_cast<uint64_t>(a);
  const auto ub = static_cast<uint64_t>(b);
  switch (op) {
    case Binary::kAdd:
      return static_cast<int64_t>(ua + ub);
    case Binary::kSub:
      return static_cast<int64_t>(ua - ub);
    case Binary::kMul:
      return static_cast<int64_t>(ua * ub);
    case Binary::kDiv:
    case Binary::kFloorDiv:
    case Binary::kMod:
    case Binary::kFmod: {
      if (b == 0) return CannotFold("integer division by zero");
      if (a == INT64_MIN && b == -1) return CannotFold("integer division overflows");
      if (op == Binary::kDiv) return a / b;
      if (op == Binary::kFmod) return a % b;
      const int64_t q = a / b;
      const int64_t r = a % b;
      const bool adjust = r != 0 && ((r < 0) != (b < 0));
      if (op == Binary::kFloorDiv) return adjust ? q - 1 : q;
      return adjust ? r + b : r;
    }
    case Binary::kPow: {
      if (b < 0) return CannotFold("integer power with a negative exponent");
      uint64_t result = 1;
      uint64_t base = ua;
      for (int64_t e = b; e > 0; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return static_cast<int64_t>(result);
    }
    case Binary::kMax:
      return a > b ? a : b;
    case Binary::kMin:
      return a < b ? a : b;
    case Binary::kEqual:
      return a == b;
    case Binary::kLess:
      return a < b;
    case Binary::kGreater:
      return a > b;
    case Binary::kLessEqual:
      return a <= b;
    case Binary::kGreaterEqual:
      return a >= b;
    case Binary::kAnd:
      return (a != 0) && (b != 0);
    case Binary::kOr:
      return (a != 0) || (b != 0);
  }
  return 0;
}

template <Binary kOp>
Result<Outputs> BinaryKernel(const OpDesc& op, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* a, Need(in, 0));
  GE_ASSIGN_OR_RETURN(const GeTensor* b, Need(in, 1));
  const DataType dtype = TypeOf(*a);
  GE_RETURN_IF_ERROR(CheckHandled(dtype));
  GE_RETURN_IF_ERROR(CheckHandled(TypeOf(*b)));
  if (kOp != Binary::kPow && TypeOf(*b) != dtype) {
    return ParamInvalid("inputs have different dtypes");
  }
  Binary effective = kOp;
  if (kOp == Binary::kMod) {
    int64_t fmod = 0;
    AttrUtils::GetInt(op, "fmod", fmod);
    if (fmod != 0) effective = Binary::kFmod;
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastDims(DimsOf(*a), DimsOf(*b)));
  const std::vector<int64_t> ia = BroadcastIndex(DimsOf(*a), dims);
  const std::vector<int64_t> ib = BroadcastIndex(DimsOf(*b), dims);
  const DataType out_type = IsCompare(kOp) ? DT_BOOL : dtype;
  if (IsFloatType(dtype) || IsFloatType(TypeOf(*b))) {
    GE_ASSIGN_OR_RETURN(std::vector<double> va, ReadDoubles(*a));
    GE_ASSIGN_OR_RETURN(std::vector<double> vb, ReadDoubles(*b));
    std::vector<double> out(ia.size());
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] =
          ApplyDouble(effective, va[static_cast<size_t>(ia[i])], vb[static_cast<size_t>(ib[i])]);
    }
    GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromDoubles(out_type, dims, out));
    return Outputs{std::move(t)};
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> va, ReadInts(*a));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> vb, ReadInts(*b));
  std::vector<int64_t> out(ia.size());
  for (size_t i = 0; i < out.size(); ++i) {
    GE_ASSIGN_OR_RETURN(out[i], ApplyInt(effective, va[static_cast<size_t>(ia[i])],
                                         vb[static_cast<size_t>(ib[i])]));
  }
  GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromInts(out_type, dims, out));
  return Outputs{std::move(t)};
}

Result<Outputs> CastKernel(const OpDesc& op, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 0));
  DataType to = DT_UNDEFINED;
  if (!AttrUtils::GetDataType(op, "to", to)) return ParamInvalid("attribute `to` is missing");
  GE_RETURN_IF_ERROR(CheckHandled(TypeOf(*x)));
  GE_RETURN_IF_ERROR(CheckHandled(to));
  if (IsFloatType(TypeOf(*x))) {
    GE_ASSIGN_OR_RETURN(std::vector<double> v, ReadDoubles(*x));
    GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromDoubles(to, DimsOf(*x), v));
    return Outputs{std::move(t)};
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, ReadInts(*x));
  GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromInts(to, DimsOf(*x), v));
  return Outputs{std::move(t)};
}

Result<Outputs> RangeKernel(const OpDesc&, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* start_t, Need(in, 0));
  GE_ASSIGN_OR_RETURN(const GeTensor* limit_t, Need(in, 1));
  GE_ASSIGN_OR_RETURN(const GeTensor* delta_t, Need(in, 2));
  const DataType dtype = TypeOf(*start_t);
  GE_RETURN_IF_ERROR(CheckHandled(dtype));
  GE_ASSIGN_OR_RETURN(std::vector<double> s, ReadDoubles(*start_t));
  GE_ASSIGN_OR_RETURN(std::vector<double> l, ReadDoubles(*limit_t));
  GE_ASSIGN_OR_RETURN(std::vector<double> d, ReadDoubles(*delta_t));
  if (s.size() != 1 || l.size() != 1 || d.size() != 1)
    return ParamInvalid("start, limit and delta must be scalars");
  if (d[0] == 0) return ParamInvalid("delta is 0");
  const int64_t count = infer::RangeLength(s[0], l[0], d[0]);
  if (count < 0) return ParamInvalid("start, limit and delta do not give a finite length");
  if (count > (int64_t{1} << 22)) return CannotFold("range longer than 4M elements");
  std::vector<double> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    out[static_cast<size_t>(i)] = s[0] + static_cast<double>(i) * d[0];
  GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromDoubles(dtype, {count}, out));
  return Outputs{std::move(t)};
}

Result<Outputs> SelectKernel(const OpDesc&, const Inputs& in) {
  GE_ASSIGN_OR_RETURN(const GeTensor* c, Need(in, 0));
  GE_ASSIGN_OR_RETURN(const GeTensor* x, Need(in, 1));
  GE_ASSIGN_OR_RETURN(const GeTensor* y, Need(in, 2));
  const DataType dtype = TypeOf(*x);
  GE_RETURN_IF_ERROR(CheckHandled(dtype));
  if (TypeOf(*y) != dtype) return ParamInvalid("x1 and x2 have different dtypes");
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastDims(DimsOf(*c), DimsOf(*x)));
  GE_ASSIGN_OR_RETURN(dims, BroadcastDims(dims, DimsOf(*y)));
  const auto ic = BroadcastIndex(DimsOf(*c), dims);
  const auto ix = BroadcastIndex(DimsOf(*x), dims);
  const auto iy = BroadcastIndex(DimsOf(*y), dims);
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> vc, ReadInts(*c));
  GE_ASSIGN_OR_RETURN(std::vector<double> vx, ReadDoubles(*x));
  GE_ASSIGN_OR_RETURN(std::vector<double> vy, ReadDoubles(*y));
  if (!IsFloatType(dtype)) {
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> ix64, ReadInts(*x));
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> iy64, ReadInts(*y));
    std::vector<int64_t> out(ic.size());
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = vc[static_cast<size_t>(ic[i])] != 0 ? ix64[static_cast<size_t>(ix[i])]
                                                   : iy64[static_cast<size_t>(iy[i])];
    }
    GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromInts(dtype, dims, out));
    return Outputs{std::move(t)};
  }
  std::vector<double> out(ic.size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = vc[static_cast<size_t>(ic[i])] != 0 ? vx[static_cast<size_t>(ix[i])]
                                                 : vy[static_cast<size_t>(iy[i])];
  }
  GE_ASSIGN_OR_RETURN(GeTensor t, MakeTensorFromDoubles(dtype, dims, out));
  return Outputs{std::move(t)};
}

}  // namespace

void AddMathKernels(std::vector<std::pair<std::string, HostKernel>>& out) {
  out.push_back({"Neg", {UnaryKernel<Unary::kNeg>, false}});
  out.push_back({"Abs", {UnaryKernel<Unary::kAbs>, false}});
  out.push_back({"Sqrt", {UnaryKernel<Unary::kSqrt>, false}});
  out.push_back({"Exp", {UnaryKernel<Unary::kExp>, false}});
  out.push_back({"Log", {UnaryKernel<Unary::kLog>, false}});
  out.push_back({"Floor", {UnaryKernel<Unary::kFloor>, false}});
  out.push_back({"Ceil", {UnaryKernel<Unary::kCeil>, false}});
  out.push_back({"Reciprocal", {UnaryKernel<Unary::kReciprocal>, false}});
  out.push_back({"Relu", {UnaryKernel<Unary::kRelu>, false}});
  out.push_back({"LogicalNot", {UnaryKernel<Unary::kNot>, false}});
  out.push_back({"Sign", {UnaryKernel<Unary::kSign>, false}});
  out.push_back({"Add", {BinaryKernel<Binary::kAdd>, false}});
  out.push_back({"Sub", {BinaryKernel<Binary::kSub>, false}});
  out.push_back({"Mul", {BinaryKernel<Binary::kMul>, false}});
  out.push_back({"RealDiv", {BinaryKernel<Binary::kDiv>, false}});
  out.push_back({"Div", {BinaryKernel<Binary::kDiv>, false}});
  out.push_back({"FloorDiv", {BinaryKernel<Binary::kFloorDiv>, false}});
  out.push_back({"Mod", {BinaryKernel<Binary::kMod>, false}});
  out.push_back({"FloorMod", {BinaryKernel<Binary::kMod>, false}});
  out.push_back({"Pow", {BinaryKernel<Binary::kPow>, false}});
  out.push_back({"Maximum", {BinaryKernel<Binary::kMax>, false}});
  out.push_back({"Minimum", {BinaryKernel<Binary::kMin>, false}});
  out.push_back({"Equal", {BinaryKernel<Binary::kEqual>, false}});
  out.push_back({"Less", {BinaryKernel<Binary::kLess>, false}});
  out.push_back({"Greater", {BinaryKernel<Binary::kGreater>, false}});
  out.push_back({"LessEqual", {BinaryKernel<Binary::kLessEqual>, false}});
  out.push_back({"GreaterEqual", {BinaryKernel<Binary::kGreaterEqual>, false}});
  out.push_back({"LogicalAnd", {BinaryKernel<Binary::kAnd>, false}});
  out.push_back({"LogicalOr", {BinaryKernel<Binary::kOr>, false}});
  out.push_back({"Cast", {CastKernel, false}});
  out.push_back({"Range", {RangeKernel, false}});
  out.push_back({"SelectV2", {SelectKernel, false}});
}

}  // namespace ge::folding
