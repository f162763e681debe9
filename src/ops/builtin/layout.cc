// Layout conversion: TransData (GE's name and attributes src_format / dst_format), which the CPU
// engine's layout planner inserts where a blocked (NC1HWC0) tensor meets a plain (NCHW) one.
//
// NCHW [N, C, H, W] <-> NC1HWC0 [N, ceil(C / 16), H, W, 16], channels zero-padded. GE reads the
// channel count of an NC1HWC0 -> NCHW conversion from the output's origin shape; here it is the
// attribute `channels` (ours), so that inference needs nothing but the node.
#include "builtin_ops.h"

namespace ge::builtin {
namespace {

constexpr int64_t kC0 = 16;

Status InferTransData(InferContext& ctx) {
  const std::string src = ctx.AttrStr("src_format");
  const std::string dst = ctx.AttrStr("dst_format");
  const GeShape& x = ctx.InputShape(0);
  if (x.IsUnknownShape()) {
    return ctx.Error("TransData needs a static shape, got " + x.ToString());
  }
  if (src == "NCHW" && dst == "NC1HWC0") {
    if (x.GetDimNum() != 4) return ctx.Error(ctx.DescribeInput(0) + " must be 4-D NCHW");
    const int64_t c = x.GetDim(1);
    return ctx.SetOutputShape(
        0, GeShape({x.GetDim(0), (c + kC0 - 1) / kC0, x.GetDim(2), x.GetDim(3), kC0}));
  }
  if (src == "NC1HWC0" && dst == "NCHW") {
    if (x.GetDimNum() != 5 || x.GetDim(4) != kC0) {
      return ctx.Error(ctx.DescribeInput(0) + " must be NC1HWC0 [N, C1, H, W, 16]");
    }
    const int64_t c = ctx.AttrInt("channels", -1);
    if (c <= 0 || (c + kC0 - 1) / kC0 != x.GetDim(1)) {
      return ctx.Error("attribute 'channels' (" + std::to_string(c) +
                       ") does not fit C1 = " + std::to_string(x.GetDim(1)));
    }
    return ctx.SetOutputShape(0, GeShape({x.GetDim(0), c, x.GetDim(2), x.GetDim(3)}));
  }
  return ctx.Error("converts NCHW <-> NC1HWC0 only, not '" + src + "' -> '" + dst + "'");
}

}  // namespace

void RegisterLayoutOps(OpProtoRegistrar& r) {
  r.Register(OpProtoBuilder("TransData")
                 .Input("x", {DT_FLOAT})
                 .Output("y", {DT_FLOAT})
                 .RequiredAttr("src_format", AttrValue::Type::kString)
                 .RequiredAttr("dst_format", AttrValue::Type::kString)
                 .Attr("channels", -1)
                 .InferShape(InferTransData)
                 .Build());
}

}  // namespace ge::builtin
