// The dynamic executor's internals shared by its files: a run's Values, the per-node state and
// the per-graph executor (dynamic_build.cc builds graphs' executors, dynamic_executor.cc runs
// them; dynamic_control_flow.cc runs If/Case/While/PartitionedCall and ONNX Loop/Scan through
// nested GraphExecs).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "buffer_pool.h"
#include "dynamic_executor.h"
#include "ge/engine/engine_manager.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/node.h"

namespace ge::runtime_internal::dynamic {

inline constexpr size_t kAlignment = 64;

std::string Who(const Node& node);

inline bool IsStatic(const GeShape& shape) {
  return !shape.IsUnknownDimNum() && !shape.IsUnknownShape();
}

struct Composite;

/// One tensor during a run. `data` keeps its buffer alive; views share it. A sequence or an
/// optional (DT_VARIANT, dims {}) is `composite`, the values it holds; its `data` is a placeholder.
struct Value {
  std::shared_ptr<const uint8_t> data;
  DataType dtype = DT_UNDEFINED;
  std::vector<int64_t> dims;
  int64_t bytes = 0;
  bool run_owned = false;  ///< made by this run (outputs can share it instead of copying it)
  std::shared_ptr<const Composite> composite;
};

/// What a sequence or an optional holds (an optional: at most one item). Immutable: operators
/// make new ones, sharing the items' buffers.
struct Composite {
  ValueType::Kind kind = ValueType::Kind::kSequence;
  std::vector<Value> items;
};

/// A scalar of `dtype` (int64 or bool) holding `v`, made by the run: a loop counter, a sequence's
/// length, whether an optional holds a value.
Result<Value> MakeScalar(DataType dtype, int64_t v);

/// A DT_VARIANT Value holding `composite`.
Value CompositeValueOf(Composite composite);

/// True for the ONNX sequence and optional operators, which the executor runs itself.
bool IsCompositeOp(const std::string& type);
/// A buffer of at least one aligned line (so an empty tensor still has a non-null address).
Result<std::shared_ptr<uint8_t>> AllocateBuffer(int64_t bytes, const std::string& what);
/// The same, refused with both sizes when `bytes` is over `limit`
/// (RuntimeOptions::max_memory_bytes).
Result<std::shared_ptr<uint8_t>> AllocateBuffer(int64_t bytes, int64_t limit,
                                                const std::string& what);

enum class Kind {
  kData,
  kConst,
  kVariable,  ///< a Variable: its bytes are the model's, kept across runs (not a constant)
  kNetOutput,
  kTask,
  kView,
  kIdentity,
  kNothing,
  kIf,
  kCase,
  kWhile,
  kCall,
  kLoop,
  kScan,
  kFor,
  kSequenceMap,
  kComposite  ///< a sequence or optional operator (RunComposite)
};

/// Whether the node runs through RunControlFlow (its subgraphs), not a task or a value.
inline bool IsControlFlow(Kind kind) {
  switch (kind) {
    case Kind::kIf:
    case Kind::kCase:
    case Kind::kWhile:
    case Kind::kCall:
    case Kind::kLoop:
    case Kind::kScan:
    case Kind::kFor:
    case Kind::kSequenceMap:
      return true;
    default:
      return false;
  }
}

struct InputRef {
  int producer = -1;  ///< index into the executor's nodes; -1: absent optional input
  int output = 0;
};

struct GraphExec;

struct NodeExec {
  NodeExec();
  NodeExec(NodeExec&&) noexcept;
  NodeExec& operator=(NodeExec&&) = delete;
  ~NodeExec();

  NodePtr node;
  Kind kind = Kind::kNothing;
  int64_t data_index = 0;
  std::vector<InputRef> inputs;
  std::vector<int> uses;  ///< per output: data edges reading it (NetOutput's included)
  GeTensor const_value;   ///< kConst; kVariable: shares the model's bytes of the variable
  /// kConst of DT_STRING: its running heads (string_tensor.h), pointing into const_value.
  std::vector<StringHead> const_heads;
  int updates_input = -1;  ///< kTask: output 0 is this input's memory (Assign)
  const TaskDef* task = nullptr;
  TaskExecutor* executor = nullptr;
  std::vector<const GeTensor*> const_inputs;  ///< per input: the Const value feeding it
  /// Control flow: the executors of the node's subgraphs, in the order of its subgraph names.
  std::vector<std::unique_ptr<GraphExec>> subgraphs;
  std::vector<std::vector<int64_t>> parent_index;  ///< per subgraph, per input: the parent input
  // Kernels prepared for the input shapes seen, most recent first (at most kKernelCacheSize):
  // a shape that comes back finds its primitives made (fused kernels included).
  struct Prepared {
    std::string signature;
    std::unique_ptr<TaskKernel> kernel;
    std::shared_ptr<uint8_t> workspace;
  };
  std::vector<Prepared> prepared;
};

/// Input shapes whose prepared kernels a node keeps: each holds its primitives and, for a
/// convolution or matmul, its packed weights, so the bound trades memory for re-preparation.
constexpr size_t kKernelCacheSize = 4;
using Clock = std::chrono::steady_clock;
using TaskMap = std::map<std::string, std::vector<TaskDef>>;

/// One graph (the root or a subgraph) ready to run on Values.
struct GraphExec {
  ComputeGraphPtr graph;
  int threads = 1;
  int64_t max_tensor_bytes = 0;           ///< RuntimeOptions::max_memory_bytes, resolved (> 0)
  DataFlowResource* data_flow = nullptr;  ///< the model's stacks
  /// The run context's strings (one store shared by the root and its subgraphs).
  StringStore* strings = nullptr;
  /// Where the tensors its tasks make come from (shared likewise; null: the allocator's).
  BufferPool* pool = nullptr;
  /// The model's variables by node name (their bytes shared by every run context).
  const std::map<std::string, GeTensor>* variables = nullptr;
  std::vector<NodeExec> nodes;
  std::vector<IoInfo> inputs;
  std::vector<IoInfo> outputs;
  std::vector<int64_t> parent_index;  ///< per input: _parent_node_index (subgraphs), else -1
  int net_output = -1;

  Status Build(const TaskMap& tasks, const EngineManager& engines);
  Status Load(NodeExec& exec, const std::string& signature);
  /// Kernels prepared and prepared kernels found again, here and in nested subgraphs.
  int64_t kernel_loads = 0;
  int64_t cache_hits = 0;
  void AddKernelStats(int64_t& loads, int64_t& hits) const {
    loads += kernel_loads;
    hits += cache_hits;
    for (const NodeExec& n : nodes) {
      for (const auto& sub : n.subgraphs) sub->AddKernelStats(loads, hits);
    }
  }
  Status BindInput(size_t index, const GeTensor& tensor, Value& out) const;
  /// Runs on `inputs` (by Data index) and gives NetOutput's inputs.
  Status RunValues(const std::vector<Value>& inputs, std::vector<Value>& results,
                   std::vector<TaskTiming>* profile, Clock::time_point run_start);
  Status Execute(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                 std::vector<TaskTiming>* profile, Clock::time_point run_start);
  Status RunControlFlow(NodeExec& exec, const std::vector<const Value*>& ins,
                        std::vector<Value>& outs, std::vector<TaskTiming>* profile,
                        Clock::time_point run_start);
  /// Runs a subgraph with its inputs taken from `from` (indexed like the parent's inputs).
  using SubgraphRunner =
      std::function<Status(GraphExec&, const std::vector<const Value*>&, std::vector<Value>&)>;
  Status RunFor(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                const SubgraphRunner& run);
  Status RunLoop(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                 const SubgraphRunner& run);
  Status RunScan(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                 const SubgraphRunner& run);
  Status RunSequenceMap(NodeExec& exec, const std::vector<const Value*>& ins,
                        std::vector<Value>& outs, const SubgraphRunner& run);
  /// Runs a sequence or optional operator (dynamic_composite.cc).
  Status RunComposite(NodeExec& exec, const std::vector<const Value*>& ins,
                      std::vector<Value>& outs) const;
  Status SplitToSequence(const OpDesc& op, const std::vector<const Value*>& ins, Value& out) const;
  Status ConcatFromSequence(const OpDesc& op, const std::vector<const Value*>& ins,
                            Value& out) const;
  Status ZipMap(const OpDesc& op, const std::vector<const Value*>& ins, Value& out) const;
  /// A caller's stored sequence or optional (composite_value.h) as a Value; its strings are bound
  /// in the run's store.
  Result<Value> BindComposite(const GeTensor& stored, const std::string& where) const;
};

/// The stored form of a run's Value (a tensor's bytes copied, strings and composites stored).
GeTensor StoreValue(const Value& value);

}  // namespace ge::runtime_internal::dynamic
