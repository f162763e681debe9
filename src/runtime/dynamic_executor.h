// DynamicExecutor: runs a graph whose shapes are known only at run time (GE's hybrid execution,
// simplified). Each run infers every node's output shapes from the actual input shapes and values
// (the prototypes' infer functions, through OpRegistry), allocates each output when it is made
// and frees it after its last reader, and prepares a task's kernel for the input shapes it sees,
// keeping the last preparation until the shapes change. GE Local's operators, which have no task,
// run here: views (Reshape, Squeeze, Identity, ...) alias their input; Shape, Size, Rank and the
// other host-computable ones use the compiler's host kernels. Control flow (If, Case, While,
// PartitionedCall) runs its subgraphs through nested executors of the same kind.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "buffer_pool.h"
#include "ge/engine/engine_manager.h"
#include "ge/engine/task.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/runtime/loaded_model.h"

namespace ge::runtime_internal {

class DynamicExecutor {
 public:
  /// Prepares `graph` (the executor keeps it and writes run-time shapes into its descs) with the
  /// tasks generated for it and its subgraphs (by graph name). Kernels of nodes whose shapes are
  /// all known are prepared now. If, Case, While and PartitionedCall run their subgraphs. No
  /// tensor or workspace of a run may take more than `max_tensor_bytes`.
  static Result<std::unique_ptr<DynamicExecutor>> Create(
      ComputeGraphPtr graph, const std::map<std::string, std::vector<TaskDef>>& tasks,
      const EngineManager& engines, int threads, int64_t max_tensor_bytes,
      DataFlowResource* data_flow, const std::map<std::string, GeTensor>* variables);
  ~DynamicExecutor();
  DynamicExecutor(const DynamicExecutor&) = delete;
  DynamicExecutor& operator=(const DynamicExecutor&) = delete;

  /// Inputs and outputs with the compiled dims (-1 where known only at run time).
  const std::vector<IoInfo>& inputs() const;
  const std::vector<IoInfo>& outputs() const;

  /// The buffers its runs took from the system and reused, and the free ones it holds.
  BufferPool::Stats BufferStats() const;

  /// Kernels prepared so far and kernels found prepared for a run's shapes, subgraphs included.
  void KernelStats(int64_t* prepared, int64_t* reused) const;

  /// Runs on `inputs` (in the order of inputs()); fills `profile` when it is not null.
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs,
                                    std::vector<TaskTiming>* profile);

 private:
  DynamicExecutor();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// `status` of a node's run, prefixed "running node '<name>' (<type>)<where>: ". A kernel's own
/// message already starts with "node '<name>' (<type>)": that part is not said twice.
Status RunningNode(Status status, const std::string& name, const std::string& type,
                   const std::string& where = "");

/// True when the model needs the dynamic executor: an input or a planned tensor whose shape is
/// known only at run time.
bool NeedsDynamicExecution(const ComputeGraph& graph);

/// A graph input as the caller sees it, from its Data node: name, dtype, dims and the default
/// value it may carry (kAttrDefaultValue), checked to have the input's dtype and to fit its dims.
Result<IoInfo> GraphInputInfo(const Node& data);

/// Output `index` (counting the graph's outputs) as the caller sees it, from the desc of the
/// output that produces it (`desc`: dtype, dims and dim names) and the NetOutput's desc of that
/// input (`named`), whose name is the model's name of the output: a pass that removes the node
/// producing it (an Identity, as tf2onnx and Keras exports end) keeps the name there. Either name
/// when the other is empty, else "output_<index>".
IoInfo GraphOutputInfo(const GeTensorDesc& desc, const GeTensorDesc& named, size_t index);

}  // namespace ge::runtime_internal
