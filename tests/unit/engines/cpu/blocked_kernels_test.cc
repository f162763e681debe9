// The kernels that read NC1HWC0 (nChw16c) tensors as the layout planner gives them after a
// convolution: MaxPool and AvgPool read and write them, the global pools read them and write
// NCHW or NC1HWC0, BatchNorm reads and writes them. Each is checked against the same kernel on
// the NCHW tensor, with channel counts that leave padding (which must come out zero).
#include <gtest/gtest.h>

#include "ge/graph/utils/attr_utils.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

constexpr int64_t kC0 = 16;

/// NCHW -> NC1HWC0, padding channels zero.
std::vector<float> ToBlocked(const std::vector<float>& x, const std::vector<int64_t>& d) {
  const int64_t n = d[0], c = d[1], hw = d[2] * d[3], c1 = (c + kC0 - 1) / kC0;
  std::vector<float> out(static_cast<size_t>(n * c1 * hw * kC0), 0.0F);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = 0; p < hw; ++p)
        out[static_cast<size_t>(((i * c1 + k / kC0) * hw + p) * kC0 + k % kC0)] =
            x[static_cast<size_t>((i * c + k) * hw + p)];
  return out;
}

std::vector<int64_t> BlockedDims(const std::vector<int64_t>& d) {
  return {d[0], (d[1] + kC0 - 1) / kC0, d[2], d[3], kC0};
}

TensorSpec Spec(const std::vector<int64_t>& logical, bool blocked) {
  TensorSpec s;
  s.dtype = DT_FLOAT;
  s.dims = blocked ? BlockedDims(logical) : logical;
  s.format = blocked ? FORMAT_NC1HWC0 : FORMAT_NCHW;
  if (blocked) s.origin_dims = logical;
  return s;
}

/// Prepares and runs `op` on one input (and plain 1-D `extra` inputs) as the runtime would, with
/// the given layouts.
Result<std::vector<float>> RunLaidOut(const std::shared_ptr<OpDesc>& op,
                                      const std::vector<float>& x, const std::vector<int64_t>& xd,
                                      bool x_blocked, const std::vector<int64_t>& yd,
                                      bool y_blocked,
                                      const std::vector<std::vector<float>>& extra = {}) {
  std::unique_ptr<CpuKernel> kernel = FindCpuKernel(op->GetType())();
  KernelSpec spec;
  spec.op = op.get();
  spec.inputs = {Spec(xd, x_blocked)};
  for (const auto& e : extra) spec.inputs.push_back(Spec({static_cast<int64_t>(e.size())}, false));
  spec.outputs = {Spec(yd, y_blocked)};
  spec.const_inputs.assign(spec.inputs.size(), nullptr);
  GE_RETURN_IF_ERROR(kernel->Prepare(spec));
  const std::vector<float> in = x_blocked ? ToBlocked(x, xd) : x;
  std::vector<float> out(static_cast<size_t>(testing::Count(spec.outputs[0].dims)), -7.0F);
  std::vector<uint8_t> ws(static_cast<size_t>(kernel->WorkspaceBytes()) + 64);
  KernelArgs args;
  args.workspace = ws.data() + (64 - reinterpret_cast<uintptr_t>(ws.data()) % 64) % 64;
  args.inputs = {{in.data(), spec.inputs[0]}};
  for (size_t i = 0; i < extra.size(); ++i)
    args.inputs.push_back({extra[i].data(), spec.inputs[i + 1]});
  args.outputs = {{out.data(), spec.outputs[0]}};
  GE_RETURN_IF_ERROR(kernel->Run(args));
  return out;
}

std::shared_ptr<OpDesc> Pool(const std::string& type) {
  auto op = Op(type, "pool");
  AttrUtils::SetListInt(op, "kernel_shape", std::vector<int64_t>{3, 3});
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{2, 2});
  AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{1, 1, 1, 1});
  return op;
}

TEST(BlockedPool, MaxAndAvgPoolGiveTheNchwResultInNc1hwc0) {
  for (const char* type : {"MaxPool", "AvgPool"}) {
    for (int64_t c : {16, 20, 40}) {
      SCOPED_TRACE(std::string(type) + ", C = " + std::to_string(c));
      const std::vector<int64_t> xd = {2, c, 9, 9}, yd = {2, c, 5, 5};
      const std::vector<float> x =
          Random(testing::Count(xd), static_cast<uint32_t>(c), -2.0F, 2.0F);
      auto plain = RunLaidOut(Pool(type), x, xd, false, yd, false);
      ASSERT_TRUE(plain.ok()) << plain.status().message();
      auto blocked = RunLaidOut(Pool(type), x, xd, true, yd, true);
      ASSERT_TRUE(blocked.ok()) << blocked.status().message();
      const std::vector<float> want = ToBlocked(*plain, yd);  // padding zero
      testing::ExpectNear(*blocked, want, 1e-6F, 1e-6F);
    }
  }
}

TEST(BlockedPool, GlobalPoolsReadNc1hwc0AndWriteNchwOrNc1hwc0) {
  for (const char* type : {"GlobalAveragePool", "GlobalMaxPool"}) {
    for (int64_t c : {16, 20, 40}) {
      SCOPED_TRACE(std::string(type) + ", C = " + std::to_string(c));
      const std::vector<int64_t> xd = {2, c, 7, 7}, yd = {2, c, 1, 1};
      const std::vector<float> x =
          Random(testing::Count(xd), static_cast<uint32_t>(c + 1), -2.0F, 2.0F);
      auto plain = RunLaidOut(Op(type, "pool"), x, xd, false, yd, false);
      ASSERT_TRUE(plain.ok()) << plain.status().message();
      auto blocked = RunLaidOut(Op(type, "pool"), x, xd, true, yd, false);
      ASSERT_TRUE(blocked.ok()) << blocked.status().message();
      testing::ExpectNear(*blocked, *plain, 1e-5F, 1e-6F);
      auto both = RunLaidOut(Op(type, "pool"), x, xd, true, yd, true);
      ASSERT_TRUE(both.ok()) << both.status().message();
      testing::ExpectNear(*both, ToBlocked(*plain, yd), 1e-5F, 1e-6F);  // padding zero
    }
  }
}

TEST(BlockedNorm, BatchNormGivesTheNchwResultInNc1hwc0) {
  for (int64_t c : {16, 20, 40}) {
    SCOPED_TRACE("C = " + std::to_string(c));
    const std::vector<int64_t> xd = {2, c, 5, 3};
    const std::vector<float> x = Random(testing::Count(xd), static_cast<uint32_t>(c), -2.0F, 2.0F);
    const auto n = static_cast<size_t>(c);
    const std::vector<std::vector<float>> params = {
        Random(static_cast<int64_t>(n), 1, 0.5F, 1.5F), Random(static_cast<int64_t>(n), 2),
        Random(static_cast<int64_t>(n), 3), Random(static_cast<int64_t>(n), 4, 0.5F, 2.0F)};
    auto plain = RunLaidOut(Op("BatchNorm", "bn"), x, xd, false, xd, false, params);
    ASSERT_TRUE(plain.ok()) << plain.status().message();
    auto blocked = RunLaidOut(Op("BatchNorm", "bn"), x, xd, true, xd, true, params);
    ASSERT_TRUE(blocked.ok()) << blocked.status().message();
    testing::ExpectNear(*blocked, ToBlocked(*plain, xd), 1e-6F, 1e-6F);  // padding zero
  }
}

TEST(BlockedPool, MixedLayoutsAreRefusedNamingTheNode) {
  const std::vector<int64_t> xd = {1, 16, 9, 9}, yd = {1, 16, 5, 5};
  const std::vector<float> x = Random(testing::Count(xd), 3);
  auto mixed = RunLaidOut(Pool("MaxPool"), x, xd, true, yd, false);
  ASSERT_FALSE(mixed.ok());
  testing::ExpectError(mixed.status(), "both be NC1HWC0 or neither", "pool");
  auto global = RunLaidOut(Op("GlobalMaxPool", "pool"), x, xd, false, {1, 16, 1, 1}, true);
  ASSERT_FALSE(global.ok());
  testing::ExpectError(global.status(), "an NC1HWC0 output needs an NC1HWC0 input", "pool");
}

}  // namespace
}  // namespace ge::host_cpu

namespace ge::host_cpu {
namespace {

TEST(ChannelPadding, ZeroesTheLanesPastTheChannelsOfEachImage) {
  const std::vector<int64_t> logical = {2, 20, 3, 1};  // two images, 20 channels: 12 lanes pad
  const TensorSpec spec = Spec(logical, /*blocked=*/true);
  const std::optional<ChannelPadding> pad = ChannelPadding::Of(spec);
  ASSERT_TRUE(pad.has_value());
  std::vector<float> data(static_cast<size_t>(testing::Count(spec.dims)), 7.0F);
  pad->Zero(data.data());
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t c1 = 0; c1 < 2; ++c1)
      for (int64_t p = 0; p < 3; ++p)
        for (int64_t l = 0; l < kC0; ++l) {
          const float want = c1 * kC0 + l < 20 ? 7.0F : 0.0F;
          EXPECT_EQ(data[static_cast<size_t>(((n * 2 + c1) * 3 + p) * kC0 + l)], want)
              << n << " " << c1 << " " << p << " " << l;
        }
  EXPECT_FALSE(ChannelPadding::Of(Spec({1, 32, 3, 3}, true)).has_value());   // whole blocks
  EXPECT_FALSE(ChannelPadding::Of(Spec({1, 20, 3, 3}, false)).has_value());  // NCHW
}

}  // namespace
}  // namespace ge::host_cpu
