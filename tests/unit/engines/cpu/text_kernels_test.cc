// The TfIdfVectorizer kernel against a brute-force n-gram count and ONNX's published example.
#include <limits>
#include <random>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::RunKernel;

struct TfIdfConfig {
  std::string mode = "TF";
  int64_t min_len = 1, max_len = 2, max_skip = 0;
  std::vector<int64_t> counts = {0, 4};
  std::vector<int64_t> indexes = {0, 1, 2, 3, 4, 5, 6};
  std::vector<int64_t> pool = {2, 3, 5, 4, 5, 6, 7, 8, 6, 7};  // 4 unigrams, 3 bigrams
  std::vector<float> weights;
};

std::shared_ptr<OpDesc> TfIdfOp(const TfIdfConfig& c) {
  auto op = Op("TfIdfVectorizer");
  AttrUtils::SetStr(op, "mode", c.mode);
  AttrUtils::SetInt(op, "min_gram_length", c.min_len);
  AttrUtils::SetInt(op, "max_gram_length", c.max_len);
  AttrUtils::SetInt(op, "max_skip_count", c.max_skip);
  AttrUtils::SetListInt(op, "ngram_counts", c.counts);
  AttrUtils::SetListInt(op, "ngram_indexes", c.indexes);
  AttrUtils::SetListInt(op, "pool_int64s", c.pool);
  if (!c.weights.empty()) AttrUtils::SetListFloat(op, "weights", c.weights);
  return op;
}

// Every pool n-gram of an allowed length counted at every start and skip (unigrams once), then
// weighted by mode.
std::vector<float> RefTfIdf(const TfIdfConfig& c, const std::vector<int64_t>& x, int64_t rows) {
  const int64_t size = *std::max_element(c.indexes.begin(), c.indexes.end()) + 1;
  const auto cols = static_cast<int64_t>(x.size()) / rows;
  std::vector<float> y(static_cast<size_t>(rows * size), 0.0F);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t* row = x.data() + r * cols;
    int64_t id = 0;
    for (size_t level = 0; level < c.counts.size(); ++level) {
      const auto n = static_cast<int64_t>(level) + 1;
      const int64_t end =
          level + 1 < c.counts.size() ? c.counts[level + 1] : static_cast<int64_t>(c.pool.size());
      for (int64_t g = c.counts[level]; g + n <= end; g += n, ++id) {
        if (n < c.min_len || n > c.max_len) continue;
        int64_t count = 0;
        for (int64_t skip = 1; skip <= (n == 1 ? 1 : c.max_skip + 1); ++skip) {
          for (int64_t s = 0; s + (n - 1) * skip < cols; ++s) {
            bool match = true;
            for (int64_t j = 0; j < n && match; ++j) match = row[s + j * skip] == c.pool[g + j];
            count += match ? 1 : 0;
          }
        }
        y[r * size + c.indexes[id]] += static_cast<float>(count);
      }
    }
    for (int64_t i = 0; i < size; ++i) {
      float& v = y[r * size + i];
      const float w = c.weights.empty() ? 1.0F : c.weights[i];
      if (c.mode == "IDF") v = v > 0 ? w : 0.0F;
      if (c.mode == "TFIDF") v *= w;
    }
  }
  return y;
}

const std::vector<int64_t> kExample = {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8};

TEST(TfIdfVectorizerKernel, OnnxExamples) {
  TfIdfConfig c;
  c.max_skip = 5;
  auto r = RunKernel(TfIdfOp(c), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 3, 1, 0, 1, 3, 1}));
  c.min_len = 2;
  c.max_skip = 0;
  auto b = RunKernel(TfIdfOp(c), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ASSERT_TRUE(b.status.ok()) << b.status.ToString();
  EXPECT_EQ(b.outputs[0].Values<float>(), (std::vector<float>{0, 0, 0, 0, 1, 1, 1}));
}

TEST(TfIdfVectorizerKernel, RandomTokensMatchTheBruteForceCount) {
  std::mt19937 gen(11);
  std::uniform_int_distribution<int32_t> token(2, 8);
  std::vector<int32_t> x32(4 * 15);
  for (int32_t& v : x32) v = token(gen);
  const std::vector<int64_t> x(x32.begin(), x32.end());
  for (const char* mode : {"TF", "IDF", "TFIDF"}) {
    for (int64_t min_len : {1, 2}) {
      for (int64_t skip : {0, 2, 6}) {
        TfIdfConfig c;
        c.mode = mode;
        c.min_len = min_len;
        c.max_skip = skip;
        c.indexes = {6, 0, 1, 5, 2, 3, 4};  // columns in another order than the pool
        c.weights = {0.5F, 2.0F, 1.5F, 3.0F, 0.25F, 1.0F, 4.0F};
        auto r = RunKernel(TfIdfOp(c), {Make<int32_t>({4, 15}, x32)}, {{DT_FLOAT, {4, 7}}});
        ASSERT_TRUE(r.status.ok()) << r.status.ToString();
        SCOPED_TRACE(std::string(mode) + " min " + std::to_string(min_len) + " skip " +
                     std::to_string(skip));
        ExpectNear(r.outputs[0].Values<float>(), RefTfIdf(c, x, 4), 0.0F, 0.0F);
      }
    }
  }
}

TEST(TfIdfVectorizerKernel, Errors) {
  TfIdfConfig mode;
  mode.mode = "BM25";
  auto m = RunKernel(TfIdfOp(mode), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ExpectError(m.status, "'mode' must be TF, IDF or TFIDF");
  TfIdfConfig weights;
  weights.weights = {1.0F, 2.0F};
  auto w = RunKernel(TfIdfOp(weights), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ExpectError(w.status, "weights hold 2 values for 7 outputs");
  TfIdfConfig counts;
  counts.counts = {0, 40};
  auto c = RunKernel(TfIdfOp(counts), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ExpectError(c.status, "ascending offsets into pool_int64s");
  auto rank = RunKernel(TfIdfOp({}), {Make<int64_t>({2, 3, 2}, kExample)}, {{DT_FLOAT, {2, 7}}});
  ExpectError(rank.status, "must be [C] or [N, C]");
  auto dtype = RunKernel(TfIdfOp({}), {Make<float>({2}, {1, 2})}, {{DT_FLOAT, {7}}});
  ExpectError(dtype.status, "not supported");
  // A loaded .om skips the compiler's checks: a negative column would be written before the
  // output, so the kernel refuses it itself.
  TfIdfConfig negative;
  negative.indexes = {0, 1, -4, 3, 4, 5, 6};
  auto n = RunKernel(TfIdfOp(negative), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ExpectError(n.status, "ngram_indexes must be output columns in [0, 2^31 - 1), got -4 to 6");
}

// A max_skip_count beyond the row's length counts what the row's length allows: the largest one
// a file may hold gives the same counts, at once.
TEST(TfIdfVectorizerKernel, AHugeSkipCountCountsWhatTheRowAllows) {
  TfIdfConfig row;
  row.max_skip = 12;
  auto want = RunKernel(TfIdfOp(row), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ASSERT_TRUE(want.status.ok()) << want.status.message();
  TfIdfConfig huge;
  huge.max_skip = std::numeric_limits<int64_t>::max();
  auto got = RunKernel(TfIdfOp(huge), {Make<int64_t>({12}, kExample)}, {{DT_FLOAT, {7}}});
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  EXPECT_EQ(got.outputs[0].Values<float>(), want.outputs[0].Values<float>());
}

}  // namespace
}  // namespace ge::host_cpu
