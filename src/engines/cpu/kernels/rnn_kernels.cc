// ONNX recurrent layers: LSTM (peepholes, input_forget), GRU (linear_before_reset) and RNN, in
// forward, reverse and bidirectional directions, with sequence_lens, initial states, clip, the
// ONNX activation functions (with activation_alpha / activation_beta) and both layouts.
//
// Per direction the input projection of every time step is one GEMM (X W^T + Wb, Eigen) before
// the time loop; each step then multiplies the hidden state by R^T (one GEMM over the batch) and
// applies the gate equations row by row. A batch entry stops at its sequence length: its later
// outputs are 0 and its final state is the one at its last step (the first, going in reverse).
#include <Eigen/Core>
#include <cmath>

#include "ge/graph/utils/attr_utils.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

enum class Cell { kRnn, kGru, kLstm };

/// One ONNX activation function with its alpha / beta.
struct Activation {
  std::string name;
  double alpha = 0, beta = 0;

  double operator()(double x) const {
    if (name == "Sigmoid") return 1 / (1 + std::exp(-x));
    if (name == "Tanh") return std::tanh(x);
    if (name == "Relu") return std::max(0.0, x);
    if (name == "LeakyRelu") return x >= 0 ? x : alpha * x;
    if (name == "ThresholdedRelu") return x > alpha ? x : 0;
    if (name == "ScaledTanh") return alpha * std::tanh(beta * x);
    if (name == "HardSigmoid") return std::clamp(alpha * x + beta, 0.0, 1.0);
    if (name == "Elu") return x >= 0 ? x : alpha * (std::exp(x) - 1);
    if (name == "Softsign") return x / (1 + std::fabs(x));
    if (name == "Softplus") return std::log1p(std::exp(x));
    return alpha * x + beta;  // Affine
  }
};

bool KnownActivation(const std::string& n) {
  for (const char* k : {"Sigmoid", "Tanh", "Relu", "LeakyRelu", "ThresholdedRelu", "ScaledTanh",
                        "HardSigmoid", "Elu", "Softsign", "Softplus", "Affine"}) {
    if (n == k) return true;
  }
  return false;
}

// ONNX's default alpha / beta where an activation takes them and the node gives none.
void DefaultParams(Activation* a) {
  if (a->name == "LeakyRelu") a->alpha = 0.01;
  if (a->name == "ThresholdedRelu" || a->name == "Elu" || a->name == "Affine") a->alpha = 1.0;
  if (a->name == "ScaledTanh") a->alpha = a->beta = 1.0;
  if (a->name == "HardSigmoid") {
    a->alpha = 0.2;
    a->beta = 0.5;
  }
}

class RecurrentKernel final : public KernelBase {
 public:
  explicit RecurrentKernel(Cell cell) : cell_(cell) {}

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 3, 1));
    const DataType dt = args.inputs[0].spec.dtype;
    for (size_t i = 1; i < 3; ++i) {
      if (args.inputs[i].spec.dtype != dt) return Error("x, w and r must share a dtype");
    }
    Status status = Status::Ok();
    const bool ok = DispatchFloat(dt, [&](auto tag) { status = Compute<decltype(tag)>(args); });
    return ok ? status : Unsupported(dt);
  }

 private:
  int64_t Gates() const { return cell_ == Cell::kLstm ? 4 : cell_ == Cell::kGru ? 3 : 1; }

  Status PrepareImpl(const KernelSpec&) override {
    const std::string direction = AttrStr("direction", "forward");
    if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
      return Error("attribute 'direction' '" + direction + "' is not supported");
    }
    reverse_only_ = direction == "reverse";
    dirs_ = direction == "bidirectional" ? 2 : 1;
    layout_ = AttrInt("layout", 0);
    clip_ = AttrFloat("clip", 0.0F);
    linear_before_reset_ = AttrInt("linear_before_reset", 0) != 0;
    input_forget_ = AttrInt("input_forget", 0) != 0;
    std::vector<std::string> names;
    if (op_ != nullptr) AttrUtils::GetListStr(op_, "activations", names);
    const size_t per_dir = cell_ == Cell::kLstm ? 3 : cell_ == Cell::kGru ? 2 : 1;
    if (names.empty()) {
      const std::vector<std::string> defaults =
          cell_ == Cell::kLstm  ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
          : cell_ == Cell::kGru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                : std::vector<std::string>{"Tanh"};
      for (int d = 0; d < dirs_; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
    }
    if (names.size() != per_dir * static_cast<size_t>(dirs_)) {
      return Error("attribute 'activations' has " + std::to_string(names.size()) +
                   " functions, expected " + std::to_string(per_dir * dirs_));
    }
    const std::vector<float> alphas = AttrFloats("activation_alpha");
    const std::vector<float> betas = AttrFloats("activation_beta");
    acts_.clear();
    for (size_t i = 0; i < names.size(); ++i) {
      Activation a;
      a.name = names[i];
      if (!KnownActivation(a.name)) return Error("activation '" + a.name + "' is not supported");
      DefaultParams(&a);
      if (i < alphas.size()) a.alpha = alphas[i];
      if (i < betas.size()) a.beta = betas[i];
      acts_.push_back(a);
    }
    return Status::Ok();
  }

  template <typename T>
  Status Compute(const KernelArgs& args) {
    using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using MapC = Eigen::Map<const Mat>;
    const auto& xd = args.inputs[0].spec.dims;
    const auto& wd = args.inputs[1].spec.dims;
    const auto& rd = args.inputs[2].spec.dims;
    if (xd.size() != 3 || wd.size() != 3 || rd.size() != 3) return Error("x, w and r must be 3-D");
    const bool bf = layout_ != 0;
    const int64_t seq = bf ? xd[1] : xd[0], batch = bf ? xd[0] : xd[1], in = xd[2];
    const int64_t hid = rd[2], g = Gates(), rows = g * hid;
    if (wd[0] != dirs_ || wd[1] != rows || wd[2] != in || rd[0] != dirs_ || rd[1] != rows) {
      return Error("w " + DimsToString(wd) + " and r " + DimsToString(rd) + " do not fit x " +
                   DimsToString(xd) + " with " + std::to_string(dirs_) + " direction(s)");
    }
    const T* x = static_cast<const T*>(args.inputs[0].data);
    const T* w = static_cast<const T*>(args.inputs[1].data);
    const T* r = static_cast<const T*>(args.inputs[2].data);
    const T* b = HasInput(args, 3) ? static_cast<const T*>(args.inputs[3].data) : nullptr;
    if (b != nullptr && NumElements(args.inputs[3].spec.dims) != dirs_ * 2 * rows) {
      return Error("b must be [" + std::to_string(dirs_) + ", " + std::to_string(2 * rows) + "]");
    }
    std::vector<int64_t> lens(static_cast<size_t>(batch), seq);
    if (HasInput(args, 4)) {
      if (!ReadInts(args.inputs[4], &lens) || static_cast<int64_t>(lens.size()) != batch) {
        return Error("sequence_lens must hold one int32 per batch entry");
      }
      for (int64_t& l : lens) {
        if (l < 0 || l > seq)
          return Error("sequence_lens value " + std::to_string(l) + " is out of range");
      }
    }
    auto state_input = [&](size_t i) -> Result<const T*> {
      if (!HasInput(args, i)) return static_cast<const T*>(nullptr);
      if (NumElements(args.inputs[i].spec.dims) != dirs_ * batch * hid) {
        return Error("initial state " + DimsToString(args.inputs[i].spec.dims) +
                     " has the wrong size");
      }
      return static_cast<const T*>(args.inputs[i].data);
    };
    GE_ASSIGN_OR_RETURN(const T* h0, state_input(5));
    const T* c0 = nullptr;
    const T* peep = nullptr;
    if (cell_ == Cell::kLstm) {
      GE_ASSIGN_OR_RETURN(c0, state_input(6));
      if (HasInput(args, 7)) {
        if (NumElements(args.inputs[7].spec.dims) != dirs_ * 3 * hid) {
          return Error("p must be [" + std::to_string(dirs_) + ", " + std::to_string(3 * hid) +
                       "]");
        }
        peep = static_cast<const T*>(args.inputs[7].data);
      }
    }
    auto out = [&](size_t i) -> T* {
      if (i >= args.outputs.size() || args.outputs[i].data == nullptr) return nullptr;
      return static_cast<T*>(args.outputs[i].data);
    };
    T* y = out(0);
    T* yh = out(1);
    T* yc = cell_ == Cell::kLstm ? out(2) : nullptr;
    if (y != nullptr) std::fill(y, y + seq * dirs_ * batch * hid, T(0));

    // Offsets of X row (t, n), of Y's row (t, d, n) and of a state row (d, n).
    auto x_row = [&](int64_t t, int64_t n) { return bf ? n * seq + t : t * batch + n; };
    auto y_off = [&](int64_t t, int64_t d, int64_t n) {
      return (bf ? (n * seq + t) * dirs_ + d : (t * dirs_ + d) * batch + n) * hid;
    };
    auto s_off = [&](int64_t d, int64_t n) { return (bf ? n * dirs_ + d : d * batch + n) * hid; };

    const size_t per_dir = acts_.size() / static_cast<size_t>(dirs_);
    Mat xw(seq * batch, rows), hr(batch, rows), h(batch, hid), c(batch, hid), rh(batch, hid),
        hh(batch, hid);
    const MapC xm(x, seq * batch, in);
    auto clip = [&](double v) {
      return clip_ > 0 ? std::clamp(v, -double(clip_), double(clip_)) : v;
    };
    for (int64_t d = 0; d < dirs_; ++d) {
      const bool reverse = reverse_only_ || d == 1;
      const MapC wm(w + d * rows * in, rows, in);
      const MapC rm(r + d * rows * hid, rows, hid);
      const T* wb = b != nullptr ? b + d * 2 * rows : nullptr;
      const T* rb = b != nullptr ? wb + rows : nullptr;
      const Activation& f = acts_[d * per_dir];
      const Activation& ga = acts_[d * per_dir + (per_dir > 1 ? 1 : 0)];
      const Activation& ha = acts_[d * per_dir + (per_dir > 2 ? 2 : 0)];
      xw.noalias() = xm * wm.transpose();  // rows in X's order
      for (int64_t n = 0; n < batch; ++n) {
        for (int64_t k = 0; k < hid; ++k) {
          h(n, k) = h0 != nullptr ? h0[s_off(d, n) + k] : T(0);
          c(n, k) = c0 != nullptr ? c0[s_off(d, n) + k] : T(0);
        }
      }
      for (int64_t s = 0; s < seq; ++s) {
        if (cell_ == Cell::kGru) {
          hr.leftCols(2 * hid).noalias() = h * rm.topRows(2 * hid).transpose();
          if (linear_before_reset_) {
            hr.rightCols(hid).noalias() = h * rm.bottomRows(hid).transpose();
          }
        } else {
          hr.noalias() = h * rm.transpose();
        }
        for (int64_t n = 0; n < batch; ++n) {
          if (s >= lens[n]) continue;
          const int64_t t = reverse ? lens[n] - 1 - s : s;
          const T* xr = xw.data() + x_row(t, n) * rows;
          auto pre = [&](int64_t gate, int64_t k) {  // X W^T + H R^T + Wb + Rb of one gate
            const int64_t j = gate * hid + k;
            double v = double(xr[j]) + double(hr(n, j));
            if (wb != nullptr) v += double(wb[j]) + double(rb[j]);
            return v;
          };
          if (cell_ == Cell::kRnn) {
            for (int64_t k = 0; k < hid; ++k) hh(n, k) = T(f(clip(pre(0, k))));
          } else if (cell_ == Cell::kGru) {
            // z, r, h: the h gate's recurrent term needs r first.
            for (int64_t k = 0; k < hid; ++k) rh(n, k) = T(f(clip(pre(1, k))));
            Eigen::Matrix<T, 1, Eigen::Dynamic> hgate(hid);
            if (linear_before_reset_) {
              for (int64_t k = 0; k < hid; ++k) {
                const int64_t j = 2 * hid + k;
                const double rec = double(hr(n, j)) + (rb != nullptr ? double(rb[j]) : 0.0);
                hgate(k) = T(double(xr[j]) + (wb != nullptr ? double(wb[j]) : 0.0) +
                             double(rh(n, k)) * rec);
              }
            } else {
              const Eigen::Matrix<T, 1, Eigen::Dynamic> gated = rh.row(n).cwiseProduct(h.row(n));
              hgate.noalias() = gated * rm.bottomRows(hid).transpose();
              for (int64_t k = 0; k < hid; ++k) {
                const int64_t j = 2 * hid + k;
                hgate(k) +=
                    T(double(xr[j]) + (wb != nullptr ? double(wb[j]) + double(rb[j]) : 0.0));
              }
            }
            for (int64_t k = 0; k < hid; ++k) {
              const double z = f(clip(pre(0, k)));
              const double cand = ga(clip(double(hgate(k))));
              hh(n, k) = T((1 - z) * cand + z * double(h(n, k)));
            }
          } else {
            const T* p = peep != nullptr ? peep + d * 3 * hid : nullptr;
            for (int64_t k = 0; k < hid; ++k) {
              const double cprev = double(c(n, k));
              const double i = f(clip(pre(0, k) + (p != nullptr ? double(p[k]) * cprev : 0.0)));
              const double fg =
                  input_forget_
                      ? 1 - i
                      : f(clip(pre(2, k) + (p != nullptr ? double(p[2 * hid + k]) * cprev : 0.0)));
              const double cand = ga(clip(pre(3, k)));
              const double cnew = fg * cprev + i * cand;
              const double o =
                  f(clip(pre(1, k) + (p != nullptr ? double(p[hid + k]) * cnew : 0.0)));
              c(n, k) = T(cnew);
              hh(n, k) = T(o * ha(cnew));
            }
          }
          for (int64_t k = 0; k < hid; ++k) {
            if (y != nullptr) y[y_off(t, d, n) + k] = hh(n, k);
          }
        }
        for (int64_t n = 0; n < batch; ++n) {
          if (s < lens[n]) h.row(n) = hh.row(n);
        }
      }
      for (int64_t n = 0; n < batch; ++n) {
        for (int64_t k = 0; k < hid; ++k) {
          if (yh != nullptr) yh[s_off(d, n) + k] = h(n, k);
          if (yc != nullptr) yc[s_off(d, n) + k] = c(n, k);
        }
      }
    }
    return Status::Ok();
  }

  Cell cell_;
  bool reverse_only_ = false;
  int dirs_ = 1;
  int64_t layout_ = 0;
  float clip_ = 0;
  bool linear_before_reset_ = false;
  bool input_forget_ = false;
  std::vector<Activation> acts_;
};

std::unique_ptr<CpuKernel> MakeLstm() { return std::make_unique<RecurrentKernel>(Cell::kLstm); }
std::unique_ptr<CpuKernel> MakeGru() { return std::make_unique<RecurrentKernel>(Cell::kGru); }
std::unique_ptr<CpuKernel> MakeRnn() { return std::make_unique<RecurrentKernel>(Cell::kRnn); }

}  // namespace

void RegisterRecurrentKernels(KernelTable& t) {
  t.Add("LSTM", MakeLstm);
  t.Add("GRU", MakeGru);
  t.Add("RNN", MakeRnn);
}

}  // namespace ge::host_cpu
