// A test-only engine plugin (TEST_ENGINE). Built three ways: working; without the
// GetGraphOptimizerObjs entry point (TEST_ENGINE_OMIT_OPTIMIZERS); with an Initialize that fails
// (TEST_ENGINE_INIT_FAILS).
//
// It supports Add, Mul, Relu and Reshape (Reshape to show priority against GE Local). Its
// optimizer appends the hook's name to the graph's list attribute "test_engine_hooks"; its
// builder sizes outputs plainly and emits one task per node.
#include <memory>

#include "ge/engine/engine_plugin.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"

namespace {

constexpr char kEngineName[] = "TEST_ENGINE";
constexpr char kKernelLib[] = "TEST_ENGINE_OP_STORE";

class TestStore final : public ge::OpsKernelInfoStore {
 public:
  void GetAllOpsKernelInfo(std::map<std::string, ge::OpInfo>& infos) const override {
    for (const char* type : {"Add", "Mul", "Relu", "Reshape"}) {
      ge::OpInfo info;
      info.engine = kEngineName;
      info.opKernelLib = kKernelLib;
      info.computeCost = 10;
      infos[type] = info;
    }
  }
  bool CheckSupported(const ge::OpDescPtr& op_desc, std::string& reason) const override {
    std::map<std::string, ge::OpInfo> infos;
    GetAllOpsKernelInfo(infos);
    if (infos.count(op_desc->GetType()) != 0) return true;
    reason = "the test engine has no kernel for '" + op_desc->GetType() + "'";
    return false;
  }
};

class TestOptimizer final : public ge::GraphOptimizer {
 public:
  ge::Status OptimizeOriginalGraph(ge::ComputeGraph& graph) override {
    return Record(graph, "OptimizeOriginalGraph");
  }
  ge::Status OptimizeOriginalGraphJudgeInsert(ge::ComputeGraph& graph) override {
    return Record(graph, "OptimizeOriginalGraphJudgeInsert");
  }
  ge::Status OptimizeFusedGraph(ge::ComputeGraph& graph) override {
    return Record(graph, "OptimizeFusedGraph");
  }
  ge::Status OptimizeWholeGraph(ge::ComputeGraph& graph) override {
    bool fail = false;
    if (ge::AttrUtils::GetBool(graph, "test_engine_fail_whole_graph", fail) && fail) {
      return ge::Failed("the test optimizer was asked to fail");
    }
    return Record(graph, "OptimizeWholeGraph");
  }
  ge::Status GetAttributes(ge::GraphOptimizerAttribute& attrs) const override {
    attrs.engineName = kEngineName;
    attrs.scope = ge::ENGINE;
    return ge::Status::Ok();
  }

 private:
  static ge::Status Record(ge::ComputeGraph& graph, const std::string& hook) {
    std::vector<std::string> hooks;
    (void)ge::AttrUtils::GetListStr(graph, "test_engine_hooks", hooks);
    hooks.push_back(hook);
    ge::AttrUtils::SetListStr(graph, "test_engine_hooks", hooks);
    return ge::Status::Ok();
  }
};

class TestBuilder final : public ge::OpsKernelBuilder {
 public:
  ge::Status CalcOpRunningParam(ge::Node& node) override {
    for (const ge::GeTensorDescPtr& output : node.GetOpDesc()->GetAllOutputsDescPtr()) {
      output->SetSize(ge::TensorUtils::CalcTensorMemSize(*output));
    }
    return ge::Status::Ok();
  }
  ge::Status GenerateTask(const ge::Node& node, ge::RunContext& context,
                          std::vector<ge::TaskDef>& tasks) override {
    ge::TaskDef task;
    task.kernel_name = node.GetType();
    task.engine = kEngineName;
    task.op_name = node.GetName();
    task.op_id = node.GetOpDesc()->GetId();
    task.stream_id = context.stream_id;
    task.args["outputs"] = std::to_string(node.GetOpDesc()->GetOutputsSize());
    tasks.push_back(std::move(task));
    return ge::Status::Ok();
  }
};

struct Engine {
  std::shared_ptr<ge::OpsKernelInfoStore> store = std::make_shared<TestStore>();
  std::shared_ptr<ge::GraphOptimizer> optimizer = std::make_shared<TestOptimizer>();
  std::shared_ptr<ge::OpsKernelBuilder> builder = std::make_shared<TestBuilder>();
};
Engine* g_engine = nullptr;

}  // namespace

ge::Status Initialize(const std::map<std::string, std::string>& options) {
#ifdef TEST_ENGINE_INIT_FAILS
  (void)options;
  return ge::Failed("the test engine refuses to start (built with TEST_ENGINE_INIT_FAILS)");
#else
  const auto fail = options.find("test.engine.failInitialize");
  if (fail != options.end() && fail->second == "1") {
    return ge::ParamInvalid("option test.engine.failInitialize=1");
  }
  delete g_engine;
  g_engine = new Engine();
  return ge::Status::Ok();
#endif
}

void GetOpsKernelInfoStores(std::map<std::string, ge::OpsKernelInfoStorePtr>& stores) {
  if (g_engine != nullptr) stores[kKernelLib] = g_engine->store;
}

#ifndef TEST_ENGINE_OMIT_OPTIMIZERS
void GetGraphOptimizerObjs(std::map<std::string, ge::GraphOptimizerPtr>& optimizers) {
  if (g_engine != nullptr) optimizers["test_engine_optimizer"] = g_engine->optimizer;
}
#endif

void GetOpsKernelBuilderObjs(std::map<std::string, ge::OpsKernelBuilderPtr>& builders) {
  if (g_engine != nullptr) builders[kKernelLib] = g_engine->builder;
}

ge::Status Finalize() {
  delete g_engine;
  g_engine = nullptr;
  return ge::Status::Ok();
}
