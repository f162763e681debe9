// DataFlowResource: the stacks of GE's data-flow operators (Stack, StackPush, StackPop,
// StackClose), owned by the runtime of a loaded model and reached by the engine that runs those
// operators through TaskLoadContext. A stack is named by a handle, the int64 that its Stack node
// writes into its DT_RESOURCE output; it lives until StackClose (or the model) ends it. Every
// method is safe to call from concurrent runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

class GE_API DataFlowResource {
 public:
  virtual ~DataFlowResource() = default;
  /// A new empty stack of elements of `dtype`, holding at most `max_size` (no bound when <= 0).
  /// `who` names the node for messages.
  virtual Result<int64_t> CreateStack(DataType dtype, int64_t max_size, const std::string& who) = 0;
  /// Pushes a copy of `element`.
  virtual Status Push(int64_t handle, const GeTensor& element, const std::string& who) = 0;
  /// The dims of the top element, or an error when the stack is empty or unknown.
  virtual Result<std::vector<int64_t>> TopDims(int64_t handle, const std::string& who) const = 0;
  /// Removes the top element and gives it.
  virtual Result<GeTensor> Pop(int64_t handle, const std::string& who) = 0;
  /// Ends the stack; its elements are freed.
  virtual Status Close(int64_t handle, const std::string& who) = 0;
};

}  // namespace ge
