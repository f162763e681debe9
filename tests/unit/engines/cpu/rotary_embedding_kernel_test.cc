// RotaryEmbedding on hand-checked rotations: x = (1, 0, 0, 1) turned by angles (a0, a1) gives,
// for the pairs (0, 2) and (1, 3), (cos a0, -sin a1, sin a0, cos a1), and interleaved, for the
// pairs (0, 1) and (2, 3), (cos a0, sin a0, -sin a1, cos a1).
#include <cmath>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Absent;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::RunKernel;
using testing::TestTensor;

std::shared_ptr<OpDesc> RotaryOp(bool interleaved, int64_t rotary_dim = 0, int64_t heads = 0) {
  auto op = Op("RotaryEmbedding");
  AttrUtils::SetInt(op, "interleaved", interleaved ? 1 : 0);
  if (rotary_dim > 0) AttrUtils::SetInt(op, "rotary_embedding_dim", rotary_dim);
  if (heads > 0) AttrUtils::SetInt(op, "num_heads", heads);
  return op;
}

// Three positions of angles (0.1 p, 0.2 p), p = 0, 1, 2.
struct Caches {
  std::vector<float> cos, sin;
  Caches() {
    for (int p = 0; p < 3; ++p) {
      for (int i = 0; i < 2; ++i) {
        cos.push_back(std::cos(0.1F * (i + 1) * p));
        sin.push_back(std::sin(0.1F * (i + 1) * p));
      }
    }
  }
};

TEST(RotaryEmbeddingKernel, RotatesHalvesOrInterleavedPairsAtTheGivenPositions) {
  const Caches c;
  // [B=1, H=1, S=2, D=4]: token 0 at position 2, token 1 at position 0 (no rotation).
  const TestTensor x = Make<float>({1, 1, 2, 4}, {1, 0, 0, 1, 1, 2, 3, 4});
  const TestTensor ids = Make<int64_t>({1, 2}, {2, 0});
  const float c0 = std::cos(0.2F), s0 = std::sin(0.2F), c1 = std::cos(0.4F), s1 = std::sin(0.4F);
  auto halves =
      RunKernel(RotaryOp(false), {x, Make<float>({3, 2}, c.cos), Make<float>({3, 2}, c.sin), ids},
                {{DT_FLOAT, {1, 1, 2, 4}}});
  ASSERT_TRUE(halves.status.ok()) << halves.status.message();
  ExpectNear(halves.outputs[0].Values<float>(), {c0, -s1, s0, c1, 1, 2, 3, 4});
  auto pairs =
      RunKernel(RotaryOp(true), {x, Make<float>({3, 2}, c.cos), Make<float>({3, 2}, c.sin), ids},
                {{DT_FLOAT, {1, 1, 2, 4}}});
  ASSERT_TRUE(pairs.status.ok()) << pairs.status.message();
  ExpectNear(pairs.outputs[0].Values<float>(), {c0, s0, -s1, c1, 1, 2, 3, 4});
}

// Without position_ids the caches are [B, S, R/2]: token s of batch b reads row (b, s).
TEST(RotaryEmbeddingKernel, WithoutPositionIdsTheCachesArePerToken) {
  const float a = 0.3F;
  const TestTensor x = Make<float>({1, 1, 1, 4}, {1, 0, 0, 1});
  auto r = RunKernel(RotaryOp(false),
                     {x, Make<float>({1, 1, 2}, {std::cos(a), 1}),
                      Make<float>({1, 1, 2}, {std::sin(a), 0}), Absent()},
                     {{DT_FLOAT, {1, 1, 1, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {std::cos(a), 0, std::sin(a), 1});
}

// rotary_embedding_dim 2 turns (x0, x1) only; 3-D input [B, S, H * D] with num_heads 2 turns
// each head alike.
TEST(RotaryEmbeddingKernel, PartialRotationAndThreeDInput) {
  const float a = 0.5F, ca = std::cos(a), sa = std::sin(a);
  const TestTensor x = Make<float>({1, 1, 8}, {1, 0, 7, 8, 0, 1, 5, 6});
  const TestTensor cos = Make<float>({1, 1}, {ca}), sin = Make<float>({1, 1}, {sa});
  const TestTensor ids = Make<int64_t>({1, 1}, {0});
  for (bool interleaved : {false, true}) {
    auto r = RunKernel(RotaryOp(interleaved, 2, 2), {x, cos, sin, ids}, {{DT_FLOAT, {1, 1, 8}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    // With two rotated values the pair is (0, 1) either way.
    ExpectNear(r.outputs[0].Values<float>(), {ca, sa, 7, 8, -sa, ca, 5, 6});
  }
}

TEST(RotaryEmbeddingKernel, BadShapesAndPositionsNameTheNode) {
  const TestTensor cos = Make<float>({3, 2}, std::vector<float>(6, 1.0F));
  const TestTensor ids = Make<int64_t>({1, 1}, {0});
  ExpectError(RunKernel(RotaryOp(false), {Make<float>({1, 1, 4}, {1, 2, 3, 4}), cos, cos, ids},
                        {{DT_FLOAT, {1, 1, 4}}})
                  .status,
              "needs a positive attribute 'num_heads'");
  ExpectError(
      RunKernel(RotaryOp(false, 3), {Make<float>({1, 1, 1, 4}, {1, 2, 3, 4}), cos, cos, ids},
                {{DT_FLOAT, {1, 1, 1, 4}}})
          .status,
      "the rotary dim 3 must be even");
  ExpectError(
      RunKernel(RotaryOp(false),
                {Make<float>({1, 1, 1, 4}, {1, 2, 3, 4}), cos, cos, Make<int64_t>({1, 1}, {3})},
                {{DT_FLOAT, {1, 1, 1, 4}}})
          .status,
      "position id 3 is outside the caches' 3 positions");
  ExpectError(RunKernel(RotaryOp(false),
                        {Make<float>({1, 1, 1, 6}, std::vector<float>(6, 1.0F)), cos, cos, ids},
                        {{DT_FLOAT, {1, 1, 1, 6}}})
                  .status,
              "cos_cache [3,2] and sin_cache [3,2] must both be [max_position + 1, 3]");
  ExpectError(
      RunKernel(RotaryOp(false, 0, 2), {Make<float>({1, 1, 1, 4}, {1, 2, 3, 4}), cos, cos, ids},
                {{DT_FLOAT, {1, 1, 1, 4}}})
          .status,
      "has 1 heads but attribute 'num_heads' says 2");
}

}  // namespace
}  // namespace ge::host_cpu
