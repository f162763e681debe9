// NonMaxSuppression through the data-dependent output protocol, against a brute-force reference.
#include <random>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::SpecOf;
using testing::TestTensor;

struct NmsRun {
  Status status;
  std::vector<int64_t> dims;
  std::vector<int64_t> selected;  ///< the first dims[0] * 3 values
};

// Allocates MaxOutputDims, runs, and keeps the ActualOutputDims prefix, as the runtime does.
NmsRun RunNms(const std::vector<TestTensor>& inputs, int64_t center_point_box = 0) {
  auto op = Op("NonMaxSuppression", "nms");
  AttrUtils::SetInt(op, "center_point_box", center_point_box);
  auto kernel = FindCpuKernel("NonMaxSuppression")();
  KernelSpec spec;
  spec.op = op.get();
  for (const TestTensor& t : inputs) {
    TensorSpec s;
    s.dtype = t.dtype;
    s.dims = t.dims;
    s.present = t.present;
    spec.inputs.push_back(std::move(s));
  }
  spec.outputs = {testing::SpecOf(DT_INT64, {-1, 3}, true)};
  NmsRun run;
  run.status = kernel->Prepare(spec);
  if (!run.status.ok()) return run;
  EXPECT_TRUE(kernel->OutputDimsDependOnData(0));
  const std::vector<int64_t> bound = kernel->MaxOutputDims(0, spec.inputs);
  std::vector<int64_t> out(static_cast<size_t>(testing::Count(bound)), -7);
  KernelArgs args;
  for (const TestTensor& t : inputs) {
    args.inputs.push_back(
        {t.present ? t.bytes.data() : nullptr, SpecOf(t.dtype, t.dims, t.present)});
  }
  args.outputs = {{out.data(), SpecOf(DT_INT64, bound, true)}};
  run.status = kernel->Run(args);
  if (!run.status.ok()) return run;
  run.dims = kernel->ActualOutputDims(0);
  run.selected.assign(out.begin(), out.begin() + testing::Count(run.dims));
  return run;
}

float Iou(const float* a, const float* b) {  // [y1, x1, y2, x2] boxes
  const float ay0 = std::min(a[0], a[2]), ay1 = std::max(a[0], a[2]);
  const float ax0 = std::min(a[1], a[3]), ax1 = std::max(a[1], a[3]);
  const float by0 = std::min(b[0], b[2]), by1 = std::max(b[0], b[2]);
  const float bx0 = std::min(b[1], b[3]), bx1 = std::max(b[1], b[3]);
  const float iw = std::min(ax1, bx1) - std::max(ax0, bx0);
  const float ih = std::min(ay1, by1) - std::max(ay0, by0);
  if (iw <= 0 || ih <= 0) return 0;
  const float inter = iw * ih;
  return inter / ((ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter);
}

// Repeatedly takes the best remaining box (lowest index on ties) and drops what it overlaps.
std::vector<int64_t> RefNms(const std::vector<float>& boxes, const std::vector<float>& scores,
                            int64_t b_count, int64_t c_count, int64_t s_count, int64_t max_out,
                            float iou, float score_threshold) {
  std::vector<int64_t> out;
  for (int64_t b = 0; b < b_count; ++b) {
    for (int64_t c = 0; c < c_count; ++c) {
      const float* s = scores.data() + (b * c_count + c) * s_count;
      std::vector<bool> alive(static_cast<size_t>(s_count));
      for (int64_t i = 0; i < s_count; ++i) alive[static_cast<size_t>(i)] = s[i] > score_threshold;
      for (int64_t taken = 0; taken < max_out; ++taken) {
        int64_t best = -1;
        for (int64_t i = 0; i < s_count; ++i) {
          if (alive[static_cast<size_t>(i)] && (best < 0 || s[i] > s[best])) best = i;
        }
        if (best < 0) break;
        out.insert(out.end(), {b, c, best});
        const float* bb = boxes.data() + (b * s_count + best) * 4;
        for (int64_t i = 0; i < s_count; ++i) {
          if (alive[static_cast<size_t>(i)] &&
              Iou(bb, boxes.data() + (b * s_count + i) * 4) > iou) {
            alive[static_cast<size_t>(i)] = false;
          }
        }
        alive[static_cast<size_t>(best)] = false;
      }
    }
  }
  return out;
}

TEST(NmsKernel, RandomBoxesMatchTheReference) {
  const int64_t b = 2, c = 3, s = 40;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> pos(0, 10), size(0.5F, 4), score(0, 1);
  std::vector<float> boxes, scores(static_cast<size_t>(b * c * s));
  for (int64_t i = 0; i < b * s; ++i) {
    const float y = pos(gen), x = pos(gen), h = size(gen), w = size(gen);
    // Alternate the corner order: either diagonal is accepted.
    if (i % 2 == 0) {
      boxes.insert(boxes.end(), {y, x, y + h, x + w});
    } else {
      boxes.insert(boxes.end(), {y + h, x + w, y, x});
    }
  }
  for (float& v : scores) v = score(gen);
  for (auto [max_out, iou, thr] :
       {std::tuple<int64_t, float, float>{5, 0.3F, 0.2F}, {100, 0.5F, 0.0F}, {3, 0.0F, 0.9F}}) {
    SCOPED_TRACE(max_out);
    auto r = RunNms({Make({b, s, 4}, boxes), Make({b, c, s}, scores), Make<int64_t>({1}, {max_out}),
                     Make<float>({1}, {iou}), Make<float>({1}, {thr})});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const auto want = RefNms(boxes, scores, b, c, s, max_out, iou, thr);
    EXPECT_EQ(r.dims, (std::vector<int64_t>{static_cast<int64_t>(want.size() / 3), 3}));
    EXPECT_EQ(r.selected, want);
  }
}

TEST(NmsKernel, CenterPointBoxesAndAbsentInputs) {
  // Two overlapping boxes [x_center, y_center, w, h] (IoU 0.6) and a far one.
  const auto boxes = Make<float>({1, 3, 4}, {0.5F, 0.5F, 1, 1, 0.5F, 0.75F, 1, 1, 5, 5, 1, 1});
  const auto scores = Make<float>({1, 1, 3}, {0.9F, 0.95F, 0.1F});
  auto r =
      RunNms({boxes, scores, Make<int64_t>({1}, {3}), Make<float>({1}, {0.5F}), testing::Absent()},
             /*center_point_box=*/1);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.selected, (std::vector<int64_t>{0, 0, 1, 0, 0, 2}));
  // No max_output_boxes_per_class: nothing is selected.
  r = RunNms({boxes, scores}, 1);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dims, (std::vector<int64_t>{0, 3}));
}

TEST(NmsKernel, Errors) {
  auto r =
      RunNms({Make<float>({1, 2, 4}, std::vector<float>(8, 0)), Make<float>({1, 1, 3}, {0, 0, 0})});
  ExpectError(r.status, "must be [B, S, 4]", "nms");
  r = RunNms({Make<float>({1, 1, 4}, {0, 0, 1, 1}), Make<float>({1, 1, 1}, {1}),
              Make<int64_t>({1}, {1}), Make<float>({1}, {1.5F})});
  ExpectError(r.status, "is outside [0, 1]", "nms");
  r = RunNms({Make<float>({1, 1, 4}, {0, 0, 1, 1}), Make<float>({1, 1, 1}, {1})}, 2);
  ExpectError(r.status, "center_point_box must be 0 or 1", "nms");
}

}  // namespace
}  // namespace ge::host_cpu
