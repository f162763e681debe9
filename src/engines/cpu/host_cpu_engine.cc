// The CPU compute engine (DNN_VM_HOST_CPU): it takes every operator it has a kernel for that GE
// Local does not take (placement asks GE Local first), sizes outputs for the memory planner,
// generates one task per node naming the kernel and its memory, and runs those tasks through
// its TaskExecutor (kernels/ holds the kernels).
#include <memory>
#include <set>
#include <utility>

#include "cpu_options.h"
#include "cpu_traits.h"
#include "ge/engine/engine_plugin.h"
#include "ge/engine/ops_kernel_builder.h"
#include "ge/engine/ops_kernel_info_store.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/fused_ops.h"
#include "ge/ops/op_traits.h"
#include "host_cpu_executor.h"
#include "kernels/cpu_kernel.h"
#include "layout_planner.h"
#include "op_work.h"
#include "weight_packer.h"

namespace ge::host_cpu {
namespace {

constexpr char kEngineName[] = "DNN_VM_HOST_CPU";
constexpr char kOpsKernelLibName[] = "DNN_VM_HOST_CPU_OP_STORE";
constexpr char kAttrNoTask[] = "_no_task";
constexpr char kAttrUnknownShape[] = "_unknown_shape";

// Operators this engine never takes: graph structure and control flow belong elsewhere.
bool IsStructural(const std::string& type) {
  static const std::set<std::string> kTypes = {
      "If", "Case", "While", "Loop", "Scan", "PartitionedCall", "StatefulPartitionedCall"};
  return kTypes.count(type) != 0;
}

class HostCpuOpsKernelInfoStore final : public OpsKernelInfoStore {
 public:
  void GetAllOpsKernelInfo(std::map<std::string, OpInfo>& infos) const override { infos.clear(); }
  bool CheckSupported(const OpDescPtr& op_desc, std::string& reason) const override {
    if (op_desc == nullptr) {
      reason = "no OpDesc given";
      return false;
    }
    if (IsStructural(op_desc->GetType())) {
      reason = op_desc->GetType() + " is control flow, which the CPU engine does not run";
      return false;
    }
    std::vector<std::string> fused;
    if (AttrUtils::GetListStr(op_desc, kAttrFusedPostOps, fused) && !fused.empty()) {
      return host_cpu::SupportsFusedPostOps(op_desc->GetType(), fused, reason);
    }
    if (op_desc->GetType() == "NetOutput" || HasKernel(op_desc->GetType())) return true;
    reason = "the CPU engine has no kernel for " + op_desc->GetType();
    return false;
  }
  std::optional<OpWork> WorkOf(const OpDesc& op) const override { return host_cpu::WorkOfNode(op); }
};

class HostCpuOpsKernelBuilder final : public OpsKernelBuilder {
 public:
  Status CalcOpRunningParam(Node& node) override {
    OpDesc& op = *node.GetOpDescBarePtr();
    bool unknown = false;
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      GeTensorDescPtr out = op.MutableOutputDesc(static_cast<uint32_t>(i));
      const int64_t size = TensorUtils::CalcTensorMemSize(*out);
      if (size < 0) {
        unknown = true;
        out->SetSize(0);
        continue;
      }
      out->SetSize(size);
    }
    if (unknown) AttrUtils::SetBool(op, kAttrUnknownShape, true);
    if (op.GetType() == "NetOutput") AttrUtils::SetBool(op, kAttrNoTask, true);
    // An op that writes its input (Assign) writes it in place: its output is that memory.
    const int updated = TraitsOf(op.GetType()).updates_input;
    if (updated >= 0 && op.GetOutputsSize() > 0) {
      GeTensorDescPtr out = op.MutableOutputDesc(0);
      out->SetReuseInput(true);
      out->SetReuseInputIndex(static_cast<uint32_t>(updated));
    }
    return Status::Ok();
  }

  Status GenerateTask(const Node& node, RunContext& context, std::vector<TaskDef>& tasks) override {
    const OpDesc& op = *node.GetOpDescBarePtr();
    bool no_task = false;
    if (AttrUtils::GetBool(op, kAttrNoTask, no_task) && no_task) return Status::Ok();
    TaskDef task;
    task.kernel_name = op.GetType();
    task.engine = kEngineName;
    task.op_name = op.GetName();
    task.op_id = op.GetId();
    task.stream_id = context.stream_id;
    // No arguments: the executor reads the node's offsets, workspaces and shapes itself.
    tasks.push_back(std::move(task));
    return Status::Ok();
  }
};

struct Engine {
  std::shared_ptr<OpsKernelInfoStore> store = std::make_shared<HostCpuOpsKernelInfoStore>();
  std::shared_ptr<OpsKernelBuilder> builder = std::make_shared<HostCpuOpsKernelBuilder>();
  std::shared_ptr<TaskExecutor> executor = std::make_shared<HostCpuTaskExecutor>();
  std::shared_ptr<GraphOptimizer> layout = std::make_shared<LayoutPlanner>();
  std::shared_ptr<GraphOptimizer> weights = std::make_shared<WeightPacker>();
};

Engine* g_engine = nullptr;

}  // namespace
}  // namespace ge::host_cpu

using ge::host_cpu::g_engine;

void SetOpTraitsLookup(ge::OpTraitsLookup lookup) {
  ge::host_cpu::SetTraitsLookup(std::move(lookup));
}

void GetEngineOptions(std::vector<ge::EngineOptionDef>& options) {
  for (ge::EngineOptionDef& def : ge::host_cpu::CpuEngineOptions())
    options.push_back(std::move(def));
}

ge::Status Initialize(const std::map<std::string, std::string>& options) {
  auto engine = std::make_unique<ge::host_cpu::Engine>();
  GE_RETURN_IF_ERROR(engine->store->Initialize(options));
  GE_RETURN_IF_ERROR(engine->builder->Initialize(options));
  GE_RETURN_IF_ERROR(engine->layout->Initialize(options));
  GE_RETURN_IF_ERROR(engine->weights->Initialize(options));
  delete g_engine;
  g_engine = engine.release();
  return ge::Status::Ok();
}

void GetOpsKernelInfoStores(std::map<std::string, ge::OpsKernelInfoStorePtr>& stores) {
  if (g_engine != nullptr) stores[ge::host_cpu::kOpsKernelLibName] = g_engine->store;
}

void GetGraphOptimizerObjs(std::map<std::string, ge::GraphOptimizerPtr>& optimizers) {
  if (g_engine == nullptr) return;
  optimizers["DNN_VM_HOST_CPU_LAYOUT"] = g_engine->layout;
  optimizers["DNN_VM_HOST_CPU_WEIGHTS"] = g_engine->weights;
}

void GetOpsKernelBuilderObjs(std::map<std::string, ge::OpsKernelBuilderPtr>& builders) {
  if (g_engine != nullptr) builders[ge::host_cpu::kOpsKernelLibName] = g_engine->builder;
}

void GetTaskExecutorObjs(std::map<std::string, ge::TaskExecutorPtr>& executors) {
  if (g_engine != nullptr) executors[ge::host_cpu::kOpsKernelLibName] = g_engine->executor;
}

ge::Status Finalize() {
  if (g_engine == nullptr) return ge::Status::Ok();
  ge::Status status = g_engine->store->Finalize();
  ge::Status builder_status = g_engine->builder->Finalize();
  delete g_engine;
  g_engine = nullptr;
  return status.ok() ? builder_status : status;
}
