// Cast, SelectV2 (ONNX Where), Range, Cumsum, Trilu, Einsum, Resize, ConstantOfShape, CastLike,
// EyeLike.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "builtin_ops.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::builtin {
namespace {

using infer::RankOf;
using infer::UnknownDimsShape;
using infer::UnknownRankShape;

Status InferCast(InferContext& ctx) {
  const DataType to = ctx.AttrDataType("to");
  if (!TypeUtils::IsValidDataType(to) || to == DT_UNDEFINED) {
    return ctx.Error("attribute 'to' is not a valid dtype");
  }
  return ctx.SetOutput(0, ctx.InputShape(0), to);
}

Status InferRange(InferContext& ctx) {
  for (size_t i = 0; i < 3; ++i) {
    const GeShape& s = ctx.InputShape(i);
    if (!s.IsUnknownDimNum() && infer::DimProduct(s.GetDims()) > 1) {
      return ctx.Error(ctx.DescribeInput(i) + " must be a scalar");
    }
  }
  const auto start = ctx.GetConstFloats(0);
  const auto limit = ctx.GetConstFloats(1);
  const auto delta = ctx.GetConstFloats(2);
  if (!start || !limit || !delta || start->size() != 1 || limit->size() != 1 ||
      delta->size() != 1) {
    return ctx.SetOutputShape(0, GeShape({UNKNOWN_DIM}));
  }
  if ((*delta)[0] == 0) return ctx.Error("delta must not be 0");
  const int64_t n = infer::RangeLength((*start)[0], (*limit)[0], (*delta)[0]);
  if (n < 0) {
    return ctx.Error("start " + std::to_string((*start)[0]) + ", limit " +
                     std::to_string((*limit)[0]) + " and delta " + std::to_string((*delta)[0]) +
                     " do not give a finite length");
  }
  return ctx.SetOutputShape(0, GeShape({n}));
}

Status InferCumsum(InferContext& ctx) {
  const int64_t r = RankOf(ctx.InputShape(0));
  if (auto axis = ctx.GetConstInts(1); axis && r >= 0) {
    if (axis->size() != 1) return ctx.Error("axis must hold one value");
    auto a = NormalizeAxisFor(ctx, (*axis)[0], r, "input axis");
    if (!a.ok()) return a.status();
  }
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

Status InferTrilu(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireMinRank(ctx, 0, 2));
  return ctx.SetOutputShape(0, ctx.InputShape(0));
}

// ---- Einsum ----
struct EinsumTerm {
  std::string letters;  // with '.' standing for the ellipsis position (one char)
};

Result<std::vector<EinsumTerm>> SplitTerms(const InferContext& ctx, const std::string& text) {
  std::vector<EinsumTerm> terms(1);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ',') {
      terms.emplace_back();
    } else if (c == '.') {
      if (text.compare(i, 3, "...") != 0 || terms.back().letters.find('.') != std::string::npos) {
        return ctx.Error("malformed ellipsis in equation '" + text + "'");
      }
      terms.back().letters += '.';
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(c)) != 0) {
      terms.back().letters += c;
    } else if (c != ' ') {
      return ctx.Error("unexpected character '" + std::string(1, c) + "' in equation");
    }
  }
  return terms;
}

Status InferEinsum(InferContext& ctx) {
  std::string eq = ctx.AttrStr("equation");
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const size_t arrow = eq.find("->");
  GE_ASSIGN_OR_RETURN(auto inputs, SplitTerms(ctx, eq.substr(0, arrow)));
  if (inputs.size() != ctx.NumInputs()) {
    return ctx.Error("equation '" + eq + "' has " + std::to_string(inputs.size()) +
                     " operands but the node has " + std::to_string(ctx.NumInputs()) + " inputs");
  }
  std::map<char, int64_t> dims;
  std::map<char, int> counts;
  GeShape ellipsis;  // broadcast of every operand's ellipsis dims
  bool unknown_rank = false;
  for (size_t t = 0; t < inputs.size(); ++t) {
    const std::string& letters = inputs[t].letters;
    const GeShape& s = ctx.InputShape(t);
    for (char c : letters) {
      if (c != '.') ++counts[c];
    }
    if (s.IsUnknownDimNum()) {
      unknown_rank = true;
      continue;
    }
    const bool has_ellipsis = letters.find('.') != std::string::npos;
    const int64_t named = static_cast<int64_t>(letters.size()) - (has_ellipsis ? 1 : 0);
    const int64_t rank = RankOf(s);
    if (rank < named || (!has_ellipsis && rank != named)) {
      return ctx.Error("operand " + std::to_string(t) + " '" + letters + "' does not fit " +
                       ctx.DescribeInput(t));
    }
    size_t d = 0;
    for (char c : letters) {
      if (c == '.') {
        const size_t n = static_cast<size_t>(rank - named);
        GeShape part(std::vector<int64_t>(s.GetDims().begin() + d, s.GetDims().begin() + d + n));
        GE_ASSIGN_OR_RETURN(ellipsis, infer::BroadcastShapes(ellipsis, part));
        d += n;
        continue;
      }
      const int64_t v = s.GetDim(d++);
      auto [it, inserted] = dims.emplace(c, v);
      if (!inserted) {
        if (!DimsCompatible(it->second, v) && it->second != 1 && v != 1) {
          return ctx.Error("label '" + std::string(1, c) + "' is " + std::to_string(it->second) +
                           " in one operand and " + std::to_string(v) + " in " +
                           ctx.DescribeInput(t));
        }
        if (it->second < 0 || it->second == 1) it->second = v;
      }
    }
  }
  std::string out_letters;
  if (arrow != std::string::npos) {
    GE_ASSIGN_OR_RETURN(auto out_terms, SplitTerms(ctx, eq.substr(arrow + 2)));
    if (out_terms.size() != 1) return ctx.Error("equation has more than one output");
    out_letters = out_terms[0].letters;
  } else {
    out_letters = ".";
    for (const auto& [c, n] : counts) {
      if (n == 1) out_letters += c;
    }
  }
  if (unknown_rank) return ctx.SetOutputShape(0, UnknownRankShape());
  std::vector<int64_t> out;
  for (char c : out_letters) {
    if (c == '.') {
      out.insert(out.end(), ellipsis.GetDims().begin(), ellipsis.GetDims().end());
      continue;
    }
    auto it = dims.find(c);
    if (it == dims.end()) {
      return ctx.Error("output label '" + std::string(1, c) + "' appears in no operand");
    }
    out.push_back(it->second);
  }
  return ctx.SetOutputShape(0, GeShape(out));
}

// ONNX Resize: output from "sizes" when known, else floor(dim * scale) from "scales".
Status InferResize(InferContext& ctx) {
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownDimNum()) return ctx.SetOutputShape(0, x);
  const int64_t rank = RankOf(x);
  // scales and sizes follow the attribute's order (axes [3, 2] lists dim 3's first).
  GE_ASSIGN_OR_RETURN(const std::vector<int64_t> order, AttrAxesInOrder(ctx, "axes", rank));
  std::vector<int64_t> out = x.GetDims();
  const bool has_sizes = ctx.HasInput(3);
  const bool has_scales =
      ctx.HasInput(2) && !(ctx.InputShape(2).GetDimNum() == 1 && ctx.InputShape(2).GetDim(0) == 0);
  if (has_sizes && has_scales) return ctx.Error("scales and sizes must not both be given");
  auto set_unknown = [&] {
    for (int64_t a : order) out[a] = UNKNOWN_DIM;
    return ctx.SetOutputShape(0, GeShape(out));
  };
  if (has_sizes) {
    const auto sizes = ctx.GetConstInts(3);
    if (!sizes) return set_unknown();
    if (sizes->size() != order.size()) return ctx.Error("sizes must have one value per axis");
    const std::string policy = ctx.AttrStr("keep_aspect_ratio_policy", "stretch");
    for (int64_t size : *sizes) {
      if (size < 0) return ctx.Error("sizes must not be negative, got " + std::to_string(size));
    }
    if (policy == "stretch") {
      for (size_t i = 0; i < order.size(); ++i) out[order[i]] = (*sizes)[i];
      return ctx.SetOutputShape(0, GeShape(out));
    }
    double scale = policy == "not_larger" ? 1e300 : 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const int64_t in = x.GetDim(static_cast<size_t>(order[i]));
      if (in <= 0) return set_unknown();
      const double s = static_cast<double>((*sizes)[i]) / static_cast<double>(in);
      scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
    }
    for (int64_t axis : order) {
      const int64_t in = x.GetDim(static_cast<size_t>(axis));
      out[axis] = static_cast<int64_t>(std::round(static_cast<double>(in) * scale));
    }
    return ctx.SetOutputShape(0, GeShape(out));
  }
  if (has_scales) {
    const auto scales = ctx.GetConstFloats(2);
    if (!scales) return set_unknown();
    if (scales->size() != order.size()) return ctx.Error("scales must have one value per axis");
    for (size_t i = 0; i < order.size(); ++i) {
      const double scale = (*scales)[i];
      if (!(scale > 0) || !std::isfinite(scale)) {
        return ctx.Error("scales must be positive and finite, got " + std::to_string(scale));
      }
      const int64_t in = out[order[i]];
      if (in < 0) {
        out[order[i]] = UNKNOWN_DIM;
        continue;
      }
      const double dim = std::floor(static_cast<double>(in) * scale);
      if (dim >= 0x1p62) {
        return ctx.Error("input dim " + std::to_string(in) + " scaled by " + std::to_string(scale) +
                         " is " + std::to_string(dim) + " elements, beyond any tensor");
      }
      out[order[i]] = static_cast<int64_t>(dim);
    }
    return ctx.SetOutputShape(0, GeShape(out));
  }
  return ctx.Error("needs scales or sizes");
}

Status InferConstantOfShape(InferContext& ctx) {
  const GeTensor* value = AttrUtils::GetPtr<GeTensor>(ctx.op(), "value");
  const DataType dt = value == nullptr ? DT_FLOAT : value->GetTensorDesc().GetDataType();
  if (auto shape = ctx.GetConstInts(0)) {
    for (int64_t d : *shape) {
      if (d < 0) return ctx.Error("shape values must not be negative");
    }
    return ctx.SetOutput(0, GeShape(*shape), dt);
  }
  const GeShape& s = ctx.InputShape(0);
  if (s.GetDimNum() == 1 && s.GetDim(0) >= 0) {
    return ctx.SetOutput(0, UnknownDimsShape(static_cast<size_t>(s.GetDim(0))), dt);
  }
  return ctx.SetOutput(0, UnknownRankShape(), dt);
}

// ONNX EyeLike: x's 2-D shape; dtype from attribute 'dtype' when set, else x's.
Status InferEyeLike(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireRank(ctx, 0, 2));
  DataType dt = ctx.InputDataType(0);
  if (ctx.FindAttr("dtype") != nullptr) {
    dt = ctx.AttrDataType("dtype");
    if (!TensorType::BasicType().Contains(dt)) {
      return ctx.Error("attribute 'dtype' must be a number or bool type");
    }
  }
  const GeShape& x = ctx.InputShape(0);
  return ctx.SetOutput(0, x.IsUnknownDimNum() ? UnknownDimsShape(2) : x, dt);
}

}  // namespace

void RegisterDataMovementOps(OpProtoRegistrar& r) {
  const TensorType all = TensorType::ALL();
  const TensorType numbers = TensorType::RealNumberType();
  // GE's Cast has attr dst_type (int); ours is ONNX's "to", as a DataType.
  r.Register(OpProtoBuilder("Cast")
                 .Input("x", all)
                 .Output("y", all)
                 .RequiredAttr("to", AttrValue::Type::kDataType)
                 .Attr("saturate", 1)
                 .Attr("round_mode", std::string("up"))  // how a value becomes FLOAT8_E8M0
                 .InferShape(InferCast)
                 .Build());
  r.Register(OpProtoBuilder("CastLike")  // ONNX name: y has target_type's dtype
                 .TypeConstraint("T2", all)
                 .Input("x", all)
                 .Input("target_type", "T2")
                 .Output("y", "T2")
                 .Attr("saturate", 1)
                 .Attr("round_mode", std::string("up"))
                 .InferShape(InferSameShape)
                 .Build());
  r.Register(OpProtoBuilder("SelectV2")  // ONNX Where
                 .TypeConstraint("T", all)
                 .Input("condition", TensorType::BOOL())
                 .Input("x1", "T")
                 .Input("x2", "T")
                 .Output("y", "T")
                 .InferShape(InferBroadcast)
                 .Build());
  r.Register(OpProtoBuilder("Range")
                 .TypeConstraint("T", numbers)
                 .Input("start", "T")
                 .Input("limit", "T")
                 .Input("delta", "T")
                 .Output("y", "T")
                 .InferShape(InferRange)
                 .Build());
  for (const char* t : {"Cumsum", "Cumprod"}) {  // GE's names (ONNX CumSum, CumProd)
    r.Register(OpProtoBuilder(t)
                   .TypeConstraint("T", numbers)
                   .Input("x", "T")
                   .Input("axis", TensorType::IndexNumberType())
                   .Output("y", "T")
                   .Attr("exclusive", 0)
                   .Attr("reverse", 0)
                   .InferShape(InferCumsum)
                   .Build());
  }
  r.Register(OpProtoBuilder("Trilu")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .OptionalInput("k", {DT_INT64})
                 .Output("y", "T")
                 .Attr("upper", 1)
                 .InferShape(InferTrilu)
                 .Build());
  r.Register(OpProtoBuilder("Einsum")
                 .TypeConstraint("T", numbers)
                 .DynamicInput("x", "T")
                 .Output("y", "T")
                 .RequiredAttr("equation", AttrValue::Type::kString)
                 .Attr("N", 0)
                 .InferShape(InferEinsum)
                 .Build());
  r.Register(OpProtoBuilder("Resize")
                 .TypeConstraint("T", all)
                 .Input("x", "T")
                 .OptionalInput("roi", TensorType::FloatingDataType())
                 .OptionalInput("scales", {DT_FLOAT})
                 .OptionalInput("sizes", {DT_INT64})
                 .Output("y", "T")
                 .Attr("mode", "nearest")
                 .Attr("coordinate_transformation_mode", "half_pixel")
                 .Attr("cubic_coeff_a", -0.75F)
                 .Attr("exclude_outside", 0)
                 .Attr("extrapolation_value", 0.0F)
                 .Attr("nearest_mode", "round_prefer_floor")
                 .Attr("antialias", 0)
                 .Attr("axes", std::vector<int64_t>{})
                 .Attr("keep_aspect_ratio_policy", "stretch")
                 .InferShape(InferResize)
                 .Build());
  r.Register(OpProtoBuilder("ConstantOfShape")  // ONNX name; attr value (default float 0)
                 .Input("shape", {DT_INT64})
                 .Output("y", all)
                 .OptionalAttr("value", AttrValue::Type::kTensor)
                 .InferShape(InferConstantOfShape)
                 .Build());
  // ONNX EyeLike: ones on diagonal k of a 2-D tensor shaped like x; attr dtype (no default: x's).
  r.Register(OpProtoBuilder("EyeLike")
                 .Input("x", TensorType::BasicType())
                 .Output("y", TensorType::BasicType())
                 .Attr("k", 0)
                 .OptionalAttr("dtype", AttrValue::Type::kDataType)
                 .InferShape(InferEyeLike)
                 .Build());
}

}  // namespace ge::builtin
