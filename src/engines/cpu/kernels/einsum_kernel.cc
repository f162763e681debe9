// ONNX Einsum: any equation of any number of operands, explicit ("ij,jk->ik") or implicit output
// (the labels used once, in alphabetical order, after the ellipsis dims), '...' broadcast
// numpy-style (right-aligned, size-1 dims stretch) and repeated labels inside one operand (a
// diagonal: "ii->i", "...ii->...i").
//
// Every label gets one loop index. An operand's element stride along a label is the sum of its
// strides over the label's occurrences (so a repeated label walks the diagonal), 0 where the
// operand broadcasts. Output elements are split over threads; each sums, over the labels not in
// the output, the product of the operands' elements. Naive but exact for every equation.
#include <cctype>
#include <type_traits>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

constexpr int kEllipsis = -1;  // the position of '...' in a parsed term

struct Equation {
  std::vector<std::vector<int>> inputs;  // per operand: letter codes, kEllipsis for '...'
  std::vector<int> output;
  bool explicit_output = false;
};

int LetterCode(char c) {
  return std::isupper(static_cast<unsigned char>(c)) ? c - 'A' : 26 + c - 'a';
}

class EinsumKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    const size_t nops = eq_.inputs.size();
    GE_RETURN_IF_ERROR(CheckArity(args, nops, 1));
    const KernelOutput& y = args.outputs[0];
    for (size_t i = 0; i < nops; ++i) {
      if (args.inputs[i].spec.dtype != y.spec.dtype) {
        return Error("operand " + std::to_string(i) + " has dtype " +
                     DtypeName(args.inputs[i].spec.dtype) + " but the output has " +
                     DtypeName(y.spec.dtype));
      }
    }
    GE_ASSIGN_OR_RETURN(Plan plan, MakePlan(args));
    if (plan.out_dims != y.spec.dims) {
      return Error("output dims " + DimsToString(y.spec.dims) + " should be " +
                   DimsToString(plan.out_dims));
    }
    const bool ok = DispatchNumeric(y.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      Compute<T>(args, plan);
    });
    return ok ? Status::Ok() : Unsupported(y.spec.dtype);
  }

 private:
  // The loop nest of one run: labels [0, out_rank) are the output's, the rest are summed.
  struct Plan {
    std::vector<int64_t> out_dims;
    std::vector<int64_t> sizes;                 // per label
    std::vector<std::vector<int64_t>> strides;  // per operand, per label
    size_t out_rank = 0;
  };

  Status PrepareImpl(const KernelSpec& spec) override {
    std::string text = AttrStr("equation", "");
    std::string clean;
    for (char c : text) {
      if (c != ' ') clean += c;
    }
    const size_t arrow = clean.find("->");
    GE_ASSIGN_OR_RETURN(eq_.inputs, ParseTerms(clean.substr(0, arrow), /*allow_many=*/true));
    if (arrow != std::string::npos) {
      GE_ASSIGN_OR_RETURN(auto out, ParseTerms(clean.substr(arrow + 2), /*allow_many=*/false));
      eq_.output = out[0];
      eq_.explicit_output = true;
      std::vector<bool> seen(52, false);
      for (int c : eq_.output) {
        if (c == kEllipsis) continue;
        if (seen[c]) return Error("output label repeats in equation '" + text + "'");
        seen[c] = true;
        bool used = false;
        for (const auto& term : eq_.inputs) {
          used = used || std::find(term.begin(), term.end(), c) != term.end();
        }
        if (!used) return Error("output label appears in no operand of equation '" + text + "'");
      }
    } else {
      std::vector<int> count(52, 0);
      for (const auto& term : eq_.inputs) {
        for (int c : term) {
          if (c != kEllipsis) ++count[c];
        }
      }
      eq_.output.push_back(kEllipsis);
      for (int c = 0; c < 52; ++c) {
        if (count[c] == 1) eq_.output.push_back(c);
      }
    }
    if (!spec.inputs.empty() && spec.inputs.size() != eq_.inputs.size()) {
      return Error("equation '" + text + "' has " + std::to_string(eq_.inputs.size()) +
                   " operands but the node has " + std::to_string(spec.inputs.size()) + " inputs");
    }
    return Status::Ok();
  }

  Result<std::vector<std::vector<int>>> ParseTerms(const std::string& text, bool allow_many) const {
    std::vector<std::vector<int>> terms(1);
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c == ',' && allow_many) {
        terms.emplace_back();
      } else if (c == '.') {
        auto& t = terms.back();
        if (text.compare(i, 3, "...") != 0 || std::find(t.begin(), t.end(), kEllipsis) != t.end()) {
          return Error("malformed ellipsis in equation term '" + text + "'");
        }
        t.push_back(kEllipsis);
        i += 2;
      } else if (std::isalpha(static_cast<unsigned char>(c)) != 0) {
        terms.back().push_back(LetterCode(c));
      } else {
        return Error("unexpected character '" + std::string(1, c) + "' in equation term '" + text +
                     "'");
      }
    }
    return terms;
  }

  Result<Plan> MakePlan(const KernelArgs& args) const {
    const size_t nops = eq_.inputs.size();
    // Ellipsis dims: broadcast of every operand's, right-aligned.
    std::vector<int64_t> ell;
    std::vector<size_t> ell_rank(nops, 0);
    for (size_t i = 0; i < nops; ++i) {
      const auto& term = eq_.inputs[i];
      const auto& dims = args.inputs[i].spec.dims;
      const bool has_ell = std::find(term.begin(), term.end(), kEllipsis) != term.end();
      const size_t named = term.size() - (has_ell ? 1 : 0);
      if (dims.size() < named || (!has_ell && dims.size() != named)) {
        return Error("operand " + std::to_string(i) + " " + DimsToString(dims) +
                     " does not fit its term of " + std::to_string(named) + " labels");
      }
      ell_rank[i] = dims.size() - named;
      std::vector<int64_t> part;
      for (size_t k = 0; k < term.size(); ++k) {
        if (term[k] != kEllipsis) continue;
        part.assign(dims.begin() + static_cast<int64_t>(k),
                    dims.begin() + static_cast<int64_t>(k + ell_rank[i]));
      }
      std::vector<int64_t> merged;
      if (!BroadcastDims(ell, part, &merged)) {
        return Error("the '...' dims " + DimsToString(part) + " of operand " + std::to_string(i) +
                     " do not broadcast with " + DimsToString(ell));
      }
      ell = merged;
    }
    // Labels: letter codes 0..51, ellipsis dim j is 52 + j. Order: output first, then summed.
    const int kLabels = 52 + static_cast<int>(ell.size());
    std::vector<int> slot(static_cast<size_t>(kLabels), -1);
    Plan plan;
    auto add_label = [&](int label) {
      if (slot[label] < 0) {
        slot[label] = static_cast<int>(plan.sizes.size());
        plan.sizes.push_back(1);
      }
    };
    for (int c : eq_.output) {
      if (c == kEllipsis) {
        for (size_t j = 0; j < ell.size(); ++j) add_label(52 + static_cast<int>(j));
      } else {
        add_label(c);
      }
    }
    plan.out_rank = plan.sizes.size();
    for (const auto& term : eq_.inputs) {
      for (int c : term) {
        if (c == kEllipsis) {
          for (size_t j = 0; j < ell.size(); ++j) add_label(52 + static_cast<int>(j));
        } else {
          add_label(c);
        }
      }
    }
    // Sizes (a size-1 occurrence broadcasts) and strides.
    plan.strides.assign(nops, std::vector<int64_t>(plan.sizes.size(), 0));
    std::vector<bool> sized(plan.sizes.size(), false);
    for (size_t i = 0; i < nops; ++i) {
      const auto& dims = args.inputs[i].spec.dims;
      const std::vector<int64_t> st = StridesOf(dims);
      size_t d = 0;
      auto visit = [&](int label, int64_t extent, int64_t stride) -> Status {
        const int s = slot[label];
        if (extent != 1) {
          if (sized[s] && plan.sizes[s] != 1 && plan.sizes[s] != extent) {
            return Error("label size " + std::to_string(extent) + " of operand " +
                         std::to_string(i) + " conflicts with " + std::to_string(plan.sizes[s]));
          }
          plan.sizes[s] = extent;
          plan.strides[i][s] += stride;
        }
        sized[s] = true;
        return Status::Ok();
      };
      for (int c : eq_.inputs[i]) {
        if (c == kEllipsis) {
          const size_t offset = ell.size() - ell_rank[i];
          for (size_t j = 0; j < ell_rank[i]; ++j, ++d) {
            GE_RETURN_IF_ERROR(visit(52 + static_cast<int>(offset + j), dims[d], st[d]));
          }
          continue;
        }
        GE_RETURN_IF_ERROR(visit(c, dims[d], st[d]));
        ++d;
      }
    }
    // A label whose operands disagree (size 1 in one, n in another) broadcasts: a size-1
    // occurrence has stride 0, so it repeats. Repeated labels of different sizes are caught above.
    plan.out_dims.assign(plan.sizes.begin(),
                         plan.sizes.begin() + static_cast<int64_t>(plan.out_rank));
    return plan;
  }

  template <typename T>
  void Compute(const KernelArgs& args, const Plan& plan) const {
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
    const size_t nops = eq_.inputs.size();
    const size_t rank = plan.sizes.size();
    const size_t out_rank = plan.out_rank;
    T* y = static_cast<T*>(args.outputs[0].data);
    const int64_t out_n = NumElements(plan.out_dims);
    int64_t red_n = 1;
    for (size_t s = out_rank; s < rank; ++s) red_n *= plan.sizes[s];
    std::vector<const T*> x(nops);
    for (size_t i = 0; i < nops; ++i) x[i] = static_cast<const T*>(args.inputs[i].data);
    ParallelFor(out_n, threads_, red_n * static_cast<int64_t>(nops),
                [&](int64_t begin, int64_t end) {
                  std::vector<int64_t> idx(rank, 0);
                  for (int64_t r = begin, s = static_cast<int64_t>(out_rank) - 1; s >= 0; --s) {
                    idx[s] = r % plan.sizes[s];
                    r /= plan.sizes[s];
                  }
                  std::vector<int64_t> off(nops);
                  for (int64_t o = begin; o < end; ++o) {
                    for (size_t i = 0; i < nops; ++i) {
                      int64_t b = 0;
                      for (size_t s = 0; s < out_rank; ++s) b += idx[s] * plan.strides[i][s];
                      off[i] = b;
                    }
                    Acc acc = 0;
                    for (int64_t r = 0; r < red_n; ++r) {
                      Acc p = 1;
                      for (size_t i = 0; i < nops; ++i) p *= static_cast<Acc>(x[i][off[i]]);
                      acc += p;
                      // Advance the summed labels (an odometer), moving each operand's offset
                      // along.
                      for (size_t s = rank; s-- > out_rank;) {
                        if (++idx[s] < plan.sizes[s]) {
                          for (size_t i = 0; i < nops; ++i) off[i] += plan.strides[i][s];
                          break;
                        }
                        for (size_t i = 0; i < nops; ++i)
                          off[i] -= (plan.sizes[s] - 1) * plan.strides[i][s];
                        idx[s] = 0;
                      }
                    }
                    y[o] = static_cast<T>(acc);
                    for (size_t s = out_rank; s-- > 0;) {
                      if (++idx[s] < plan.sizes[s]) break;
                      idx[s] = 0;
                    }
                  }
                });
  }

  Equation eq_;
};

}  // namespace

void RegisterEinsumKernels(KernelTable& t) { t.Add("Einsum", MakeKernel<EinsumKernel>); }

}  // namespace ge::host_cpu
