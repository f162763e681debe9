// String tensors through the runtime: a caller's strings in, Const strings (also after an .om
// round trip), kernels that compare, move and make strings, strings out in GE's stored form, and
// the errors of a corrupt string input.
#include <gtest/gtest.h>

#include <cstring>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/string_tensor.h"
#include "ge/runtime/loaded_model.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using testing::EngineOptions;
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;

std::vector<std::string> Strings(const GeTensor& t) {
  Result<std::vector<std::string_view>> values = StringsOf(t, "output");
  EXPECT_TRUE(values.ok()) << values.status().message();
  if (!values.ok()) return {};
  return {values->begin(), values->end()};
}

class StringRuntimeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static Result<CompiledModel> Compile(ComputeGraphPtr graph) {
    auto compiler = Compiler::Create(testing::TestOptions());
    if (!compiler.ok()) return compiler.status();
    return (*compiler)->Compile(graph);
  }

  // x [2, 3] strings; eq = Equal(x, c) with c = ["a", "b", "c"] broadcast over rows; same = x
  // through Identity; numbers = Cast(words) to float; words = Cast(f) to strings.
  static ComputeGraphPtr Graph() {
    ProtoGraph b("strings");
    NodePtr x = b.Data("x", {2, 3}, DT_STRING);
    NodePtr f = b.Data("f", {3}, DT_FLOAT);
    NodePtr c = testing::Must(b.builder().AddConst("c", MakeStringTensor({3}, {"a", "b", "c"})));
    NodePtr eq = b.Op("Equal", "eq", {{x, 0}, {c, 0}});
    NodePtr same = b.Op("Identity", "same", {{x, 0}});
    NodePtr words = b.Op("Cast", "words", {{f, 0}}, {{"to", AttrValue(DT_STRING)}});
    NodePtr numbers = b.Op("Cast", "numbers", {{words, 0}}, {{"to", AttrValue(DT_FLOAT)}});
    b.Output({{eq, 0}, {same, 0}, {words, 0}, {numbers, 0}});
    return b.graph();
  }

  static void ExpectRunsRight(LoadedModel& model) {
    for (const auto& row : {std::vector<std::string>{"a", "x", "c", "b", "b", "\xc3\xa9"},
                            std::vector<std::string>{"", "b", "cc", "a", "b", "c"}}) {
      Result<std::vector<GeTensor>> out = model.Run(std::vector<GeTensor>{
          MakeStringTensor({2, 3}, row), MakeTensor<float>(DT_FLOAT, {3}, {0.1F, -3.0F, 1e20F})});
      ASSERT_TRUE(out.ok()) << out.status().message();
      ASSERT_EQ(out->size(), 4U);
      std::vector<uint8_t> want;
      for (size_t i = 0; i < row.size(); ++i)
        want.push_back(row[i] == std::string(1, "abc"[i % 3]));
      EXPECT_EQ(TensorValues<uint8_t>((*out)[0]), want);
      EXPECT_EQ((*out)[1].GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
      EXPECT_EQ(Strings((*out)[1]), row);
      EXPECT_EQ(Strings((*out)[2]), (std::vector<std::string>{"0.1", "-3", "1e+20"}));
      EXPECT_EQ(TensorValues<float>((*out)[3]), (std::vector<float>{0.1F, -3.0F, 1e20F}));
    }
  }
};

TEST_F(StringRuntimeTest, StringsRunInAndOut) {
  Result<CompiledModel> compiled = Compile(Graph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto model = LoadedModel::Load(std::move(*compiled), EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_TRUE((*model)->runs_dynamically());  // string bytes are sized at run time
  EXPECT_EQ((*model)->inputs()[0].dtype, DT_STRING);
  ExpectRunsRight(**model);
}

TEST_F(StringRuntimeTest, ConstStringsSurviveTheCompiledFile) {
  Result<CompiledModel> compiled = Compile(Graph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  Result<std::string> bytes = compiled->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  Result<CompiledModel> again = CompiledModel::Deserialize(*bytes);
  ASSERT_TRUE(again.ok()) << again.status().message();
  auto model = LoadedModel::Load(std::move(*again), EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  ExpectRunsRight(**model);
}

TEST_F(StringRuntimeTest, CorruptStringInputIsRefusedNamingIt) {
  Result<CompiledModel> compiled = Compile(Graph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto model = LoadedModel::Load(std::move(*compiled), EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  GeTensor x = MakeStringTensor({2, 3}, {"a", "b", "c", "d", "e", "f"});
  StringHead bad{1 << 20, 4};  // element 4's bytes far outside the tensor
  std::memcpy(x.MutableData() + 4 * sizeof(StringHead), &bad, sizeof(bad));
  Result<std::vector<GeTensor>> out =
      (*model)->Run(std::vector<GeTensor>{x, MakeTensor<float>(DT_FLOAT, {3}, {1, 2, 3})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("input 'x'"), std::string::npos) << out.status().message();
  EXPECT_NE(out.status().message().find("string 4"), std::string::npos) << out.status().message();
  // Fewer bytes than the heads of its shape.
  GeTensor short_x(GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_STRING), std::vector<uint8_t>(40));
  out = (*model)->Run(std::vector<GeTensor>{short_x, MakeTensor<float>(DT_FLOAT, {3}, {1, 2, 3})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("heads"), std::string::npos) << out.status().message();
}

TEST_F(StringRuntimeTest, TextThatIsNoNumberFailsTheCastNamingTheElement) {
  ProtoGraph b("parse");
  NodePtr x = b.Data("x", {3}, DT_STRING);
  NodePtr n = b.Op("Cast", "n", {{x, 0}}, {{"to", AttrValue(DT_INT32)}});
  b.Output({{n, 0}});
  Result<CompiledModel> compiled = Compile(b.graph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto model = LoadedModel::Load(std::move(*compiled), EngineOptions());
  ASSERT_TRUE(model.ok()) << model.status().message();
  Result<std::vector<GeTensor>> out =
      (*model)->Run(std::vector<GeTensor>{MakeStringTensor({3}, {" 12", "-7", "100.5"})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(TensorValues<int32_t>((*out)[0]), (std::vector<int32_t>{12, -7, 100}));
  out = (*model)->Run(std::vector<GeTensor>{MakeStringTensor({3}, {"1", "two", "3"})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("element 1 is \"two\""), std::string::npos)
      << out.status().message();
  // The node is named once: the runtime's "running" and the kernel's own words are one prefix.
  EXPECT_EQ(out.status().message().rfind("running node 'n' (Cast): ", 0), 0U)
      << out.status().message();
  EXPECT_EQ(out.status().message().find("node 'n'", 10), std::string::npos)
      << out.status().message();
}

}  // namespace
}  // namespace ge
