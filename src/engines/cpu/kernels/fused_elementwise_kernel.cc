// FusedElementwise on the CPU: an interpreter of the node's expression program
// (ge/ops/fused_ops.h) that evaluates it over tiles of kTile output elements.
//
// A tile is kTile contiguous output elements (or several short rows when the innermost dim is
// short). Each input is read once per tile: a pointer into the input where it is contiguous, a
// scalar where it is constant along the tile (numpy broadcasting of the inner dim), or gathered
// row by row (a repeated row) into a small buffer. Every instruction then runs one loop of
// exactly kTile lanes over per-thread scratch slots that stay in L1, so the compiler vectorizes
// each loop (constant trip count, `omp simd`; Eigen's packet math for exp, tanh, erf, ...), and
// each output is written once. Slots are reused once a register is dead (allocated at Prepare).
// Tiles are split over OpenMP threads for large tensors. Shapes are read at every Run, so
// dynamic shapes need nothing more.
#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <unsupported/Eigen/SpecialFunctions>

#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_elementwise.h"
#include "ge/ops/fused_ops.h"
#include "kernel_util.h"
#include "logistic.h"

namespace ge::host_cpu {
namespace {

using fused::EwInstruction;
using fused::EwOp;
using fused::EwProgram;

constexpr int64_t kTile = 64;
constexpr size_t kSlotAlign = 64;  // bytes
using TileArray = Eigen::Array<float, kTile, 1>;
using TileOut = Eigen::Map<TileArray, Eigen::Aligned64>;  // scratch slots are aligned
using TileIn = Eigen::Map<const TileArray>;               // operands may point into an input

/// A register's value within the current tile: kTile floats at `p`, or the scalar `s` when p is
/// null (constant along the tile).
struct Val {
  const float* p = nullptr;
  float s = 0.0F;
};

template <EwOp kOp>
inline float Binary(float a, float b) {
  if constexpr (kOp == EwOp::kAdd) return a + b;
  if constexpr (kOp == EwOp::kSub) return a - b;
  if constexpr (kOp == EwOp::kMul) return a * b;
  if constexpr (kOp == EwOp::kDiv) return a / b;
  if constexpr (kOp == EwOp::kMax) return a > b ? a : b;
  if constexpr (kOp == EwOp::kMin) return a < b ? a : b;
  if constexpr (kOp == EwOp::kPow) return std::pow(a, b);
}

/// d = a op b over the tile; a scalar when both operands are.
template <EwOp kOp>
Val RunBinary(const Val& a, const Val& b, float* __restrict d) {
  if (a.p == nullptr && b.p == nullptr) return {nullptr, Binary<kOp>(a.s, b.s)};
  if (a.p != nullptr && b.p != nullptr) {
    const float* __restrict x = a.p;
    const float* __restrict y = b.p;
#pragma omp simd
    for (int64_t i = 0; i < kTile; ++i) d[i] = Binary<kOp>(x[i], y[i]);
  } else if (a.p != nullptr) {
    const float* __restrict x = a.p;
    const float s = b.s;
#pragma omp simd
    for (int64_t i = 0; i < kTile; ++i) d[i] = Binary<kOp>(x[i], s);
  } else {
    const float s = a.s;
    const float* __restrict y = b.p;
#pragma omp simd
    for (int64_t i = 0; i < kTile; ++i) d[i] = Binary<kOp>(s, y[i]);
  }
  return {d, 0.0F};
}

/// Pow with an immediate exponent of 2 is a product (what most exporters mean by it).
Val RunPow(const Val& a, const Val& b, float* __restrict d) {
  if (a.p != nullptr && b.p == nullptr && b.s == 2.0F) return RunBinary<EwOp::kMul>(a, a, d);
  return RunBinary<EwOp::kPow>(a, b, d);
}

/// Unary operations as plain loops the compiler vectorizes.
template <EwOp kOp>
inline float Unary(float x, float p0, float p1) {
  if constexpr (kOp == EwOp::kRelu) return x > 0.0F ? x : 0.0F;
  if constexpr (kOp == EwOp::kNeg) return -x;
  if constexpr (kOp == EwOp::kAbs) return std::fabs(x);
  if constexpr (kOp == EwOp::kReciprocal) return 1.0F / x;
  if constexpr (kOp == EwOp::kFloor) return std::floor(x);
  if constexpr (kOp == EwOp::kCeil) return std::ceil(x);
  if constexpr (kOp == EwOp::kLeakyRelu) return x < 0.0F ? x * p0 : x;
  if constexpr (kOp == EwOp::kClip) {
    const float v = x < p0 ? p0 : x;
    return v > p1 ? p1 : v;
  }
  if constexpr (kOp == EwOp::kHardSigmoid) {
    const float v = x * p0 + p1;
    const float lo = v > 0.0F ? v : 0.0F;
    return lo < 1.0F ? lo : 1.0F;
  }
  if constexpr (kOp == EwOp::kHardSwish) {
    const float v = x / 6.0F + 0.5F;
    const float lo = v > 0.0F ? v : 0.0F;
    return x * (lo < 1.0F ? lo : 1.0F);
  }
}

template <EwOp kOp>
Val RunUnary(const float* __restrict x, float p0, float p1, float* __restrict d) {
#pragma omp simd
  for (int64_t i = 0; i < kTile; ++i) d[i] = Unary<kOp>(x[i], p0, p1);
  return {d, 0.0F};
}

/// Transcendental operations through Eigen's vectorized math (as the unfused kernels compute
/// them).
Val RunMath(EwOp op, const float* x_ptr, float p0, float* d_ptr) {
  const TileIn x(x_ptr);
  TileOut d(d_ptr);
  switch (op) {
    case EwOp::kSigmoid:
      d = Logistic(x);
      break;
    case EwOp::kTanh:
      d = x.tanh();
      break;
    case EwOp::kExp:
      d = x.exp();
      break;
    case EwOp::kLog:
      d = x.log();
      break;
    case EwOp::kSqrt:
      d = x.sqrt();
      break;
    case EwOp::kRsqrt:
      d = x.rsqrt();
      break;
    case EwOp::kErf:
      d = x.erf();
      break;
    case EwOp::kSoftplus:
      d = x.max(0.0F) + (-x.abs()).exp().log1p();
      break;
    case EwOp::kElu:
      d = (x > 0.0F).select(x, p0 * x.expm1());
      break;
    case EwOp::kGelu:
      d = 0.5F * x * (1.0F + (x * static_cast<float>(M_SQRT1_2)).erf());
      break;
    case EwOp::kGeluTanh: {
      const float k = 0.7978845608028654F;  // sqrt(2 / pi)
      d = 0.5F * x * (1.0F + (k * (x + 0.044715F * x.cube())).tanh());
      break;
    }
    default:
      break;
  }
  return {d_ptr, 0.0F};
}

/// Evaluates one instruction over the tile into slot `d` (unless the result is a scalar);
/// `spread` is a spare slot.
Val Execute(const EwInstruction& ins, const Val* regs, float* __restrict d,
            float* __restrict spread) {
  auto operand = [&](size_t k) {
    return ins.reg[k] >= 0 ? regs[ins.reg[k]] : Val{nullptr, ins.imm[k]};
  };
  const Val a = operand(0);
  switch (ins.op) {
    case EwOp::kAdd:
      return RunBinary<EwOp::kAdd>(a, operand(1), d);
    case EwOp::kSub:
      return RunBinary<EwOp::kSub>(a, operand(1), d);
    case EwOp::kMul:
      return RunBinary<EwOp::kMul>(a, operand(1), d);
    case EwOp::kDiv:
      return RunBinary<EwOp::kDiv>(a, operand(1), d);
    case EwOp::kMax:
      return RunBinary<EwOp::kMax>(a, operand(1), d);
    case EwOp::kMin:
      return RunBinary<EwOp::kMin>(a, operand(1), d);
    case EwOp::kPow:
      return RunPow(a, operand(1), d);
    default:
      break;
  }
  // A unary operation of a value constant along the tile: spread it and compute the tile, so
  // that every lane goes through the same vector code.
  const float* x = a.p;
  if (x == nullptr) {
    std::fill(spread, spread + kTile, a.s);
    x = spread;
  }
  const float p0 = ins.param[0], p1 = ins.param[1];
  switch (ins.op) {
    case EwOp::kRelu:
      return RunUnary<EwOp::kRelu>(x, p0, p1, d);
    case EwOp::kNeg:
      return RunUnary<EwOp::kNeg>(x, p0, p1, d);
    case EwOp::kAbs:
      return RunUnary<EwOp::kAbs>(x, p0, p1, d);
    case EwOp::kReciprocal:
      return RunUnary<EwOp::kReciprocal>(x, p0, p1, d);
    case EwOp::kFloor:
      return RunUnary<EwOp::kFloor>(x, p0, p1, d);
    case EwOp::kCeil:
      return RunUnary<EwOp::kCeil>(x, p0, p1, d);
    case EwOp::kLeakyRelu:
      return RunUnary<EwOp::kLeakyRelu>(x, p0, p1, d);
    case EwOp::kClip:
      return RunUnary<EwOp::kClip>(x, p0, p1, d);
    case EwOp::kHardSigmoid:
      return RunUnary<EwOp::kHardSigmoid>(x, p0, p1, d);
    case EwOp::kHardSwish:
      return RunUnary<EwOp::kHardSwish>(x, p0, p1, d);
    default:
      return RunMath(ins.op, x, p0, d);
  }
}

class FusedElementwiseKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    const auto num_inputs = static_cast<size_t>(program_.num_inputs);
    if (args.inputs.size() != num_inputs || args.outputs.size() != program_.outputs.size()) {
      return Error("the program has " + std::to_string(num_inputs) + " input(s) and " +
                   std::to_string(program_.outputs.size()) + " output(s), the node " +
                   std::to_string(args.inputs.size()) + " and " +
                   std::to_string(args.outputs.size()));
    }
    GE_RETURN_IF_ERROR(CheckArity(args, num_inputs, program_.outputs.size()));
    // Every output is the broadcast of all inputs.
    std::vector<std::vector<int64_t>> in_dims(num_inputs);
    std::vector<int64_t> full;
    for (size_t i = 0; i < num_inputs; ++i) {
      const KernelTensor& x = args.inputs[i];
      if (x.spec.dtype != DT_FLOAT) return Unsupported(x.spec.dtype, "input " + std::to_string(i));
      in_dims[i] = x.spec.dims;
      std::vector<int64_t> next;
      if (!BroadcastDims(full, x.spec.dims, &next)) {
        return Error("input " + std::to_string(i) + " " + DimsToString(x.spec.dims) +
                     " does not broadcast with " + DimsToString(full));
      }
      full = std::move(next);
    }
    for (size_t k = 0; k < args.outputs.size(); ++k) {
      const TensorSpec& y = args.outputs[k].spec;
      if (y.dtype != DT_FLOAT || y.dims != full) {
        return Error("output " + std::to_string(k) + " is " + DtypeName(y.dtype) +
                     DimsToString(y.dims) + ", expected DT_FLOAT" + DimsToString(full) +
                     " (the broadcast of the inputs)");
      }
    }
    Layout l;
    l.total = NumElements(full);
    if (l.total == 0) return Status::Ok();
    if (!PlanBroadcast(in_dims, full, &l.plan))
      return Error("inputs do not broadcast to " + DimsToString(full));
    const size_t rank = l.plan.dims.size();
    l.inner = rank == 0 ? 1 : l.plan.dims.back();
    l.rows = l.total / l.inner;
    l.rows_per_tile = l.inner >= kTile ? 1 : kTile / l.inner;
    l.tiles_per_row = l.rows_per_tile == 1 ? (l.inner + kTile - 1) / kTile : 1;
    l.tiles = l.rows_per_tile == 1 ? l.rows * l.tiles_per_row
                                   : (l.rows + l.rows_per_tile - 1) / l.rows_per_tile;
    l.inputs.resize(num_inputs);
    for (size_t i = 0; i < num_inputs; ++i) {
      InputLayout& in = l.inputs[i];
      in.data = static_cast<const float*>(args.inputs[i].data);
      in.count = NumElements(in_dims[i]);
      in.inner_stride = rank == 0 ? 0 : l.plan.strides[i].back();
    }
    // Threads: as ParallelFor decides, on our own team so each thread knows its scratch.
    const int64_t work = l.total * std::max<int64_t>(1, static_cast<int64_t>(program_.code.size()));
    const int64_t useful = std::max<int64_t>(1, work / kMinParallelWork);
    const int t =
        static_cast<int>(std::min<int64_t>({static_cast<int64_t>(threads_), useful, l.tiles}));
    if (t <= 1) {
      EvalTiles(l, args, 0, l.tiles, 0);
      return Status::Ok();
    }
#pragma omp parallel num_threads(t)
    {
      const int64_t id = omp_get_thread_num();
      const int64_t nt = omp_get_num_threads();
      const int64_t begin = l.tiles * id / nt;
      const int64_t end = l.tiles * (id + 1) / nt;
      if (begin < end) EvalTiles(l, args, begin, end, static_cast<int>(id));
    }
    return Status::Ok();
  }

 private:
  struct InputLayout {
    const float* data = nullptr;
    int64_t count = 0;         ///< elements
    int64_t inner_stride = 0;  ///< along the innermost merged dim: 0 (broadcast) or 1
  };
  struct Layout {
    BroadcastPlan plan;
    int64_t total = 0, inner = 1, rows = 1;
    int64_t rows_per_tile = 1, tiles_per_row = 1, tiles = 0;
    std::vector<InputLayout> inputs;
  };

  Status PrepareImpl(const KernelSpec& spec) override {
    std::vector<std::string> program;
    std::vector<int64_t> outputs;
    if (!AttrUtils::GetListStr(op_, kAttrEwProgram, program)) {
      return Error("attribute 'program' (a list of strings) is missing");
    }
    if (!AttrUtils::GetListInt(op_, kAttrEwOutputRegisters, outputs)) {
      return Error("attribute 'output_registers' (a list of ints) is missing");
    }
    auto parsed = fused::ParseEwProgram(program, outputs, static_cast<int64_t>(spec.inputs.size()));
    if (!parsed.ok()) return Error("malformed program: " + parsed.status().message());
    program_ = std::move(parsed).value();
    if (spec.outputs.size() != program_.outputs.size()) {
      return Error("the node has " + std::to_string(spec.outputs.size()) +
                   " output(s), the program " + std::to_string(program_.outputs.size()));
    }
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      if (spec.inputs[i].dtype != DT_FLOAT)
        return Unsupported(spec.inputs[i].dtype, "input " + std::to_string(i));
    }
    AllocateSlots();
    // Per thread: one gather buffer per input, a spare, then the slots; all kTile floats, aligned.
    per_thread_floats_ = (static_cast<int64_t>(program_.num_inputs) + 1 + num_slots_) * kTile;
    scratch_.assign(static_cast<size_t>(per_thread_floats_ * threads_) + kSlotAlign / sizeof(float),
                    0.0F);
    // Register values per thread, a cache line apart so threads never share one.
    constexpr size_t kValsPerLine = kSlotAlign / sizeof(Val);
    vals_stride_ = (static_cast<size_t>(program_.NumRegisters()) + kValsPerLine - 1) /
                       kValsPerLine * kValsPerLine +
                   kValsPerLine;
    vals_.assign(vals_stride_ * static_cast<size_t>(threads_), Val{});
    return Status::Ok();
  }

  /// A scratch slot per instruction; a slot is reused once the register in it is dead (never
  /// while an operand of the instruction that writes the new value).
  void AllocateSlots() {
    const int32_t n_in = program_.num_inputs;
    const size_t n_code = program_.code.size();
    std::vector<int64_t> last_use(static_cast<size_t>(program_.NumRegisters()), -1);
    for (size_t k = 0; k < n_code; ++k) {
      for (int32_t r : program_.code[k].reg) {
        if (r >= 0) last_use[static_cast<size_t>(r)] = static_cast<int64_t>(k);
      }
    }
    for (int32_t r : program_.outputs) last_use[static_cast<size_t>(r)] = LLONG_MAX;
    slot_of_.assign(n_code, 0);
    std::vector<int32_t> free_slots;
    num_slots_ = 0;
    for (size_t k = 0; k < n_code; ++k) {
      int32_t slot = 0;
      if (free_slots.empty()) {
        slot = num_slots_++;
      } else {
        slot = free_slots.back();
        free_slots.pop_back();
      }
      slot_of_[k] = slot;
      const auto& reg = program_.code[k].reg;
      for (size_t j = 0; j < reg.size(); ++j) {
        const int32_t r = reg[j];
        if (r < n_in || (j == 1 && r == reg[0])) continue;
        if (last_use[static_cast<size_t>(r)] == static_cast<int64_t>(k)) {
          free_slots.push_back(slot_of_[static_cast<size_t>(r - n_in)]);
        }
      }
      if (last_use[static_cast<size_t>(n_in) + k] < 0) free_slots.push_back(slot);
    }
  }

  float* ThreadScratch(int tid) {
    auto base = reinterpret_cast<uintptr_t>(scratch_.data());
    base = (base + kSlotAlign - 1) / kSlotAlign * kSlotAlign;
    return reinterpret_cast<float*>(base) + per_thread_floats_ * tid;
  }

  /// Element offset of row `row` (of the merged plan's outer dims) in input `i`.
  static int64_t RowOffset(const Layout& l, size_t i, int64_t row) {
    const auto& dims = l.plan.dims;
    const auto& strides = l.plan.strides[i];
    int64_t off = 0;
    if (dims.size() < 2) return 0;
    for (size_t d = dims.size() - 1; d-- > 0;) {
      off += (row % dims[d]) * strides[d];
      row /= dims[d];
    }
    return off;
  }

  /// Input `i` over the tile [t0, t0 + count) starting at row `row0`, column `c0`.
  Val LoadInput(const Layout& l, size_t i, int64_t row0, int64_t rows, int64_t c0, int64_t t0,
                int64_t count, float* buffer) const {
    const InputLayout& in = l.inputs[i];
    if (in.count == 1) return {nullptr, in.data[0]};
    if (in.count == l.total) {  // not broadcast: element j of the output reads element j
      if (t0 + kTile <= in.count) return {in.data + t0, 0.0F};
      std::memcpy(buffer, in.data + t0, static_cast<size_t>(count) * sizeof(float));
      return {buffer, 0.0F};
    }
    if (rows == 1) {
      const int64_t off = RowOffset(l, i, row0);
      if (in.inner_stride == 0) return {nullptr, in.data[off]};
      if (off + c0 + kTile <= in.count) return {in.data + off + c0, 0.0F};
      std::memcpy(buffer, in.data + off + c0, static_cast<size_t>(count) * sizeof(float));
      return {buffer, 0.0F};
    }
    // Several short rows: gather them (each a copy, or one value repeated).
    float* dst = buffer;
    for (int64_t r = 0; r < rows; ++r, dst += l.inner) {
      const float* src = in.data + RowOffset(l, i, row0 + r);
      if (in.inner_stride == 0) {
        std::fill(dst, dst + l.inner, *src);
      } else {
        std::memcpy(dst, src, static_cast<size_t>(l.inner) * sizeof(float));
      }
    }
    return {buffer, 0.0F};
  }

  void EvalTiles(const Layout& l, const KernelArgs& args, int64_t begin, int64_t end, int tid) {
    const auto num_inputs = static_cast<size_t>(program_.num_inputs);
    float* buffers = ThreadScratch(tid);
    float* spread = buffers + static_cast<int64_t>(num_inputs) * kTile;
    float* slots = spread + kTile;
    Val* regs = vals_.data() + vals_stride_ * static_cast<size_t>(tid);
    for (int64_t tile = begin; tile < end; ++tile) {
      int64_t row0 = 0, rows = 1, c0 = 0, count = 0;
      if (l.rows_per_tile == 1) {
        row0 = tile / l.tiles_per_row;
        c0 = (tile % l.tiles_per_row) * kTile;
        count = std::min(kTile, l.inner - c0);
      } else {
        row0 = tile * l.rows_per_tile;
        rows = std::min(l.rows_per_tile, l.rows - row0);
        count = rows * l.inner;
      }
      const int64_t t0 = row0 * l.inner + c0;
      for (size_t i = 0; i < num_inputs; ++i) {
        regs[i] =
            LoadInput(l, i, row0, rows, c0, t0, count, buffers + static_cast<int64_t>(i) * kTile);
      }
      for (size_t k = 0; k < program_.code.size(); ++k) {
        regs[num_inputs + k] = Execute(program_.code[k], regs,
                                       slots + static_cast<int64_t>(slot_of_[k]) * kTile, spread);
      }
      for (size_t k = 0; k < program_.outputs.size(); ++k) {
        float* out = static_cast<float*>(args.outputs[k].data) + t0;
        const Val& v = regs[program_.outputs[k]];
        if (v.p != nullptr) {
          std::memcpy(out, v.p, static_cast<size_t>(count) * sizeof(float));
        } else {
          std::fill(out, out + count, v.s);
        }
      }
    }
  }

  EwProgram program_;
  std::vector<int32_t> slot_of_;  ///< per instruction
  int32_t num_slots_ = 0;
  int64_t per_thread_floats_ = 0;
  std::vector<float> scratch_;
  std::vector<Val> vals_;
  size_t vals_stride_ = 0;
};

}  // namespace

void RegisterFusedElementwiseKernels(KernelTable& t) {
  t.Add("FusedElementwise", MakeKernel<FusedElementwiseKernel>);
}

}  // namespace ge::host_cpu
