// Tests of the aliasing rules: reuse-input, PhonyConcat, PhonySplit and in-place outputs.
#include <gtest/gtest.h>

#include "ge/compiler/memory/memory_planner.h"
#include "memory_test_builder.h"

namespace ge::memory {
namespace {

using testing::Contains;
using testing::IndexOf;
using testing::MemGraph;
using testing::Out;

void MarkReuseInput(const NodePtr& node, uint32_t input) {
  GeTensorDescPtr desc = node->GetOpDesc()->MutableOutputDesc(0);
  desc->SetReuseInput(true);
  desc->SetReuseInputIndex(input);
}

TEST(ReuseInput, ReshapeSharesItsInputAndExtendsItsLife) {
  MemGraph g;
  NodePtr a = g.Add("a", "Op", 0, {1024});
  NodePtr reshape = g.Op("reshape", {a}, {1024}, "Reshape");
  MarkReuseInput(reshape, 0);
  NodePtr b = g.Op("b", {reshape}, {1024});
  NodePtr c = g.Op("c", {b}, {1024});
  g.Op("d", {c}, {64});
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const TensorPlan& view = Out(*plan, "reshape");
  EXPECT_EQ(view.alias_of, IndexOf(*plan, "a"));
  EXPECT_EQ(view.offset, Out(*plan, "a").offset);
  EXPECT_EQ(Out(*plan, "a").alias_of, -1);
  EXPECT_EQ(Out(*plan, "a").last_step, 2);  // covers b, the reshape's consumer
  EXPECT_EQ(plan->lower_bound, 2048);       // the view takes no memory of its own
  EXPECT_TRUE(CheckMemoryPlan(*plan).ok());
}

TEST(ReuseInput, ViewOfAGraphInputStaysInTheInputRegion) {
  MemGraph g;
  NodePtr data = g.Add("data", "Data", 0, {256});
  NodePtr flatten = g.Op("flatten", {data}, {256}, "Flatten");
  MarkReuseInput(flatten, 0);
  g.Op("op", {flatten}, {256});
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(Out(*plan, "flatten").region, Region::kInput);
  EXPECT_EQ(Out(*plan, "flatten").alias_of, IndexOf(*plan, "data"));
  EXPECT_EQ(plan->arena_bytes, 256);
}

TEST(ReuseInput, NotMarkedMeansNotShared) {
  MemGraph g;
  NodePtr a = g.Add("a", "Op", 0, {1024});
  NodePtr reshape = g.Op("reshape", {a}, {1024}, "Reshape");
  g.Op("b", {reshape}, {64});
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Out(*plan, "reshape").alias_of, -1);
  EXPECT_NE(Out(*plan, "reshape").offset, Out(*plan, "a").offset);
}

// p0, p1, p2 (256 bytes each) → PhonyConcat (800 bytes, as GE Local sizes it) → sink.
struct ConcatGraph {
  MemGraph g;
  NodePtr p0, p1, p2, concat, sink;
  explicit ConcatGraph(bool record_offsets = true) {
    NodePtr src = g.Add("src", "Op", 0, {64});
    p0 = g.Op("p0", {src}, {256});
    p1 = g.Op("p1", {src}, {256});
    p2 = g.Op("p2", {src}, {256});
    concat = g.Op("concat", {p0, p1, p2}, {800}, "PhonyConcat");
    AttrUtils::SetBool(concat->GetOpDesc(), "_no_padding_continuous_input", true);
    if (record_offsets) {
      // The order of the pieces in the buffer need not follow the input order.
      AttrUtils::SetListInt(p0->GetOpDesc(), "_output_offset_list_for_continuous",
                            std::vector<int64_t>{512});
      AttrUtils::SetListInt(p1->GetOpDesc(), "_output_offset_list_for_continuous",
                            std::vector<int64_t>{0});
      AttrUtils::SetListInt(p2->GetOpDesc(), "_output_offset_list_for_continuous",
                            std::vector<int64_t>{256});
    }
    sink = g.Op("sink", {concat}, {64});
  }
};

TEST(PhonyConcat, InputsAreLaidOutInsideTheOutputAtTheRecordedOffsets) {
  ConcatGraph graph;
  auto plan = graph.g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const TensorPlan& out = Out(*plan, "concat");
  const int32_t out_index = IndexOf(*plan, "concat");
  EXPECT_EQ(out.alias_of, -1);
  EXPECT_EQ(out.size, 832);
  EXPECT_EQ(Out(*plan, "p0").offset, out.offset + 512);
  EXPECT_EQ(Out(*plan, "p1").offset, out.offset);
  EXPECT_EQ(Out(*plan, "p2").offset, out.offset + 256);
  for (const char* piece : {"p0", "p1", "p2"}) EXPECT_EQ(Out(*plan, piece).alias_of, out_index);
  // The block lives from the first piece to the concat's consumer.
  EXPECT_EQ(out.first_step, 1);
  EXPECT_EQ(out.last_step, 5);
  EXPECT_TRUE(CheckMemoryPlan(*plan).ok());
}

TEST(PhonyConcat, WithoutRecordedOffsetsThePiecesFollowTheInputOrder) {
  ConcatGraph graph(/*record_offsets=*/false);
  auto plan = graph.g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const int64_t base = Out(*plan, "concat").offset;
  EXPECT_EQ(Out(*plan, "p0").offset, base);
  EXPECT_EQ(Out(*plan, "p1").offset, base + 256);
  EXPECT_EQ(Out(*plan, "p2").offset, base + 512);
}

TEST(PhonyConcat, ATensorInTwoContinuousBuffersIsAnError) {
  // v is a view of p1 (same bytes) but concat2 wants it 256 bytes above p1.
  ConcatGraph graph;
  NodePtr view = graph.g.Op("v", {graph.p1}, {256}, "Reshape");
  view->GetOpDesc()->MutableOutputDesc(0)->SetReuseInput(true);
  graph.g.Op("concat2", {graph.p1, view}, {544}, "PhonyConcat");
  auto plan = graph.g.Plan();
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kParamInvalid);
  EXPECT_TRUE(Contains(plan.status().message(), "node 'concat2'"));
  EXPECT_TRUE(Contains(plan.status().message(), "conflicts"));
}

TEST(PhonyConcat, AGraphInputCannotBeAPiece) {
  MemGraph g;
  NodePtr d0 = g.Add("d0", "Data", 0, {256});
  NodePtr a = g.Op("a", {d0}, {256});
  NodePtr concat = g.Op("concat", {a, d0}, {544}, "PhonyConcat");
  g.Op("sink", {concat}, {64});
  auto plan = g.Plan();
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(Contains(plan.status().message(), "graph input"));
  EXPECT_TRUE(Contains(plan.status().message(), "'d0'"));
}

TEST(PhonySplit, OutputsAreViewsIntoTheInput) {
  MemGraph g;
  NodePtr src = g.Add("src", "Op", 0, {512});
  NodePtr split = g.Add("split", "PhonySplit", 1, {256, 256});
  g.Link(src, 0, split, 0);
  AttrUtils::SetBool(split->GetOpDesc(), "_no_padding_continuous_output", true);
  NodePtr c0 = g.Add("c0", "Op", 1, {64});
  NodePtr c1 = g.Add("c1", "Op", 1, {64});
  g.Link(split, 1, c0, 0);  // c0 reads the second piece
  g.Link(split, 0, c1, 0);
  AttrUtils::SetListInt(c0->GetOpDesc(), "_input_offset_list_for_continuous",
                        std::vector<int64_t>{256});
  AttrUtils::SetListInt(c1->GetOpDesc(), "_input_offset_list_for_continuous",
                        std::vector<int64_t>{0});
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const int32_t src_index = IndexOf(*plan, "src");
  const int64_t base = Out(*plan, "src").offset;
  EXPECT_EQ(Out(*plan, "split", 0).offset, base);
  EXPECT_EQ(Out(*plan, "split", 1).offset, base + 256);
  EXPECT_EQ(Out(*plan, "split", 0).alias_of, src_index);
  EXPECT_EQ(Out(*plan, "split", 1).alias_of, src_index);
  EXPECT_EQ(Out(*plan, "src").last_step, 3);  // until c1, the last reader of a piece
  EXPECT_TRUE(CheckMemoryPlan(*plan).ok());
}

// a → relu (may overwrite its input) → b.
struct InplaceGraph {
  MemGraph g;
  NodePtr a, relu, b;
  explicit InplaceGraph(int64_t relu_bytes = 1024) {
    a = g.Add("a", "Op", 0, {1024});
    relu = g.Op("relu", {a}, {relu_bytes}, "Relu");
    AttrUtils::SetListInt(relu->GetOpDesc(), kAttrInplaceOutputInput, std::vector<int64_t>{0});
    b = g.Op("b", {relu}, {64});
  }
};

TEST(Inplace, OutputOverwritesAnInputThatDiesHere) {
  InplaceGraph graph;
  auto plan = graph.g.Plan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(Out(*plan, "relu").alias_of, IndexOf(*plan, "a"));
  EXPECT_EQ(Out(*plan, "relu").offset, Out(*plan, "a").offset);
  EXPECT_EQ(Out(*plan, "a").last_step, 2);
  EXPECT_EQ(plan->lower_bound, 1024 + 64);
  EXPECT_TRUE(CheckMemoryPlan(*plan).ok());
}

TEST(Inplace, NotWhenTheInputIsReadLater) {
  InplaceGraph graph;
  graph.g.Op("late", {graph.a}, {64});
  auto plan = graph.g.Plan();
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Out(*plan, "relu").alias_of, -1);
  EXPECT_NE(Out(*plan, "relu").offset, Out(*plan, "a").offset);
}

TEST(Inplace, NotWhenTheSizesDiffer) {
  InplaceGraph graph(/*relu_bytes=*/2048);
  auto plan = graph.g.Plan();
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Out(*plan, "relu").alias_of, -1);
}

TEST(Inplace, NotOverAGraphInput) {
  MemGraph g;
  NodePtr data = g.Add("data", "Data", 0, {1024});
  NodePtr relu = g.Op("relu", {data}, {1024}, "Relu");
  AttrUtils::SetListInt(relu->GetOpDesc(), kAttrInplaceOutputInput, std::vector<int64_t>{0});
  g.Op("b", {relu}, {64});
  auto plan = g.Plan();
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Out(*plan, "relu").region, Region::kArena);
  EXPECT_EQ(Out(*plan, "relu").alias_of, -1);
}

TEST(Inplace, NotWithoutTheAttribute) {
  InplaceGraph graph;
  graph.relu->GetOpDesc()->DelAttr(kAttrInplaceOutputInput);
  auto plan = graph.g.Plan();
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Out(*plan, "relu").alias_of, -1);
}

}  // namespace
}  // namespace ge::memory
