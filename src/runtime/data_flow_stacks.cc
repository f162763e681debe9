#include "data_flow_stacks.h"

namespace ge::runtime_internal {

Result<DataFlowStacks::Stack*> DataFlowStacks::Find(int64_t handle, const std::string& who) const {
  auto it = stacks_.find(handle);
  if (it == stacks_.end()) {
    return ParamInvalid(who + ": stack handle " + std::to_string(handle) +
                        " names no open stack (never made by a Stack node, or closed)");
  }
  return &it->second;
}

Result<int64_t> DataFlowStacks::CreateStack(DataType dtype, int64_t max_size,
                                            const std::string& who) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stacks_.size() >= kMaxOpenStacks) {
    return ParamInvalid(who + ": " + std::to_string(kMaxOpenStacks) +
                        " stacks are open already; close them with StackClose");
  }
  const int64_t handle = next_handle_++;
  stacks_[handle] = Stack{dtype, max_size, {}};
  return handle;
}

Status DataFlowStacks::Push(int64_t handle, const GeTensor& element, const std::string& who) {
  std::lock_guard<std::mutex> lock(mutex_);
  GE_ASSIGN_OR_RETURN(Stack * found, Find(handle, who));
  Stack& stack = *found;
  const DataType dtype = element.GetTensorDesc().GetDataType();
  if (dtype != stack.dtype) {
    return ParamInvalid(who + ": the element is " + TypeUtils::DataTypeToSerialString(dtype) +
                        ", the stack holds " + TypeUtils::DataTypeToSerialString(stack.dtype));
  }
  if (stack.max_size > 0 && static_cast<int64_t>(stack.elements.size()) >= stack.max_size) {
    return ParamInvalid(who + ": the stack is full (max_size " + std::to_string(stack.max_size) +
                        ")");
  }
  stack.elements.emplace_back(element.GetTensorDesc(), element.GetData().data(),
                              element.GetData().size());
  return Status::Ok();
}

Result<std::vector<int64_t>> DataFlowStacks::TopDims(int64_t handle, const std::string& who) const {
  std::lock_guard<std::mutex> lock(mutex_);
  GE_ASSIGN_OR_RETURN(const Stack* stack, Find(handle, who));
  if (stack->elements.empty()) return ParamInvalid(who + ": the stack is empty");
  return stack->elements.back().GetTensorDesc().GetShape().GetDims();
}

Result<GeTensor> DataFlowStacks::Pop(int64_t handle, const std::string& who) {
  std::lock_guard<std::mutex> lock(mutex_);
  GE_ASSIGN_OR_RETURN(Stack * found, Find(handle, who));
  Stack& stack = *found;
  if (stack.elements.empty()) return ParamInvalid(who + ": the stack is empty");
  GeTensor top = std::move(stack.elements.back());
  stack.elements.pop_back();
  return top;
}

Status DataFlowStacks::Close(int64_t handle, const std::string& who) {
  std::lock_guard<std::mutex> lock(mutex_);
  GE_RETURN_IF_ERROR(Find(handle, who).status());
  stacks_.erase(handle);
  return Status::Ok();
}

}  // namespace ge::runtime_internal
