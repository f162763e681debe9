// Tests of PhonyConcat / PhonySplit offsets: the worked example, negative axes, keep-offset off,
// and every validity check's message.
#include <gtest/gtest.h>

#include "engine_test_util.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

using namespace engine_test;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const GeTensorDesc kPiece = GraphBuilder::Desc({1, 2, 2, 4, 8}, DT_FLOAT16);  // 256 bytes

class PhonyConcatOffsets : public GeLocalTest {
 protected:
  // producers p0..p{n-1} -> PhonyConcat with `n` inputs of `piece`.
  void Build(size_t n, const GeTensorDesc& piece = kPiece) {
    concat_ = Must(graph_builder_.AddNode("phony_concat", "PhonyConcat",
                                          std::vector<GeTensorDesc>(n, piece),
                                          {GraphBuilder::Desc({4, 2, 2, 4, 8}, DT_FLOAT16)}));
    for (size_t i = 0; i < n; ++i) {
      producers_.push_back(
          Must(graph_builder_.AddNode("p" + std::to_string(i), "Mul", {}, {piece})));
      ASSERT_TRUE(
          IsOk(graph_builder_.AddDataEdge(producers_.back(), concat_, static_cast<int>(i))));
    }
  }
  void SetAttrs(std::vector<int64_t> dims, std::vector<int64_t> counts) {
    AttrUtils::SetListInt(concat_->GetOpDesc(), "concat_dim", std::move(dims));
    AttrUtils::SetListInt(concat_->GetOpDesc(), "N", std::move(counts));
  }
  Status Run() { return builder()->CalcOpRunningParam(*concat_); }
  std::vector<int64_t> Offsets() const {
    std::vector<int64_t> offsets;
    for (const NodePtr& producer : producers_) {
      std::vector<int64_t> list;
      EXPECT_TRUE(
          AttrUtils::GetListInt(producer->GetOpDesc(), "_output_offset_list_for_continuous", list))
          << producer->GetName();
      EXPECT_EQ(list.size(), 1u);
      offsets.push_back(list.empty() ? -1 : list[0]);
    }
    return offsets;
  }
  std::string Error() {
    Status status = Run();
    EXPECT_FALSE(status.ok());
    EXPECT_TRUE(Contains(status.message(), "PhonyConcat node 'phony_concat'")) << status.message();
    return status.message();
  }

  NodePtr concat_;
  std::vector<NodePtr> producers_;
};

TEST_F(PhonyConcatOffsets, TheReferenceExample) {
  // [1,2,2,4,8] float16, concat_dim {3,1}, N {2,2} -> 0, 64, 512, 576.
  Build(4);
  SetAttrs({3, 1}, {2, 2});
  Status status = Run();
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 64, 512, 576}));
}

TEST_F(PhonyConcatOffsets, NegativeAxesCountFromTheEnd) {
  Build(4);
  SetAttrs({-2, -4}, {2, 2});  // the same axes as {3, 1}
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 64, 512, 576}));
}

TEST_F(PhonyConcatOffsets, OneAxis) {
  Build(4);
  SetAttrs({0}, {4});
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 256, 512, 768}));
}

TEST_F(PhonyConcatOffsets, KeepInputOffsetOffPutsEveryInputAtZero) {
  Build(4);
  SetAttrs({3, 1}, {2, 2});
  AttrUtils::SetBool(concat_->GetOpDesc(), "keep_input_offset", false);
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST_F(PhonyConcatOffsets, TheOffsetGoesAtTheProducersOutputIndex) {
  concat_ = Must(graph_builder_.AddNode("phony_concat", "PhonyConcat", {kPiece, kPiece},
                                        {GraphBuilder::Desc({2})}));
  NodePtr split = Must(
      graph_builder_.AddNode("two_outputs", "Mul", {}, {GraphBuilder::Desc({3}), kPiece, kPiece}));
  ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge({split, 2}, concat_, 0)));
  ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge({split, 1}, concat_, 1)));
  SetAttrs({1}, {2});
  ASSERT_TRUE(Run().ok());
  std::vector<int64_t> list;
  ASSERT_TRUE(
      AttrUtils::GetListInt(split->GetOpDesc(), "_output_offset_list_for_continuous", list));
  EXPECT_EQ(list, (std::vector<int64_t>{0, 256, 0}));
}

// Pieces that differ along the one concat_dim, with only 1s before it (a channel concat at
// batch 1, as InPlaceConcat makes them), lie back to back: each at the bytes before it.
TEST_F(PhonyConcatOffsets, InputsThatDifferAlongTheOneAxisLieBackToBack) {
  Build(3);
  concat_->GetOpDesc()->MutableInputDesc(1)->SetShape(GeShape({1, 4, 2, 4, 8}));  // 512 bytes
  SetAttrs({1}, {3});
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 256, 768}));
}

TEST_F(PhonyConcatOffsets, InputsOfDifferentShapesAreRefused) {
  Build(2);
  concat_->GetOpDesc()->MutableInputDesc(1)->SetShape(GeShape({1, 2, 2, 4, 16}));
  SetAttrs({0}, {2});
  EXPECT_TRUE(Contains(Error(),
                       "input 1 has shape [1,2,2,4,16] but input 0 has shape "
                       "[1,2,2,4,8]; all inputs must have the same shape, or differ along one "
                       "concat_dim with only dims of 1 before it"));
  // Along axis 1 but with a batch of 2 before it: the pieces would interleave.
  concat_->GetOpDesc()->MutableInputDesc(0)->SetShape(GeShape({2, 2, 2, 4, 8}));
  concat_->GetOpDesc()->MutableInputDesc(1)->SetShape(GeShape({2, 4, 2, 4, 8}));
  SetAttrs({1}, {2});
  EXPECT_TRUE(Contains(Error(), "all inputs must have the same shape"));
}

TEST_F(PhonyConcatOffsets, AnInputSizeThatIsNotAMultipleOf32IsRefused) {
  Build(2, GraphBuilder::Desc({2, 3}, DT_INT8));
  SetAttrs({0}, {2});
  EXPECT_TRUE(Contains(Error(),
                       "each input is 6 bytes (DT_INT8[2,3] ND); it must be positive and a "
                       "multiple of 32 bytes"));
}

TEST_F(PhonyConcatOffsets, AnEmptyInputIsRefused) {
  Build(2, GraphBuilder::Desc({0, 8}));
  SetAttrs({0}, {2});
  EXPECT_TRUE(Contains(Error(), "each input is 0 bytes"));
}

TEST_F(PhonyConcatOffsets, AMissingAxisListIsRefused) {
  Build(2);
  AttrUtils::SetListInt(concat_->GetOpDesc(), "N", std::vector<int64_t>{2});
  EXPECT_TRUE(Contains(Error(), "attribute 'concat_dim' is missing"));
}

TEST_F(PhonyConcatOffsets, AnEmptyCountListIsRefused) {
  Build(2);
  SetAttrs({0}, {});
  EXPECT_TRUE(Contains(Error(), "attribute 'N' is empty"));
}

TEST_F(PhonyConcatOffsets, ListsOfDifferentLengthsAreRefused) {
  Build(2);
  SetAttrs({0, 1}, {2});
  EXPECT_TRUE(Contains(Error(), "'concat_dim' {0,1} and 'N' {2} must have the same length"));
}

TEST_F(PhonyConcatOffsets, ANonPositiveCountIsRefused) {
  Build(2);
  SetAttrs({0, 1}, {2, 0});
  EXPECT_TRUE(Contains(Error(), "'N'[1] = 0 must be positive"));
}

TEST_F(PhonyConcatOffsets, ACountProductOtherThanTheInputCountIsRefused) {
  Build(4);
  SetAttrs({3, 1}, {2, 1});
  EXPECT_TRUE(Contains(Error(), "the product of 'N' {2,1} must equal the number of inputs (4)"));
}

TEST_F(PhonyConcatOffsets, AnAxisOutOfRangeIsRefused) {
  Build(2);
  SetAttrs({5}, {2});
  EXPECT_TRUE(Contains(Error(),
                       "'concat_dim'[0] = 5 is out of range [-5, 4] for inputs of shape "
                       "[1,2,2,4,8]"));
  SetAttrs({-6}, {2});
  EXPECT_TRUE(Contains(Error(), "'concat_dim'[0] = -6 is out of range"));
}

TEST_F(PhonyConcatOffsets, AnUnlinkedInputIsRefused) {
  concat_ = Must(graph_builder_.AddNode("phony_concat", "PhonyConcat", {kPiece, kPiece},
                                        {GraphBuilder::Desc({2})}));
  NodePtr producer = Must(graph_builder_.AddNode("p0", "Mul", {}, {kPiece}));
  ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge(producer, concat_, 0)));
  SetAttrs({0}, {2});
  EXPECT_TRUE(Contains(Error(), "input 1 is not linked"));
}

class PhonySplitOffsets : public GeLocalTest {
 protected:
  // PhonySplit with `n` outputs of kPiece, each feeding consumer c{i} at input 1.
  void Build(size_t n) {
    split_ = Must(graph_builder_.AddNode("phony_split", "PhonySplit",
                                         {GraphBuilder::Desc({4, 2, 2, 4, 8}, DT_FLOAT16)},
                                         std::vector<GeTensorDesc>(n, kPiece)));
    for (size_t i = 0; i < n; ++i) {
      consumers_.push_back(Must(graph_builder_.AddNode(
          "c" + std::to_string(i), "Mul", {GraphBuilder::Desc({1}), kPiece}, {kPiece})));
      ASSERT_TRUE(
          IsOk(graph_builder_.AddDataEdge({split_, static_cast<int>(i)}, consumers_.back(), 1)));
    }
  }
  void SetAttrs(std::vector<int64_t> dims, std::vector<int64_t> counts) {
    AttrUtils::SetListInt(split_->GetOpDesc(), "split_dim", std::move(dims));
    AttrUtils::SetListInt(split_->GetOpDesc(), "num_split", std::move(counts));
  }
  Status Run() { return builder()->CalcOpRunningParam(*split_); }
  std::vector<int64_t> Offsets() const {
    std::vector<int64_t> offsets;
    for (const NodePtr& consumer : consumers_) {
      std::vector<int64_t> list;
      EXPECT_TRUE(
          AttrUtils::GetListInt(consumer->GetOpDesc(), "_input_offset_list_for_continuous", list));
      EXPECT_EQ(list.size(), 2u);
      offsets.push_back(list.size() < 2 ? -1 : list[1]);
    }
    return offsets;
  }

  NodePtr split_;
  std::vector<NodePtr> consumers_;
};

TEST_F(PhonySplitOffsets, TheReferenceExampleSplitsFromTheLastAxisEntry) {
  // split_dim {1,3}, num_split {2,2}: walked from the last entry, the counterpart of concat {3,1}.
  Build(4);
  SetAttrs({1, 3}, {2, 2});
  Status status = Run();
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 64, 512, 576}));
}

TEST_F(PhonySplitOffsets, NegativeAxesCountFromTheEnd) {
  Build(4);
  SetAttrs({-4, -2}, {2, 2});
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 64, 512, 576}));
}

TEST_F(PhonySplitOffsets, KeepOutputOffsetOffPutsEveryOutputAtZero) {
  Build(4);
  SetAttrs({1, 3}, {2, 2});
  AttrUtils::SetBool(split_->GetOpDesc(), "keep_output_offset", false);
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(Offsets(), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST_F(PhonySplitOffsets, EveryConsumerOfAnOutputGetsItsOffset) {
  Build(2);
  NodePtr extra = Must(graph_builder_.AddNode("extra", "Relu", {kPiece}, {kPiece}));
  ASSERT_TRUE(IsOk(graph_builder_.AddDataEdge({split_, 1}, extra, 0)));
  SetAttrs({0}, {2});
  ASSERT_TRUE(Run().ok());
  std::vector<int64_t> list;
  ASSERT_TRUE(AttrUtils::GetListInt(extra->GetOpDesc(), "_input_offset_list_for_continuous", list));
  EXPECT_EQ(list, (std::vector<int64_t>{256}));
}

TEST_F(PhonySplitOffsets, ValidityChecksNameTheSplitAttributes) {
  Build(4);
  SetAttrs({1, 3}, {4, 2});
  Status status = Run();
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(),
                       "PhonySplit node 'phony_split': the product of "
                       "'num_split' {4,2} must equal the number of outputs (4)"))
      << status.message();
  SetAttrs({1, 7}, {2, 2});
  status = Run();
  EXPECT_TRUE(Contains(status.message(), "'split_dim'[1] = 7 is out of range [-5, 4] for outputs"))
      << status.message();
  AttrUtils::DelAttr(split_->GetOpDesc(), "split_dim");
  status = Run();
  EXPECT_TRUE(Contains(status.message(), "attribute 'split_dim' is missing")) << status.message();
  split_->GetOpDesc()->MutableOutputDesc(2)->SetShape(GeShape({1, 2, 2, 4, 4}));
  SetAttrs({1, 3}, {2, 2});
  status = Run();
  EXPECT_TRUE(Contains(status.message(), "output 2 has shape [1,2,2,4,4] but output 0"))
      << status.message();
}

}  // namespace
}  // namespace ge
