// InPlaceConcat: concatenations written in place (PhonyConcat) and equal splits read in place
// (PhonySplit), where they may and where they must not be, each compiled with the pass and
// without it and run on the same inputs: the numbers must not change.
#include <gtest/gtest.h>

#include "fusion_test_util.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

using fusion_test::Random;
using testing::ProtoGraph;

const std::map<std::string, AttrValue> kConv3x3 = {
    {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
    {"strides", AttrValue(std::vector<int64_t>{1, 1})}};

class InPlaceConcatTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static int64_t CountType(const CompiledModel& m, const std::string& type) {
    int64_t n = 0;
    for (const NodePtr& node : m.graph->GetAllNodes()) n += node->GetType() == type ? 1 : 0;
    return n;
  }

  /// Compiles `make()` with the pass and without, under `options`, runs both on the same random
  /// input of `dims`, and expects the same numbers. Returns the compile with the pass.
  static CompiledModel ExpectSameNumbers(const std::function<ComputeGraphPtr()>& make,
                                         const std::vector<int64_t>& dims,
                                         std::map<std::string, std::string> options = {}) {
    auto with = fusion_test::Compile(make(), options);
    options["openge.disablePasses"] = "InPlaceConcat";
    auto without = fusion_test::Compile(make(), options);
    EXPECT_TRUE(with.ok()) << with.status().message();
    EXPECT_TRUE(without.ok()) << without.status().message();
    if (!with.ok() || !without.ok()) return CompiledModel{};
    EXPECT_EQ(CountType(*without, "PhonyConcat") + CountType(*without, "PhonySplit"), 0);
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    const std::vector<GeTensor> inputs = {
        testing::MakeTensor(DT_FLOAT, dims, Random(static_cast<size_t>(n), 7, -2.0F, 2.0F))};
    const auto a = fusion_test::Run(*with, inputs);
    const auto b = fusion_test::Run(*without, inputs);
    EXPECT_EQ(a.size(), b.size());
    for (size_t o = 0; o < std::min(a.size(), b.size()); ++o) {
      EXPECT_EQ(a[o], b[o]) << "output " << o;  // the same kernels: the same bits
    }
    return std::move(with).value();
  }
};

NodePtr Conv(ProtoGraph& b, const std::string& name, NodePtr in, int64_t c_in, int64_t c_out,
             uint32_t seed) {
  NodePtr w = b.Const<float>(name + "_w", DT_FLOAT, {c_out, c_in, 3, 3},
                             Random(static_cast<size_t>(c_out * c_in * 9), seed, -0.3F, 0.3F));
  return b.Op("Relu", name + "_relu", {{b.Op("Conv2D", name, {{in, 0}, {w, 0}}, kConv3x3), 0}});
}

/// A dense block as DenseNet exports it: each layer reads the concat of every feature before it,
/// and the block ends with the concat of all of them.
ComputeGraphPtr DenseBlock(int64_t batch, int64_t layers) {
  ProtoGraph b("dense");
  NodePtr x = b.Data("x", {batch, 16, 8, 8});
  std::vector<NodePtr> features = {Conv(b, "stem", x, 16, 32, 1)};
  for (int64_t l = 0; l < layers; ++l) {
    std::vector<NodeOutput> in;
    for (const NodePtr& f : features) in.emplace_back(f, 0);
    NodePtr cat = b.Op("ConcatV2", "cat" + std::to_string(l), in, {{"axis", AttrValue(int64_t{1})}},
                       {{"x", static_cast<uint32_t>(in.size())}});
    features.push_back(
        Conv(b, "layer" + std::to_string(l), cat, 32 * (l + 1), 32, static_cast<uint32_t>(10 + l)));
  }
  std::vector<NodeOutput> in;
  for (const NodePtr& f : features) in.emplace_back(f, 0);
  NodePtr out = b.Op("ConcatV2", "out_cat", in, {{"axis", AttrValue(int64_t{1})}},
                     {{"x", static_cast<uint32_t>(in.size())}});
  b.Output({{Conv(b, "head", out, 32 * (layers + 1), 16, 30), 0}});
  return b.graph();
}

// Every concat of the block is a prefix of the last one: laid out once in block order, each
// feature is written once, where all of them read it, in NCHW and in NC1HWC0 alike. (The first
// layer's concat of one input is no concat at all: SimplifyChains drops it.)
TEST_F(InPlaceConcatTest, ADenseBlocksConcatsAreAllWrittenInPlace) {
  for (const char* layout : {"blocked", "plain"}) {
    SCOPED_TRACE(layout);
    CompiledModel m = ExpectSameNumbers([] { return DenseBlock(1, 3); }, {1, 16, 8, 8},
                                        {{"openge.cpuLayout", layout}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(CountType(m, "PhonyConcat"), 3);
    EXPECT_EQ(CountType(m, "ConcatV2"), 0);
    const PassReport* pass = m.report.FindPass("optimize", "InPlaceConcat");
    ASSERT_NE(pass, nullptr);
    EXPECT_EQ(pass->rewrites, 3);
    EXPECT_EQ(m.graph->FindNode("out_cat")->GetType(), "PhonyConcat");  // the name is kept
    int64_t tasks = 0;
    for (const auto& [node, list] : m.tasks) tasks += node.rfind("cat", 0) == 0 ? 1 : 0;
    EXPECT_EQ(tasks, 0);  // no copy runs
  }
}

// Must not fire: at batch 2 a channel concat interleaves its pieces; a graph input cannot be
// written in place; a concat that is the graph's output keeps its own buffer.
TEST_F(InPlaceConcatTest, ConcatsThatCannotBeWrittenInPlaceStayCopies) {
  CompiledModel batch = ExpectSameNumbers([] { return DenseBlock(2, 2); }, {2, 16, 8, 8});
  ASSERT_NE(batch.graph, nullptr);
  EXPECT_EQ(CountType(batch, "PhonyConcat"), 0);
  auto with_input = [] {
    ProtoGraph b("input");
    NodePtr x = b.Data("x", {1, 16, 8, 8});
    NodePtr c = Conv(b, "c", x, 16, 16, 3);
    NodePtr cat =
        b.Op("ConcatV2", "cat", {{x, 0}, {c, 0}}, {{"axis", AttrValue(int64_t{1})}}, {{"x", 2}});
    b.Output({{Conv(b, "d", cat, 32, 16, 4), 0}});
    return b.graph();
  };
  CompiledModel input = ExpectSameNumbers(with_input, {1, 16, 8, 8});
  ASSERT_NE(input.graph, nullptr);
  EXPECT_EQ(CountType(input, "PhonyConcat"), 0);
  auto as_output = [] {
    ProtoGraph b("output");
    NodePtr x = b.Data("x", {1, 16, 8, 8});
    NodePtr c1 = Conv(b, "c1", x, 16, 16, 5);
    NodePtr c2 = Conv(b, "c2", x, 16, 16, 6);
    NodePtr cat =
        b.Op("ConcatV2", "cat", {{c1, 0}, {c2, 0}}, {{"axis", AttrValue(int64_t{1})}}, {{"x", 2}});
    b.Output({{cat, 0}});
    return b.graph();
  };
  CompiledModel output = ExpectSameNumbers(as_output, {1, 16, 8, 8});
  ASSERT_NE(output.graph, nullptr);
  EXPECT_EQ(CountType(output, "PhonyConcat"), 0);
}

// One feature given to two concats at different offsets (first in one, second in the other)
// can sit in only one place: the first concat is written in place, the second stays a copy.
TEST_F(InPlaceConcatTest, APieceNeededAtTwoPlacesLeavesTheSecondConcatACopy) {
  auto make = [] {
    ProtoGraph b("conflict");
    NodePtr x = b.Data("x", {1, 16, 8, 8});
    NodePtr a = Conv(b, "a", x, 16, 16, 7);
    NodePtr c = Conv(b, "c", x, 16, 16, 8);
    NodePtr cat1 =
        b.Op("ConcatV2", "cat1", {{a, 0}, {c, 0}}, {{"axis", AttrValue(int64_t{1})}}, {{"x", 2}});
    NodePtr cat2 =
        b.Op("ConcatV2", "cat2", {{c, 0}, {a, 0}}, {{"axis", AttrValue(int64_t{1})}}, {{"x", 2}});
    b.Output({{Conv(b, "d", cat1, 32, 16, 9), 0}, {Conv(b, "e", cat2, 32, 16, 10), 0}});
    return b.graph();
  };
  CompiledModel m = ExpectSameNumbers(make, {1, 16, 8, 8});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(CountType(m, "PhonyConcat"), 1);
  EXPECT_EQ(CountType(m, "ConcatV2"), 1);
  const PassReport* pass = m.report.FindPass("optimize", "InPlaceConcat");
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->counters.at("left as a copy: a piece is placed elsewhere already"), 1);
}

// ShuffleNet's channel split into equal halves: both halves are read where they lie.
TEST_F(InPlaceConcatTest, AnEqualChannelSplitIsReadInPlace) {
  auto equal = [] {
    ProtoGraph b("split");
    NodePtr x = b.Data("x", {1, 16, 8, 8});
    NodePtr c = Conv(b, "c", x, 16, 32, 11);
    NodePtr split =
        b.Op("Split", "split", {{c, 0}},
             {{"axis", AttrValue(int64_t{1})}, {"num_outputs", AttrValue(int64_t{2})}}, {{"y", 2}});
    NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {16, 16, 3, 3},
                                Random(size_t{16} * 16 * 9, 13, -0.3F, 0.3F));
    NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {16, 16, 3, 3},
                                Random(size_t{16} * 16 * 9, 14, -0.3F, 0.3F));
    NodePtr l = b.Op("Conv2D", "l", {{split, 0}, {w1, 0}}, kConv3x3);
    NodePtr r = b.Op("Conv2D", "r", {{split, 1}, {w2, 0}}, kConv3x3);
    b.Output({{b.Op("Add", "sum", {{l, 0}, {r, 0}}), 0}});
    return b.graph();
  };
  CompiledModel m = ExpectSameNumbers(equal, {1, 16, 8, 8});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(CountType(m, "PhonySplit"), 1);
  EXPECT_EQ(CountType(m, "Split"), 0);
}

}  // namespace
}  // namespace ge
