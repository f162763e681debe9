// The exported models (tests/models/export_models.py) compile end to end: no GeDeletedOp-class
// node survives, folding strips the shape subgraphs of the dynamic-axes BERT export once the
// input shape is given, and the CompiledModel serializes and loads back identically.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/parser/onnx_parser.h"

namespace ge {
namespace {

const std::string kModelsDir = GE_TEST_MODELS_DIR;

std::string ExportStatus() { return testing::ExportStatus(kModelsDir); }

// GE Local's GeDeletedOp list (docs/ge_compatibility.md, "GE Local"): none may reach task
// generation.
const std::set<std::string>& DeletedOpTypes() {
  static const std::set<std::string> kTypes = {"TemporaryVariable",
                                               "DestroyTemporaryVariable",
                                               "GuaranteeConst",
                                               "PreventGradient",
                                               "StopGradient",
                                               "Size",
                                               "Shape",
                                               "ShapeN",
                                               "Rank",
                                               "_Retval",
                                               "ReadVariableOp",
                                               "VarHandleOp",
                                               "VarIsInitializedOp",
                                               "Snapshot",
                                               "RefIdentity",
                                               "Identity",
                                               "IdentityN",
                                               "VariableV2",
                                               "Empty",
                                               "PlaceholderWithDefault",
                                               "IsVariableInitialized",
                                               "PlaceholderV2",
                                               "Placeholder",
                                               "End",
                                               "Switch",
                                               "RefMerge",
                                               "RefSwitch",
                                               "TransShape",
                                               "GatherShapes"};
  return kTypes;
}

struct Case {
  std::string model;
  std::string input_shape;  // ge.inputShape, or empty
};

class CompileModels : public ::testing::TestWithParam<Case> {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }
};

TEST_P(CompileModels, CompileWithoutDeletedOpsAndRoundTrip) {
  ASSERT_EQ(ExportStatus(), "ok") << "the test models were not exported (target ge_onnx_test_data)";
  const Case& c = GetParam();
  auto graph = ParseOnnxFile(kModelsDir + "/" + c.model + "/model.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  std::map<std::string, std::string> extra;
  if (!c.input_shape.empty()) extra["ge.inputShape"] = c.input_shape;
  auto compiler = Compiler::Create(testing::TestOptions(extra));
  ASSERT_TRUE(compiler.ok()) << compiler.status().message();
  auto model = (*compiler)->Compile(*graph);
  ASSERT_TRUE(model.ok()) << model.status().message();

  for (const NodePtr& node : model->graph->GetAllNodes()) {
    EXPECT_EQ(DeletedOpTypes().count(node->GetType()), 0u)
        << node->GetName() << " (" << node->GetType() << ") survived compilation";
    EXPECT_FALSE(node->GetOpDesc()->GetOpEngineName().empty()) << node->GetName();
  }
  const CompileReport& report = model->report;
  EXPECT_GT(report.tasks, 0);
  EXPECT_GT(report.memory.arena_bytes, 0);
  EXPECT_GE(report.memory.arena_bytes, report.memory.lower_bound);
  // The memory-planner issue's target for these models: within 5% of the lower bound.
  EXPECT_LE(static_cast<double>(report.memory.arena_bytes),
            1.05 * static_cast<double>(report.memory.lower_bound));
  EXPECT_GT(report.memory.weight_bytes, 0);

  auto bytes = model->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto loaded = CompiledModel::Deserialize(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  Status same = GraphUtils::CheckEqual(*model->graph, *loaded->graph);
  EXPECT_TRUE(same.ok()) << same.message();
  EXPECT_EQ(loaded->tasks, model->tasks);
  std::cout << c.model << ": " << report.nodes_parsed << " -> " << report.nodes_compiled
            << " nodes, arena " << report.memory.arena_bytes << " B (bound "
            << report.memory.lower_bound << "), " << report.tasks << " tasks, "
            << report.total_millis << " ms\n";
}

INSTANTIATE_TEST_SUITE_P(Exported, CompileModels,
                         ::testing::Values(Case{"resnet18_opset17", ""},
                                           Case{"mobilenet_v2_opset13", ""},
                                           Case{"bert_encoder_opset17", "input_ids:2,16"},
                                           Case{"bert_encoder_opset13", "input_ids:2,16"}),
                         [](const auto& info) { return info.param.model; });

TEST(CompileBert, CompilesWithDynamicAxesLeavingUnknownTensorsToTheRuntime) {
  ASSERT_EQ(ExportStatus(), "ok");
  testing::LoadOps();
  auto graph = ParseOnnxFile(kModelsDir + "/bert_encoder_opset17/model.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  auto compiler = Compiler::Create(testing::TestOptions());
  ASSERT_TRUE(compiler.ok()) << compiler.status().message();
  auto model = (*compiler)->Compile(*graph);
  ASSERT_TRUE(model.ok()) << model.status().message();
  size_t dynamic = 0;
  for (const auto& t : model->plans.at(model->graph->GetName()).tensors) {
    dynamic += t.region == memory::Region::kDynamic;
  }
  EXPECT_GT(dynamic, 10u);
  // Without shapes the Shape family stays (it runs at run time); with them it is gone (above).
  EXPECT_GT(model->report.op_types_after.count("Shape"), 0u);
}

TEST(CompileBert, FoldingRemovesMostShapeComputationsOnceShapesAreKnown) {
  ASSERT_EQ(ExportStatus(), "ok");
  testing::LoadOps();
  const std::set<std::string> shape_family = {"Shape", "GatherV2", "Unsqueeze", "ConcatV2",
                                              "Cast",  "Range",    "Squeeze",   "Slice"};
  auto count = [&](const std::map<std::string, int64_t>& types) {
    int64_t n = 0;
    for (const auto& [type, k] : types) n += shape_family.count(type) ? k : 0;
    return n;
  };
  auto compile = [&](const std::string& input_shape) {
    auto graph = ParseOnnxFile(kModelsDir + "/bert_encoder_opset17/model.onnx");
    EXPECT_TRUE(graph.ok()) << graph.status().message();
    std::map<std::string, std::string> extra;
    if (!input_shape.empty()) extra["ge.inputShape"] = input_shape;
    auto compiler = Compiler::Create(testing::TestOptions(extra));
    EXPECT_TRUE(compiler.ok()) << compiler.status().message();
    auto model = (*compiler)->Compile(*graph);
    EXPECT_TRUE(model.ok()) << model.status().message();
    return model.ok() ? model->report : CompileReport{};
  };
  const CompileReport fixed = compile("input_ids:2,16");
  const int64_t before = count(fixed.op_types_before);
  const int64_t after = count(fixed.op_types_after);
  ASSERT_GT(before, 20);
  EXPECT_LE(after * 5, before) << "folding left " << after << " of " << before
                               << " shape-computation nodes";
  const PassReport* folding = fixed.FindPass("optimize", "ConstantFolding");
  ASSERT_NE(folding, nullptr);
  EXPECT_GT(folding->counters.count("folded Shape") ? folding->counters.at("folded Shape") : 0, 0);
  std::cout << "BERT shape-computation nodes: " << before << " -> " << after
            << " (Shape folded: " << folding->counters.at("folded Shape") << ")\n";
}

}  // namespace
}  // namespace ge
