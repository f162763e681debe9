// A GE graph file whose ops carry no port names (no _input_name_key / _input_name_value, as
// hand-written graphs and other producers write them) compiles and runs: a ConcatV2's inputs
// __input0 and __input1 are its dynamic input x's instances, by position.
#include <gtest/gtest.h>

#include "fusion_test_util.h"
#include "ge/graph/serialize/model_serialize.h"

namespace ge {
namespace {

// relu(concat([a, b], axis 1)) for a [2, 3] and b [2, 5], ports unnamed.
constexpr char kUnnamedConcat[] = R"pb(
  graph {
    name: "g"
    op {
      name: "a"
      type: "Data"
      attr {
        key: "index"
        value { i: 0 }
      }
      output_desc {
        dtype: DT_FLOAT
        shape { dim: 2 dim: 3 }
      }
    }
    op {
      name: "b"
      type: "Data"
      attr {
        key: "index"
        value { i: 1 }
      }
      output_desc {
        dtype: DT_FLOAT
        shape { dim: 2 dim: 5 }
      }
    }
    op {
      name: "cat"
      type: "ConcatV2"
      input: "a:0"
      input: "b:0"
      attr {
        key: "axis"
        value { i: 1 }
      }
      input_desc {}
      input_desc {}
      output_desc {}
    }
    op {
      name: "relu"
      type: "Relu"
      input: "cat:0"
      input_desc {}
      output_desc {}
    }
    op {
      name: "output"
      type: "NetOutput"
      input: "relu:0"
      input_desc {}
    }
  }
)pb";

class UnnamedPorts : public ::testing::TestWithParam<SerializeFormat> {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }
};

TEST_P(UnnamedPorts, AGraphFileWithoutPortNamesRunsAndGivesTheNumbers) {
  auto text = ModelSerialize::Deserialize(kUnnamedConcat, SerializeFormat::kText);
  ASSERT_TRUE(text.ok()) << text.status().message();
  ComputeGraphPtr graph = *text;
  if (GetParam() == SerializeFormat::kBinary) {
    auto bytes = ModelSerialize::Serialize(**text, SerializeFormat::kBinary);
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    auto binary = ModelSerialize::Deserialize(*bytes, SerializeFormat::kBinary);
    ASSERT_TRUE(binary.ok()) << binary.status().message();
    graph = *binary;
  }
  auto compiled = fusion_test::Compile(graph);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const std::vector<float> a = {-3, -2, -1, 0, 1, 2};
  const std::vector<float> b = {-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5};
  const auto out = fusion_test::Run(*compiled, {testing::MakeTensor(DT_FLOAT, {2, 3}, a),
                                                testing::MakeTensor(DT_FLOAT, {2, 5}, b)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0.5, 1, 1.5, 2, 2.5}));
}

INSTANTIATE_TEST_SUITE_P(TextAndBinary, UnnamedPorts,
                         ::testing::Values(SerializeFormat::kText, SerializeFormat::kBinary),
                         [](const ::testing::TestParamInfo<SerializeFormat>& info) {
                           return info.param == SerializeFormat::kText ? "Text" : "Binary";
                         });

}  // namespace
}  // namespace ge
