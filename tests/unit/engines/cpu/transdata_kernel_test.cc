// TransData between NCHW and NC1HWC0 (nChw16c): against a naive index map, channel padding zero,
// and a round trip.
#include <gtest/gtest.h>

#include "ge/graph/utils/attr_utils.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

std::shared_ptr<OpDesc> TransData(const std::string& src, const std::string& dst,
                                  int64_t channels = -1) {
  auto op = Op("TransData", "trans");
  AttrUtils::SetStr(op, "src_format", src);
  AttrUtils::SetStr(op, "dst_format", dst);
  AttrUtils::SetInt(op, "channels", channels);
  return op;
}

TEST(TransDataKernel, NchwToNc1hwc0AndBack) {
  for (int64_t c : {16, 20, 3, 40}) {
    SCOPED_TRACE("C = " + std::to_string(c));
    const int64_t n = 2, h = 3, w = 5, c1 = (c + 15) / 16;
    const std::vector<float> x = Random(n * c * h * w, static_cast<uint32_t>(c));
    testing::RunOptions two_threads;
    two_threads.threads = 2;
    auto blocked = RunKernel(TransData("NCHW", "NC1HWC0"), {Make<float>({n, c, h, w}, x)},
                             {{DT_FLOAT, {n, c1, h, w, 16}}}, two_threads);
    ASSERT_TRUE(blocked.status.ok()) << blocked.status.message();
    const std::vector<float> b = blocked.outputs[0].Values<float>();
    for (int64_t in = 0; in < n; ++in) {
      for (int64_t ic = 0; ic < c1 * 16; ++ic) {
        for (int64_t ih = 0; ih < h; ++ih) {
          for (int64_t iw = 0; iw < w; ++iw) {
            const float got =
                b[static_cast<size_t>((((in * c1 + ic / 16) * h + ih) * w + iw) * 16 + ic % 16)];
            const float want =
                ic < c ? x[static_cast<size_t>(((in * c + ic) * h + ih) * w + iw)] : 0.0F;
            ASSERT_EQ(got, want) << in << "," << ic << "," << ih << "," << iw;
          }
        }
      }
    }
    auto back = RunKernel(TransData("NC1HWC0", "NCHW", c), {blocked.outputs[0]},
                          {{DT_FLOAT, {n, c, h, w}}});
    ASSERT_TRUE(back.status.ok()) << back.status.message();
    EXPECT_EQ(back.outputs[0].Values<float>(), x);
  }
}

TEST(TransDataKernel, RefusesOtherFormatsAndMismatchedShapes) {
  const auto x = Make<float>({1, 16, 2, 2}, Random(64));
  ExpectError(RunKernel(TransData("NCHW", "NHWC"), {x}, {{DT_FLOAT, {1, 2, 2, 16}}}).status,
              "converts NCHW <-> NC1HWC0 only", "trans");
  ExpectError(RunKernel(TransData("NCHW", "NC1HWC0"), {x}, {{DT_FLOAT, {1, 2, 2, 2, 16}}}).status,
              "do not describe the same tensor", "trans");
}

}  // namespace
}  // namespace ge::host_cpu
