// ONNX NonMaxSuppression: per batch and class, boxes by descending score (ties: lower index
// first), above score_threshold when given, each kept unless its IoU with a box already kept for
// that class exceeds iou_threshold, at most max_output_boxes_per_class (absent: 0) per class.
//
// The selected count is known only after the run: the runtime allocates MaxOutputDims
// ([B * C * min(S, max_output), 3]) and reads ActualOutputDims.
#include <numeric>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

struct Box {
  float x_min, x_max, y_min, y_max;
};

// Corners from [y1, x1, y2, x2] (either diagonal) or [x_center, y_center, width, height].
Box ReadBox(const float* b, bool center_point) {
  if (center_point) {
    return {b[0] - b[2] / 2, b[0] + b[2] / 2, b[1] - b[3] / 2, b[1] + b[3] / 2};
  }
  return {std::min(b[1], b[3]), std::max(b[1], b[3]), std::min(b[0], b[2]), std::max(b[0], b[2])};
}

bool SuppressedByIou(const Box& a, const Box& b, float iou_threshold) {
  const float ix_min = std::max(a.x_min, b.x_min), ix_max = std::min(a.x_max, b.x_max);
  const float iy_min = std::max(a.y_min, b.y_min), iy_max = std::min(a.y_max, b.y_max);
  if (ix_max <= ix_min || iy_max <= iy_min) return false;
  const float inter = (ix_max - ix_min) * (iy_max - iy_min);
  const float area_a = (a.x_max - a.x_min) * (a.y_max - a.y_min);
  const float area_b = (b.x_max - b.x_min) * (b.y_max - b.y_min);
  const float uni = area_a + area_b - inter;
  if (inter <= 0 || area_a <= 0 || area_b <= 0 || uni <= 0) return false;
  return inter / uni > iou_threshold;
}

class NonMaxSuppressionKernel final : public KernelBase {
 public:
  bool OutputDimsDependOnData(size_t index) const override { return index == 0; }
  std::vector<int64_t> MaxOutputDims(size_t index,
                                     const std::vector<TensorSpec>& inputs) const override {
    if (index != 0 || inputs.size() < 2 || inputs[1].dims.size() != 3) return {};
    const auto& s = inputs[1].dims;  // [B, C, S]
    return {s[0] * s[1] * s[2], 3};
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    return index == 0 ? std::vector<int64_t>{selected_, 3} : std::vector<int64_t>{};
  }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& boxes = args.inputs[0];
    const KernelTensor& scores = args.inputs[1];
    const auto& bd = boxes.spec.dims;
    const auto& sd = scores.spec.dims;
    if (bd.size() != 3 || bd[2] != 4 || sd.size() != 3 || sd[0] != bd[0] || sd[2] != bd[1]) {
      return Error("boxes " + DimsToString(bd) + " must be [B, S, 4] and scores " +
                   DimsToString(sd) + " [B, C, S]");
    }
    if (boxes.spec.dtype != DT_FLOAT || scores.spec.dtype != DT_FLOAT) {
      return Unsupported(boxes.spec.dtype != DT_FLOAT ? boxes.spec.dtype : scores.spec.dtype);
    }
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dtype != DT_INT64) return Error("selected_indices must be int64");
    int64_t max_out = 0;
    double iou = 0, score_threshold = 0;
    const bool has_score_threshold = HasInput(args, 4);
    if (HasInput(args, 2) && NumElements(args.inputs[2].spec.dims) > 0) {
      std::vector<int64_t> v;
      if (!ReadInts(args.inputs[2], &v)) return Error("max_output_boxes_per_class must be int64");
      max_out = std::max<int64_t>(v[0], 0);
    }
    if (HasInput(args, 3) && !ReadScalar(args.inputs[3], &iou)) {
      return Error("iou_threshold must be a float scalar");
    }
    if (has_score_threshold && !ReadScalar(args.inputs[4], &score_threshold)) {
      return Error("score_threshold must be a float scalar");
    }
    if (iou < 0 || iou > 1)
      return Error("iou_threshold " + std::to_string(iou) + " is outside [0, 1]");
    const int64_t n_batch = bd[0], n_boxes = bd[1], n_classes = sd[1];
    const int64_t capacity = NumElements(y.spec.dims) / 3;
    const auto* box_data = static_cast<const float*>(boxes.data);
    const auto* score_data = static_cast<const float*>(scores.data);
    auto* out = static_cast<int64_t*>(y.data);
    selected_ = 0;
    std::vector<int64_t> order;
    std::vector<Box> kept;
    for (int64_t b = 0; b < n_batch; ++b) {
      const float* bb = box_data + b * n_boxes * 4;
      for (int64_t c = 0; c < n_classes; ++c) {
        const float* s = score_data + (b * n_classes + c) * n_boxes;
        order.clear();
        for (int64_t i = 0; i < n_boxes; ++i) {
          if (!has_score_threshold || s[i] > static_cast<float>(score_threshold))
            order.push_back(i);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t l, int64_t r) { return s[l] > s[r]; });
        kept.clear();
        for (int64_t i : order) {
          if (static_cast<int64_t>(kept.size()) >= max_out) break;
          const Box box = ReadBox(bb + i * 4, center_point_);
          const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](const Box& k) {
            return SuppressedByIou(box, k, static_cast<float>(iou));
          });
          if (suppressed) continue;
          kept.push_back(box);
          if (selected_ >= capacity) return Error("output has no room for the selection");
          out[selected_ * 3] = b;
          out[selected_ * 3 + 1] = c;
          out[selected_ * 3 + 2] = i;
          ++selected_;
        }
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    const int64_t c = AttrInt("center_point_box", 0);
    if (c != 0 && c != 1) return Error("center_point_box must be 0 or 1, got " + std::to_string(c));
    center_point_ = c == 1;
    return Status::Ok();
  }
  bool center_point_ = false;
  int64_t selected_ = 0;
};

}  // namespace

void RegisterNmsKernel(KernelTable& t) {
  t.Add("NonMaxSuppression", MakeKernel<NonMaxSuppressionKernel>);
}

}  // namespace ge::host_cpu
