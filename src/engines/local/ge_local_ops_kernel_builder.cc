// GeLocalOpsKernelBuilder: CalcOpRunningParam with GE's special cases, and GenerateTask.
#include "ge_local_ops_kernel_builder.h"

#include <array>
#include <limits>
#include <string>
#include <string_view>

#include "continuous_offsets.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge_local_constants.h"
#include "ge_local_task_executor.h"
#include "ge_local_traits.h"

namespace ge::ge_local {
namespace {

bool IsOneOf(const std::string& type, std::initializer_list<std::string_view> types) {
  for (std::string_view candidate : types) {
    if (type == candidate) return true;
  }
  return false;
}

// Output 0 of views (the prototype's ViewOf trait) is input 0 under another shape. GE's list has
// no Reshape: GE deletes static Reshapes in a pass (ReshapeRemovePass) and lets the consumers read
// the input under the new shape; here Reshape stays in the graph (dumps keep it) and its output
// aliases its input like the other views, which needs no task either.
bool IsReuseInputType(const std::string& type) { return TraitsOf(type).view_of_input == 0; }

// A shape is unknown when a dim is UNKNOWN_DIM or the rank is unknown. Other negative dims are
// invalid, not unknown: such a node is sized, and refused for its negative size.
bool IsUnknownShape(const GeShape& shape) {
  for (int64_t dim : shape.GetDims()) {
    if (dim == UNKNOWN_DIM || dim == UNKNOWN_DIM_NUM) return true;
  }
  return false;
}

bool IsUnknownShapeNode(const OpDesc& op_desc) {
  for (size_t i = 0; i < op_desc.GetAllInputsSize(); ++i) {
    const GeTensorDesc* desc = op_desc.GetInputDescPtr(static_cast<uint32_t>(i));
    if (desc != nullptr && IsUnknownShape(desc->GetShape())) return true;
  }
  for (size_t i = 0; i < op_desc.GetOutputsSize(); ++i) {
    const GeTensorDesc* desc = op_desc.GetOutputDescPtr(static_cast<uint32_t>(i));
    if (desc != nullptr && IsUnknownShape(desc->GetShape())) return true;
  }
  return false;
}

std::string Who(const OpDesc& op_desc) {
  return "node '" + op_desc.GetName() + "' (type " + op_desc.GetType() + ")";
}

// The size of output `index` before any rounding, by node type.
Result<int64_t> RawOutputSize(const Node& node, const OpDesc& op_desc, size_t index,
                              const GeTensorDesc& desc) {
  const std::string& type = op_desc.GetType();
  if (IsOneOf(type, {kConst, kConstant}) && desc.GetDataType() == DT_STRING) {
    auto value = OpDescUtils::GetConstValue(node);
    if (!value.ok()) {
      return ParamInvalid(Who(op_desc) + ": output " + std::to_string(index) +
                          " is DT_STRING, so its size is that of the `" + kAttrValue +
                          "` tensor, which the node does not have; give the Const its value");
    }
    return static_cast<int64_t>(value->GetSize());
  }
  if (type == kFileConstant) {
    int64_t length = 0;
    if (!AttrUtils::GetInt(op_desc, kAttrLength, length)) {
      return ParamInvalid(Who(op_desc) + ": attribute `" + kAttrLength +
                          "` (the byte size of the file's data) is missing; set it");
    }
    return length;
  }
  return TensorUtils::CalcTensorMemSize(desc);
}

Result<int64_t> OutputSize(const Node& node, const OpDesc& op_desc, size_t index,
                           const GeTensorDesc& desc) {
  GE_ASSIGN_OR_RETURN(const int64_t raw, RawOutputSize(node, op_desc, index, desc));
  if (raw < 0) {
    return ParamInvalid(Who(op_desc) + ": output " + std::to_string(index) + " (" +
                        desc.ToString() + ") has a negative size (" + std::to_string(raw) +
                        "), which is not supported; give it a valid shape and data type");
  }
  const std::string& type = op_desc.GetType();
  if (IsOneOf(type, {kData, kRefData, kAippData, kAnnData})) {
    auto padded = TensorUtils::GetTensorSizeInBytesWithAutoPadding(desc);
    if (!padded.ok()) {
      return Status(padded.status()).Prefix(Who(op_desc) + ": output " + std::to_string(index));
    }
    return *padded;
  }
  if (IsOneOf(type, {kPhonyConcat, kPartitionedCall})) {
    if (raw > std::numeric_limits<int64_t>::max() - 2 * kAlignBytes) {
      return ParamInvalid(Who(op_desc) + ": output " + std::to_string(index) + " is too large");
    }
    return (raw + kAlignBytes - 1) / kAlignBytes * kAlignBytes + kAlignBytes;
  }
  return raw;
}

}  // namespace

GeLocalOpsKernelBuilder::GeLocalOpsKernelBuilder(std::shared_ptr<const OpFactory> factory)
    : factory_(std::move(factory)) {}

Status GeLocalOpsKernelBuilder::CalcOpRunningParam(Node& node) {
  const OpDescPtr op_desc = node.GetOpDesc();
  if (op_desc == nullptr) {
    return ParamInvalid("CalcOpRunningParam: node '" + node.GetName() + "' has no OpDesc");
  }
  if (IsUnknownShapeNode(*op_desc)) return Status::Ok();  // sized at run time

  for (size_t i = 0; i < op_desc->GetOutputsSize(); ++i) {
    const GeTensorDescPtr output = op_desc->MutableOutputDesc(static_cast<uint32_t>(i));
    if (output->GetSize() > 0 && output->GetDataType() != DT_STRING) continue;
    GE_ASSIGN_OR_RETURN(const int64_t size, OutputSize(node, *op_desc, i, *output));
    output->SetSize(size);
  }

  const std::string& type = op_desc->GetType();
  if (type == kPhonyConcat) return CalcPhonyConcatOffsets(node);
  if (type == kPhonySplit) return CalcPhonySplitOffsets(node);
  if (IsReuseInputType(type)) {
    if (op_desc->GetOutputsSize() == 0 || op_desc->GetAllInputsSize() == 0) {
      return ParamInvalid(Who(*op_desc) +
                          " needs an input and an output: its output 0 reuses input 0's memory");
    }
    const GeTensorDescPtr output = op_desc->MutableOutputDesc(0);
    output->SetReuseInput(true);
    output->SetReuseInputIndex(0);
  }
  return Status::Ok();
}

Status GeLocalOpsKernelBuilder::GenerateTask(const Node& node, RunContext& context,
                                             std::vector<TaskDef>& tasks) {
  const OpDescPtr op_desc = node.GetOpDesc();
  if (op_desc == nullptr) {
    return ParamInvalid("GenerateTask: node '" + node.GetName() + "' has no OpDesc");
  }
  if (op_desc->GetType() == kStackPop) {
    AttrUtils::SetInt(op_desc, kAttrUnknownShapeType, kDependCompute);
  }
  // Merge forwards data and the stack operators work on the runtime's stacks, so they run, known
  // shapes or not.
  const bool runs = IsRunTimeOpType(op_desc->GetType());
  if (runs || IsUnknownShapeNode(*op_desc)) {
    if (runs || IsShapeQueryType(op_desc->GetType())) {
      // The dims it reports are known only when it runs: GE Local's executor answers it.
      TaskDef task;
      task.kernel_name = op_desc->GetType();
      task.engine = kEngineName;
      task.op_name = op_desc->GetName();
      task.op_id = op_desc->GetId();
      task.stream_id = context.stream_id;
      tasks.push_back(std::move(task));
      return Status::Ok();
    }
    AttrUtils::SetBool(op_desc, kAttrNoTask, true);
    return Status::Ok();
  }
  auto op = factory_->CreateOp(node, context);
  if (!op.ok()) return Status(op.status()).Prefix("GenerateTask");
  return (*op)->Run();
}

}  // namespace ge::ge_local
