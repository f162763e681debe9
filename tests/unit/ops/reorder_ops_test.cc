// Inference tests of Unique and ReverseSequence.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(UniqueOps, CountsAreUnknownInverseIndicesHaveOneEntryPerSlice) {
  OpHarness flat("Unique");
  flat.In(0, {3, 4}, DT_INT32);
  ASSERT_TRUE(flat.Infer().ok()) << flat.Infer().ToString();
  EXPECT_EQ(flat.Dims(0), (Dims{-1}));
  EXPECT_EQ(flat.OutType(0), DT_INT32);
  EXPECT_EQ(flat.Dims(1), (Dims{-1}));
  EXPECT_EQ(flat.Dims(2), (Dims{12}));
  EXPECT_EQ(flat.Dims(3), (Dims{-1}));
  EXPECT_EQ(flat.OutType(3), DT_INT64);
  OpHarness axis("Unique");
  axis.In(0, {3, 4, 5}).Attr("axis", -2);
  ASSERT_TRUE(axis.Infer().ok()) << axis.Infer().ToString();
  EXPECT_EQ(axis.Dims(0), (Dims{3, -1, 5}));
  EXPECT_EQ(axis.Dims(2), (Dims{4}));
}

TEST(UniqueOps, Errors) {
  OpHarness axis("Unique");
  axis.In(0, {3, 4}).Attr("axis", 2);
  ExpectError(axis.Infer(), {"node 'op' (Unique)", "attribute 'axis'"});
}

TEST(ReverseSequenceOps, OutputHasTheInputShape) {
  OpHarness rev("ReverseSequence");
  rev.In(0, {4, 3, 2}).In(1, {3}, DT_INT64);
  ASSERT_TRUE(rev.Infer().ok()) << rev.Infer().ToString();
  EXPECT_EQ(rev.Dims(), (Dims{4, 3, 2}));
}

TEST(ReverseSequenceOps, Errors) {
  OpHarness lens("ReverseSequence");
  lens.In(0, {4, 3}).In(1, {4}, DT_INT64);  // batch_axis 1 has 3 entries
  ExpectError(lens.Infer(), {"node 'op' (ReverseSequence)", "one length per batch entry (dim 1)"});
  OpHarness axes("ReverseSequence");
  axes.In(0, {4, 3}).In(1, {3}, DT_INT64).Attr("batch_axis", 0);
  ExpectError(axes.Infer(), {"must be 0 and 1 in some order, got 0 and 0"});
}

}  // namespace
}  // namespace ge::testing
