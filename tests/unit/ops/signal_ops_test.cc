// Inference tests of the signal operators (windows, MelWeightMatrix, DFT, STFT), Det and
// TfIdfVectorizer: extents from constant values, -1 when a value is unknown, and the errors.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

GeTensor Int32Scalar(int32_t v) { return MakeTensor<int32_t>({v}, DT_INT32, {}); }
GeTensor Int64Scalar(int64_t v) { return MakeTensor<int64_t>({v}, DT_INT64, {}); }

TEST(WindowOps, ConstSizeGivesTheExtentElseUnknown) {
  OpHarness known("HannWindow");
  known.Const(0, Int32Scalar(10));
  ASSERT_TRUE(known.Infer().ok()) << known.Infer().ToString();
  EXPECT_EQ(known.Dims(), (Dims{10}));
  EXPECT_EQ(known.OutType(), DT_FLOAT);
  OpHarness fed("BlackmanWindow");
  fed.In(0, {}, DT_INT64).Attr("output_datatype", AttrValue(DT_DOUBLE));
  ASSERT_TRUE(fed.Infer().ok()) << fed.Infer().ToString();
  EXPECT_EQ(fed.Dims(), (Dims{-1}));
  EXPECT_EQ(fed.OutType(), DT_DOUBLE);
}

TEST(WindowOps, Errors) {
  OpHarness negative("HammingWindow");
  negative.Const(0, Int64Scalar(-3));
  ExpectError(negative.Infer(), {"node 'op' (HammingWindow)", "size must not be negative"});
  OpHarness vector("HannWindow");
  vector.In(0, {2}, DT_INT64);
  ExpectError(vector.Infer(), {"input size [2] must be a scalar"});
  OpHarness dtype("HannWindow");
  dtype.Const(0, Int64Scalar(4)).Attr("output_datatype", AttrValue(DT_BOOL));
  ExpectError(dtype.Infer(), {"'output_datatype' must be a real number type"});
}

TEST(MelWeightMatrixOps, ShapeFromDftLengthAndBins) {
  OpHarness mel("MelWeightMatrix");
  mel.Const(0, Int32Scalar(8)).Const(1, Int32Scalar(16)).In(2, {}, DT_INT32).In(3, {}).In(4, {});
  ASSERT_TRUE(mel.Infer().ok()) << mel.Infer().ToString();
  EXPECT_EQ(mel.Dims(), (Dims{9, 8}));
  OpHarness fed("MelWeightMatrix");
  fed.In(0, {}, DT_INT32).Const(1, Int32Scalar(15)).In(2, {}, DT_INT32).In(3, {}).In(4, {});
  ASSERT_TRUE(fed.Infer().ok()) << fed.Infer().ToString();
  EXPECT_EQ(fed.Dims(), (Dims{8, -1}));
  OpHarness zero("MelWeightMatrix");
  zero.Const(0, Int32Scalar(0)).In(1, {}, DT_INT32).In(2, {}, DT_INT32).In(3, {}).In(4, {});
  ExpectError(zero.Infer(), {"num_mel_bins must be positive"});
}

TEST(DftOps, AxisLengthAndOnesided) {
  OpHarness plain("DFT");
  plain.In(0, {1, 10, 6, 1}).Attr("axis", 2);
  ASSERT_TRUE(plain.Infer().ok()) << plain.Infer().ToString();
  EXPECT_EQ(plain.Dims(), (Dims{1, 10, 6, 2}));
  OpHarness onesided("DFT");
  onesided.In(0, {2, 10, 1}).ConstInts(1, {7}, {}).Attr("onesided", 1);
  ASSERT_TRUE(onesided.Infer().ok()) << onesided.Infer().ToString();
  EXPECT_EQ(onesided.Dims(), (Dims{2, 4, 2}));
  OpHarness fed("DFT");  // dft_length fed at run time
  fed.In(0, {2, 10, 2}).In(1, {}, DT_INT64);
  ASSERT_TRUE(fed.Infer().ok()) << fed.Infer().ToString();
  EXPECT_EQ(fed.Dims(), (Dims{2, -1, 2}));
  OpHarness negative("DFT");  // -2 counts from the back of the rank-3 input: dim 1
  negative.In(0, {3, 8, 1}).Attr("axis", -2);
  ASSERT_TRUE(negative.Infer().ok()) << negative.Infer().ToString();
  EXPECT_EQ(negative.Dims(), (Dims{3, 8, 2}));
}

TEST(DftOps, Errors) {
  OpHarness axis("DFT");
  axis.In(0, {1, 10, 1}).Attr("axis", 2);
  ExpectError(axis.Infer(), {"node 'op' (DFT)", "axis 2 is out of range for rank 3"});
  OpHarness last("DFT");
  last.In(0, {1, 10, 3});
  ExpectError(last.Infer(), {"must end in 1 (real) or 2 (complex)"});
  OpHarness length("DFT");
  length.In(0, {1, 10, 1}).ConstInts(1, {0}, {});
  ExpectError(length.Infer(), {"dft_length must be positive"});
}

TEST(StftOps, FramesAndBins) {
  OpHarness stft("STFT");
  stft.In(0, {1, 128, 1}).Const(1, Int64Scalar(8)).Const(3, Int64Scalar(16));
  ASSERT_TRUE(stft.Infer().ok()) << stft.Infer().ToString();
  EXPECT_EQ(stft.Dims(), (Dims{1, 15, 9, 2}));
  OpHarness window("STFT");  // frame_length from the window; two-sided
  window.In(0, {2, 100, 2}).Const(1, Int64Scalar(10)).In(2, {20}).Attr("onesided", 0);
  ASSERT_TRUE(window.Infer().ok()) << window.Infer().ToString();
  EXPECT_EQ(window.Dims(), (Dims{2, 9, 20, 2}));
  OpHarness fed("STFT");
  fed.In(0, {1, 128, 1}).In(1, {}, DT_INT64).In(3, {}, DT_INT64);
  ASSERT_TRUE(fed.Infer().ok()) << fed.Infer().ToString();
  EXPECT_EQ(fed.Dims(), (Dims{1, -1, -1, 2}));
}

TEST(StftOps, Errors) {
  OpHarness mismatch("STFT");
  mismatch.In(0, {1, 64, 1}).Const(1, Int64Scalar(4)).In(2, {16}).Const(3, Int64Scalar(8));
  ExpectError(mismatch.Infer(),
              {"node 'op' (STFT)", "frame_length 8 differs from the window's 16"});
  OpHarness long_frame("STFT");
  long_frame.In(0, {1, 10, 1}).Const(1, Int64Scalar(4)).Const(3, Int64Scalar(16));
  ExpectError(long_frame.Infer(), {"frame_length 16 exceeds the signal length 10"});
  OpHarness step("STFT");
  step.In(0, {1, 10, 1}).Const(1, Int64Scalar(0));
  ExpectError(step.Infer(), {"frame_step must be positive"});
}

TEST(DetOps, DropsTheMatrixDims) {
  OpHarness nd("Det");
  nd.In(0, {3, 4, 2, 2}, DT_DOUBLE);
  ASSERT_TRUE(nd.Infer().ok()) << nd.Infer().ToString();
  EXPECT_EQ(nd.Dims(), (Dims{3, 4}));
  EXPECT_EQ(nd.OutType(), DT_DOUBLE);
  OpHarness two("Det");
  two.In(0, {-1, -1});
  ASSERT_TRUE(two.Infer().ok()) << two.Infer().ToString();
  EXPECT_EQ(two.Dims(), (Dims{}));
  OpHarness square("Det");
  square.In(0, {2, 3});
  ExpectError(square.Infer(), {"node 'op' (Det)", "must end in a square matrix"});
}

void SetTfIdfAttrs(OpHarness& h, const std::string& mode) {
  h.Attr("mode", mode.c_str())
      .Attr("min_gram_length", 1)
      .Attr("max_gram_length", 2)
      .Attr("max_skip_count", 0)
      .Attr("ngram_counts", std::vector<int64_t>{0, 2})
      .Attr("ngram_indexes", std::vector<int64_t>{0, 1, 4})
      .Attr("pool_int64s", std::vector<int64_t>{2, 3, 5, 4});
}

TEST(TfIdfVectorizerOps, OutputSizeIsTheLargestIndexPlusOne) {
  OpHarness one("TfIdfVectorizer");
  one.In(0, {12}, DT_INT32);
  SetTfIdfAttrs(one, "TF");
  ASSERT_TRUE(one.Verify().ok()) << one.Verify().ToString();
  ASSERT_TRUE(one.Infer().ok()) << one.Infer().ToString();
  EXPECT_EQ(one.Dims(), (Dims{5}));
  EXPECT_EQ(one.OutType(), DT_FLOAT);
  OpHarness batch("TfIdfVectorizer");
  batch.In(0, {3, 6}, DT_INT64);
  SetTfIdfAttrs(batch, "TFIDF");
  ASSERT_TRUE(batch.Infer().ok()) << batch.Infer().ToString();
  EXPECT_EQ(batch.Dims(), (Dims{3, 5}));
}

TEST(TfIdfVectorizerOps, Errors) {
  OpHarness mode("TfIdfVectorizer");
  mode.In(0, {4}, DT_INT64);
  SetTfIdfAttrs(mode, "BM25");
  ExpectError(mode.Verify(), {"node 'op' (TfIdfVectorizer)", "'mode' must be TF, IDF or TFIDF"});
  OpHarness strings("TfIdfVectorizer");
  strings.In(0, {4}, DT_INT64);
  SetTfIdfAttrs(strings, "TF");
  strings.Attr("pool_strings", std::vector<std::string>{"a", "b"});
  ExpectError(strings.Verify(), {"pool_strings", "not supported"});
  OpHarness weights("TfIdfVectorizer");
  weights.In(0, {4}, DT_INT64);
  SetTfIdfAttrs(weights, "IDF");
  weights.Attr("weights", std::vector<float>{1.0F});
  ExpectError(weights.Verify(), {"weights must hold one value per n-gram (3), got 1"});
  OpHarness rank("TfIdfVectorizer");
  rank.In(0, {2, 2, 2}, DT_INT64);
  SetTfIdfAttrs(rank, "TF");
  ExpectError(rank.Infer(), {"must be [C] or [N, C]"});
}

}  // namespace
}  // namespace ge::testing
