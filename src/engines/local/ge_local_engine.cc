// The GE Local engine plugin (DNN_VM_GE_LOCAL): its C entry points and the objects they hand out.
#include <memory>

#include "ge/engine/engine_plugin.h"
#include "ge_local_constants.h"
#include "ge_local_graph_optimizer.h"
#include "ge_local_ops.h"
#include "ge_local_ops_kernel_builder.h"
#include "ge_local_ops_kernel_info_store.h"
#include "ge_local_task_executor.h"
#include "ge_local_traits.h"

namespace ge::ge_local {
namespace {

/// What Initialize creates and Finalize releases.
struct Engine {
  std::shared_ptr<OpsKernelInfoStore> store;
  std::shared_ptr<GraphOptimizer> optimizer;
  std::shared_ptr<OpsKernelBuilder> builder;
  std::shared_ptr<TaskExecutor> executor;
};

// Plain pointer rather than a global object with a constructor: nothing runs at load time.
Engine* g_engine = nullptr;

}  // namespace
}  // namespace ge::ge_local

using ge::ge_local::g_engine;

void SetOpTraitsLookup(ge::OpTraitsLookup lookup) {
  ge::ge_local::SetTraitsLookup(std::move(lookup));
}

ge::Status Initialize(const std::map<std::string, std::string>& options) {
  using namespace ge::ge_local;
  auto factory = std::make_shared<OpFactory>();
  GE_RETURN_IF_ERROR(RegisterGeLocalOps(*factory));
  auto engine = std::make_unique<Engine>();
  engine->store = std::make_shared<GeLocalOpsKernelInfoStore>(factory);
  engine->optimizer = std::make_shared<GeLocalGraphOptimizer>();
  engine->builder = std::make_shared<GeLocalOpsKernelBuilder>(factory);
  engine->executor = std::make_shared<GeLocalTaskExecutor>();
  GE_RETURN_IF_ERROR(engine->store->Initialize(options));
  GE_RETURN_IF_ERROR(engine->optimizer->Initialize(options));
  GE_RETURN_IF_ERROR(engine->builder->Initialize(options));
  delete g_engine;  // a second Initialize replaces the objects; earlier holders keep theirs
  g_engine = engine.release();
  return ge::Status::Ok();
}

void GetOpsKernelInfoStores(std::map<std::string, ge::OpsKernelInfoStorePtr>& stores) {
  if (g_engine != nullptr) stores[ge::ge_local::kOpsKernelLibName] = g_engine->store;
}

void GetGraphOptimizerObjs(std::map<std::string, ge::GraphOptimizerPtr>& optimizers) {
  if (g_engine != nullptr) optimizers[ge::ge_local::kGraphOptimizerName] = g_engine->optimizer;
}

void GetOpsKernelBuilderObjs(std::map<std::string, ge::OpsKernelBuilderPtr>& builders) {
  if (g_engine != nullptr) builders[ge::ge_local::kOpsKernelLibName] = g_engine->builder;
}

void GetTaskExecutorObjs(std::map<std::string, ge::TaskExecutorPtr>& executors) {
  if (g_engine != nullptr) executors[ge::ge_local::kOpsKernelLibName] = g_engine->executor;
}

ge::Status Finalize() {
  if (g_engine == nullptr) return ge::Status::Ok();
  ge::Status status = g_engine->store->Finalize();
  ge::Status optimizer_status = g_engine->optimizer->Finalize();
  ge::Status builder_status = g_engine->builder->Finalize();
  delete g_engine;
  g_engine = nullptr;
  if (!status.ok()) return status;
  if (!optimizer_status.ok()) return optimizer_status;
  return builder_status;
}
