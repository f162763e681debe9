// RotaryEmbedding (ONNX opset 23): rotates the first R values of each head (R =
// rotary_embedding_dim, or the head size) by its token's angles, as pairs (x[i], x[i + R/2]) or,
// interleaved, (x[2i], x[2i + 1]):
//   y1 = cos * x1 - sin * x2,  y2 = sin * x1 + cos * x2,
// the angles' cos and sin read from the caches at position_ids[b, s] ([max_position + 1, R/2]
// caches) or at (b, s) ([B, S, R/2] caches, no position_ids); the other values pass through.
// X is [B, H, S, D], or [B, S, H * D] with num_heads. Float; the CPU engine widens float16 /
// bfloat16 tensors.
#include <cstring>
#include <vector>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

class RotaryEmbeddingKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    for (size_t i = 0; i < 3; ++i) {
      if (args.inputs[i].spec.dtype != DT_FLOAT) return Unsupported(args.inputs[i].spec.dtype);
    }
    const bool has_ids = HasInput(args, 3);
    if (has_ids && args.inputs[3].spec.dtype != DT_INT64) {
      return Unsupported(args.inputs[3].spec.dtype, "position_ids");
    }
    const std::vector<int64_t>& x = args.inputs[0].spec.dims;
    if (args.outputs[0].spec.dims != x) {
      return Error("output Y " + DimsToString(args.outputs[0].spec.dims) + " differs from X " +
                   DimsToString(x));
    }
    if (x.size() != 3 && x.size() != 4)
      return Error("X " + DimsToString(x) + " must be 3-D or 4-D");
    const bool three_d = x.size() == 3;
    if (three_d && num_heads_ <= 0) {
      return Error("3-D X " + DimsToString(x) + " needs a positive attribute 'num_heads'");
    }
    if (three_d && x[2] % num_heads_ != 0) {
      return Error("the hidden size of X " + DimsToString(x) + " is not a multiple of num_heads " +
                   std::to_string(num_heads_));
    }
    if (!three_d && num_heads_ > 0 && x[1] != num_heads_) {
      return Error("X " + DimsToString(x) + " has " + std::to_string(x[1]) +
                   " heads but attribute 'num_heads' says " + std::to_string(num_heads_));
    }
    const int64_t batch = x[0], heads = three_d ? num_heads_ : x[1], seq = three_d ? x[1] : x[2];
    const int64_t size = three_d ? x[2] / num_heads_ : x[3];
    const int64_t rotary = rotary_dim_ > 0 ? rotary_dim_ : size;
    if (rotary % 2 != 0 || rotary > size) {
      return Error("the rotary dim " + std::to_string(rotary) +
                   " must be even and at most the head size " + std::to_string(size));
    }
    const int64_t half = rotary / 2;
    const std::vector<int64_t>& cos_dims = args.inputs[1].spec.dims;
    const std::vector<int64_t> want =
        has_ids ? std::vector<int64_t>{-1, half} : std::vector<int64_t>{batch, seq, half};
    bool fits = cos_dims.size() == want.size() && args.inputs[2].spec.dims == cos_dims;
    for (size_t d = 0; fits && d < want.size(); ++d) fits = want[d] < 0 || cos_dims[d] == want[d];
    if (!fits) {
      return Error("cos_cache " + DimsToString(cos_dims) + " and sin_cache " +
                   DimsToString(args.inputs[2].spec.dims) + " must both be " +
                   (has_ids ? "[max_position + 1, " + std::to_string(half) + "]"
                            : DimsToString(want) + " (no position_ids)"));
    }
    const int64_t* ids = nullptr;
    if (has_ids) {
      if (args.inputs[3].spec.dims != std::vector<int64_t>{batch, seq}) {
        return Error("position_ids " + DimsToString(args.inputs[3].spec.dims) + " must be " +
                     DimsToString({batch, seq}));
      }
      ids = static_cast<const int64_t*>(args.inputs[3].data);
      for (int64_t i = 0; i < batch * seq; ++i) {
        if (ids[i] < 0 || ids[i] >= cos_dims[0]) {
          return Error("position id " + std::to_string(ids[i]) + " is outside the caches' " +
                       std::to_string(cos_dims[0]) + " positions");
        }
      }
    }
    const auto* in = static_cast<const float*>(args.inputs[0].data);
    const auto* cos = static_cast<const float*>(args.inputs[1].data);
    const auto* sin = static_cast<const float*>(args.inputs[2].data);
    auto* out = static_cast<float*>(args.outputs[0].data);
    // Element offset of token (b, s) of head h, per layout.
    const int64_t stride_b = heads * seq * size;
    const int64_t stride_h = three_d ? size : seq * size;
    const int64_t stride_s = three_d ? heads * size : size;
    const bool interleaved = interleaved_;
    ParallelFor(batch * seq, threads_, heads * size * 4, [&](int64_t begin, int64_t end) {
      for (int64_t bs = begin; bs < end; ++bs) {
        const int64_t b = bs / seq, s = bs % seq;
        const int64_t angle = (ids != nullptr ? ids[bs] : bs) * half;
        const float* c = cos + angle;
        const float* n = sin + angle;
        for (int64_t h = 0; h < heads; ++h) {
          const int64_t o = b * stride_b + h * stride_h + s * stride_s;
          const float* xi = in + o;
          float* yo = out + o;
          // The pair of value i: (2i, 2i + 1) interleaved, else (i, i + R/2).
          const int64_t first = interleaved ? 2 : 1, second = interleaved ? 1 : half;
          for (int64_t i = 0; i < half; ++i) {
            const float x1 = xi[i * first], x2 = xi[i * first + second];
            yo[i * first] = c[i] * x1 - n[i] * x2;
            yo[i * first + second] = n[i] * x1 + c[i] * x2;
          }
          if (rotary < size && yo != xi) {
            std::memcpy(yo + rotary, xi + rotary,
                        static_cast<size_t>(size - rotary) * sizeof(float));
          }
        }
      }
    });
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    interleaved_ = AttrInt("interleaved", 0) != 0;
    num_heads_ = AttrInt("num_heads", 0);
    rotary_dim_ = AttrInt("rotary_embedding_dim", 0);
    if (rotary_dim_ < 0) {
      return Error("attribute 'rotary_embedding_dim' must not be negative, got " +
                   std::to_string(rotary_dim_));
    }
    return Status::Ok();
  }

  bool interleaved_ = false;
  int64_t num_heads_ = 0, rotary_dim_ = 0;
};

}  // namespace

void RegisterRotaryEmbeddingKernels(KernelTable& t) {
  t.Add("RotaryEmbedding", MakeKernel<RotaryEmbeddingKernel>);
}

}  // namespace ge::host_cpu
