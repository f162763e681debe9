// GE's stack operators at run time, on the runtime's DataFlowResource: Stack makes a stack and
// writes its handle (an int64 in its DT_RESOURCE output); StackPush copies its element onto the
// stack and forwards it; StackPop takes the top element off, its shape known only then (GE's
// DEPEND_COMPUTE: the runtime asks MaxOutputDims first); StackClose ends the stack.
#include <cstring>

#include "ge/graph/utils/attr_utils.h"
#include "ge_local_task_executor.h"

namespace ge::ge_local {
namespace {

int64_t Bytes(const RuntimeTensor& t) {
  int64_t elements = 1;
  for (int64_t d : t.dims) elements *= d;
  return TypeUtils::GetSizeInBytes(elements, t.dtype);
}

Result<int64_t> HandleOf(const std::vector<RuntimeTensor>& inputs, const std::string& who) {
  if (inputs.empty() || inputs[0].data == nullptr) {
    return ParamInvalid(who + ": its handle input is not linked");
  }
  if (Bytes(inputs[0]) < static_cast<int64_t>(sizeof(int64_t))) {
    return ParamInvalid(who + ": its handle input holds no stack handle");
  }
  int64_t handle = 0;
  std::memcpy(&handle, inputs[0].data, sizeof(handle));
  return handle;
}

class StackKernel final : public TaskKernel {
 public:
  StackKernel(std::string kernel, std::string who, DataType dtype, DataFlowResource* stacks)
      : kernel_(std::move(kernel)), who_(std::move(who)), dtype_(dtype), stacks_(stacks) {}

  Status Run(const std::vector<RuntimeTensor>& inputs, const std::vector<RuntimeTensor>& outputs,
             void* /*workspace*/) override {
    if (kernel_ == "Stack") return MakeStack(inputs, outputs);
    GE_ASSIGN_OR_RETURN(const int64_t handle, HandleOf(inputs, who_));
    if (kernel_ == "StackClose") return stacks_->Close(handle, who_);
    if (outputs.empty() || outputs[0].data == nullptr) {
      return InternalError(who_ + ": the runtime gave no buffer for its output");
    }
    if (kernel_ == "StackPush") {
      if (inputs.size() < 2 || inputs[1].data == nullptr) {
        return ParamInvalid(who_ + ": its element input is not linked");
      }
      const RuntimeTensor& element = inputs[1];
      const int64_t bytes = Bytes(element);
      if (bytes < 0) return ParamInvalid(who_ + ": its element has no size");
      GeTensor copy(GeTensorDesc(GeShape(element.dims), FORMAT_ND, element.dtype),
                    static_cast<const uint8_t*>(element.data), static_cast<size_t>(bytes));
      GE_RETURN_IF_ERROR(stacks_->Push(handle, copy, who_));
      if (bytes > 0 && outputs[0].data != element.data) {
        std::memcpy(outputs[0].data, element.data, static_cast<size_t>(bytes));
      }
      return Status::Ok();
    }
    // StackPop
    GE_ASSIGN_OR_RETURN(GeTensor top, stacks_->Pop(handle, who_));
    if (top.GetTensorDesc().GetDataType() != outputs[0].dtype) {
      return ParamInvalid(who_ + ": the element is " +
                          TypeUtils::DataTypeToSerialString(top.GetTensorDesc().GetDataType()) +
                          ", its elem_type " + TypeUtils::DataTypeToSerialString(outputs[0].dtype));
    }
    if (static_cast<int64_t>(top.GetData().size()) > Bytes(outputs[0])) {
      return InternalError(who_ + ": the runtime's buffer is smaller than the popped element");
    }
    std::memcpy(outputs[0].data, top.GetData().data(), top.GetData().size());
    popped_dims_ = top.GetTensorDesc().GetShape().GetDims();
    return Status::Ok();
  }

  bool OutputDimsDependOnData(size_t index) const override {
    return kernel_ == "StackPop" && index == 0;
  }
  std::vector<int64_t> MaxOutputDims(size_t /*index*/,
                                     const std::vector<RuntimeTensor>& inputs) const override {
    auto handle = HandleOf(inputs, who_);
    if (!handle.ok()) return {0};
    auto dims = stacks_->TopDims(*handle, who_);
    return dims.ok() ? *dims : std::vector<int64_t>{0};  // Run then reports the cause
  }
  std::vector<int64_t> ActualOutputDims(size_t /*index*/) const override { return popped_dims_; }

 private:
  Status MakeStack(const std::vector<RuntimeTensor>& inputs,
                   const std::vector<RuntimeTensor>& outputs) {
    int64_t max_size = 0;
    if (!inputs.empty() && inputs[0].data != nullptr) {
      if (inputs[0].dtype != DT_INT32 || Bytes(inputs[0]) != sizeof(int32_t)) {
        return ParamInvalid(who_ + ": max_size must be an int32 scalar");
      }
      int32_t given = 0;
      std::memcpy(&given, inputs[0].data, sizeof(given));
      max_size = given;
    }
    if (outputs.empty() || outputs[0].data == nullptr ||
        Bytes(outputs[0]) < static_cast<int64_t>(sizeof(int64_t))) {
      return InternalError(who_ + ": its handle output has no room for the handle");
    }
    GE_ASSIGN_OR_RETURN(const int64_t handle, stacks_->CreateStack(dtype_, max_size, who_));
    std::memcpy(outputs[0].data, &handle, sizeof(handle));
    return Status::Ok();
  }

  std::string kernel_;
  std::string who_;
  DataType dtype_;
  DataFlowResource* stacks_;
  std::vector<int64_t> popped_dims_;
};

}  // namespace

Result<std::unique_ptr<TaskKernel>> MakeStackKernel(const std::string& kernel, const Node& node,
                                                    const TaskLoadContext& context) {
  const std::string who = "node '" + node.GetName() + "' (type " + node.GetType() + ")";
  if (context.data_flow == nullptr) {
    return InternalError(who + ": the runtime gave no data-flow resource for its stack");
  }
  DataType dtype = DT_UNDEFINED;
  if (kernel == "Stack") {
    if (!AttrUtils::GetDataType(node.GetOpDescBarePtr(), "dtype", dtype) || dtype == DT_UNDEFINED) {
      return ParamInvalid(who + ": attribute 'dtype' (the elements' type) is missing");
    }
  }
  return std::unique_ptr<TaskKernel>(
      std::make_unique<StackKernel>(kernel, who, dtype, context.data_flow));
}

}  // namespace ge::ge_local
