// CPU kernel of TfIdfVectorizer (ONNX) over integer token ids: counts the pool's n-grams in each
// row, with up to max_skip_count tokens skipped between an n-gram's items, and weighs the counts
// by mode (TF, IDF, TFIDF).
//
// The pool's n-grams live in a trie keyed by token; a node that ends an n-gram carries the
// n-gram's 1-based id, whose output column is ngram_indexes[id - 1]. Ids follow the pool's
// order over all lengths, counting the lengths outside [min_gram_length, max_gram_length] too
// (those are not inserted), as ONNX's reference numbers them.
#include <limits>
#include <unordered_map>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

class TfIdfVectorizerKernel final : public KernelBase {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const std::vector<int64_t>& d = x.spec.dims;
    if (d.empty() || d.size() > 2)
      return Error("input must be [C] or [N, C], got " + DimsToString(d));
    const int64_t rows = d.size() == 2 ? d[0] : 1;
    const int64_t cols = d.back();
    std::vector<int64_t> want = {output_size_};
    if (d.size() == 2) want.insert(want.begin(), rows);
    const KernelOutput& y = args.outputs[0];
    if (y.spec.dims != want) {
      return Error("output dims " + DimsToString(y.spec.dims) + " are not " + DimsToString(want));
    }
    if (y.spec.dtype != DT_FLOAT) return Unsupported(y.spec.dtype, "output");
    std::vector<int64_t> tokens;
    if (!ReadInts(x, &tokens)) return Unsupported(x.spec.dtype);
    std::vector<int64_t> counts(static_cast<size_t>(rows * output_size_), 0);
    for (int64_t r = 0; r < rows; ++r) {
      GE_RETURN_IF_ERROR(
          CountRow(tokens.data() + r * cols, cols, counts.data() + r * output_size_));
    }
    float* out = static_cast<float*>(y.data);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < output_size_; ++c) {
        const auto i = static_cast<size_t>(r * output_size_ + c);
        const auto f = static_cast<float>(counts[i]);
        const float w = weights_.empty() ? 1.0F : weights_[static_cast<size_t>(c)];
        switch (mode_) {
          case Mode::kTf:
            out[i] = f;
            break;
          case Mode::kIdf:
            out[i] = counts[i] > 0 ? w : 0.0F;
            break;
          case Mode::kTfIdf:
            out[i] = f * w;
            break;
        }
      }
    }
    return Status::Ok();
  }

 private:
  enum class Mode : uint8_t { kTf, kIdf, kTfIdf };
  struct TrieNode {
    int64_t ngram_id = 0;  // 0: no n-gram ends here
    std::unordered_map<int64_t, size_t> children;
  };

  Status PrepareImpl(const KernelSpec&) override {
    const std::string mode = AttrStr("mode", "");
    if (mode == "TF") {
      mode_ = Mode::kTf;
    } else if (mode == "IDF") {
      mode_ = Mode::kIdf;
    } else if (mode == "TFIDF") {
      mode_ = Mode::kTfIdf;
    } else {
      return Error("attribute 'mode' must be TF, IDF or TFIDF, not '" + mode + "'");
    }
    min_len_ = AttrInt("min_gram_length", 0);
    max_len_ = AttrInt("max_gram_length", 0);
    max_skip_ = AttrInt("max_skip_count", 0);
    if (min_len_ < 1 || max_len_ < min_len_ || max_skip_ < 0) {
      return Error("need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
    }
    indexes_ = AttrInts("ngram_indexes");
    if (indexes_.empty()) return Error("ngram_indexes must not be empty");
    const auto [lowest, highest] = std::minmax_element(indexes_.begin(), indexes_.end());
    // Each index is an output column: a loaded .om skips the compiler's checks, so check here.
    if (*lowest < 0 || *highest >= std::numeric_limits<int32_t>::max()) {
      return Error("ngram_indexes must be output columns in [0, 2^31 - 1), got " +
                   std::to_string(*lowest) + " to " + std::to_string(*highest));
    }
    output_size_ = *highest + 1;
    weights_ = AttrFloats("weights");
    if (!weights_.empty() && static_cast<int64_t>(weights_.size()) < output_size_) {
      return Error("weights hold " + std::to_string(weights_.size()) + " values for " +
                   std::to_string(output_size_) + " outputs");
    }
    return BuildTrie(AttrInts("ngram_counts"), AttrInts("pool_int64s"));
  }

  Status BuildTrie(const std::vector<int64_t>& starts, const std::vector<int64_t>& pool) {
    nodes_.assign(1, TrieNode{});
    const auto total = static_cast<int64_t>(pool.size());
    int64_t id = 1;
    for (size_t i = 0; i < starts.size(); ++i) {
      const auto size = static_cast<int64_t>(i) + 1;
      const int64_t begin = starts[i];
      const int64_t end = i + 1 < starts.size() ? starts[i + 1] : total;
      if (begin < 0 || end > total || end < begin) {
        return Error("ngram_counts must be ascending offsets into pool_int64s");
      }
      const int64_t ngrams = (end - begin) / size;
      if (size < min_len_ || size > max_len_) {
        id += ngrams;
        continue;
      }
      for (int64_t g = 0; g < ngrams; ++g, ++id) {
        size_t node = 0;
        for (int64_t k = 0; k < size; ++k) {
          const int64_t token = pool[static_cast<size_t>(begin + g * size + k)];
          auto it = nodes_[node].children.find(token);
          if (it == nodes_[node].children.end()) {
            nodes_.emplace_back();
            it = nodes_[node].children.emplace(token, nodes_.size() - 1).first;
          }
          node = it->second;
        }
        nodes_[node].ngram_id = id;
      }
    }
    return Status::Ok();
  }

  // Adds the n-grams of one row to `counts` (output_size_ values).
  Status CountRow(const int64_t* row, int64_t n, int64_t* counts) const {
    int64_t start_size = min_len_;
    // A skip of n or more leaves no room for a second item: larger max_skip_count values (a file
    // may hold 2^63 - 1) count nothing more.
    const int64_t last_skip = std::min(max_skip_, std::max<int64_t>(n, 1)) + 1;
    for (int64_t skip = 1; skip <= last_skip; ++skip) {
      for (int64_t first = 0; first < n; ++first) {
        if (first + skip * (start_size - 1) >= n) break;  // no n-gram of any size fits
        size_t node = 0;
        int64_t size = 1;
        for (int64_t item = first; !nodes_[node].children.empty() && size <= max_len_ && item < n;
             item += skip, ++size) {
          auto it = nodes_[node].children.find(row[item]);
          if (it == nodes_[node].children.end()) break;
          node = it->second;
          const int64_t id = nodes_[node].ngram_id;
          if (size >= start_size && id != 0) {
            if (id > static_cast<int64_t>(indexes_.size())) {
              return Error("n-gram " + std::to_string(id) + " has no entry in ngram_indexes");
            }
            ++counts[indexes_[static_cast<size_t>(id - 1)]];
          }
        }
      }
      if (start_size == 1) {  // unigrams do not depend on the skip: counted once
        start_size = 2;
        if (start_size > max_len_) break;
      }
    }
    return Status::Ok();
  }

  Mode mode_ = Mode::kTf;
  int64_t min_len_ = 1, max_len_ = 1, max_skip_ = 0, output_size_ = 0;
  std::vector<int64_t> indexes_;
  std::vector<float> weights_;
  std::vector<TrieNode> nodes_;
};

}  // namespace

void RegisterTextKernels(KernelTable& t) {
  t.Add("TfIdfVectorizer", MakeKernel<TfIdfVectorizerKernel>);
}

}  // namespace ge::host_cpu
