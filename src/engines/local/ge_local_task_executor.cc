// GE Local's run-time kernels: the shape queries, each writing its input's dims (or their
// product, or their number) into its output in the output's integer type; and Merge, which
// forwards the first of its inputs that is there and says which it was.
#include "ge_local_task_executor.h"

#include <algorithm>
#include <cstring>

#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/infer_utils.h"

namespace ge::ge_local {
namespace {

enum class Query { kShape, kShapeN, kSize, kRank };

Status WriteInts(const std::vector<int64_t>& values, const RuntimeTensor& out,
                 const std::string& who) {
  if (values.empty()) return Status::Ok();
  if (out.data == nullptr) return InternalError(who + ": the runtime gave no output buffer");
  int64_t elements = 1;
  for (int64_t d : out.dims) elements *= d;
  if (elements != static_cast<int64_t>(values.size())) {
    return InternalError(who + ": its output holds " + std::to_string(elements) +
                         " elements, the query gives " + std::to_string(values.size()));
  }
  switch (out.dtype) {
    case DT_INT64:
      std::memcpy(out.data, values.data(), values.size() * sizeof(int64_t));
      return Status::Ok();
    case DT_INT32: {
      auto* dst = static_cast<int32_t*>(out.data);
      for (size_t i = 0; i < values.size(); ++i) {
        if (values[i] > INT32_MAX) {
          return ParamInvalid(who + ": the value " + std::to_string(values[i]) +
                              " does not fit its int32 output");
        }
        dst[i] = static_cast<int32_t>(values[i]);
      }
      return Status::Ok();
    }
    default:
      return ParamInvalid(who + ": its output is neither int32 nor int64");
  }
}

class ShapeQueryKernel final : public TaskKernel {
 public:
  ShapeQueryKernel(Query query, std::string who, int64_t start, int64_t end, bool has_end)
      : query_(query), who_(std::move(who)), start_(start), end_(end), has_end_(has_end) {}

  Status Run(const std::vector<RuntimeTensor>& inputs, const std::vector<RuntimeTensor>& outputs,
             void* /*workspace*/) override {
    const size_t want_outputs = query_ == Query::kShapeN ? inputs.size() : 1;
    if (inputs.empty() || outputs.size() != want_outputs) {
      return InternalError(who_ + ": the runtime passed " + std::to_string(inputs.size()) +
                           " inputs and " + std::to_string(outputs.size()) + " outputs");
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      GE_RETURN_IF_ERROR(WriteInts(Values(inputs[i].dims), outputs[i], who_));
    }
    return Status::Ok();
  }

 private:
  std::vector<int64_t> Values(const std::vector<int64_t>& dims) const {
    const auto rank = static_cast<int64_t>(dims.size());
    switch (query_) {
      case Query::kShapeN:
        return dims;
      case Query::kShape: {
        const auto [start, end] = infer::ShapeSlice(rank, start_, end_, has_end_);
        return {dims.begin() + start, dims.begin() + end};
      }
      case Query::kSize: {
        int64_t n = 1;
        for (int64_t d : dims) n *= d;
        return {n};
      }
      case Query::kRank:
        return {rank};
    }
    return {};
  }

  Query query_;
  std::string who_;
  int64_t start_;
  int64_t end_;
  bool has_end_;
};

// Merge: output 0 is the first input that is there (GE's Merge forwards the input that arrives;
// here every linked input is computed in its run, so the first linked one is it), output 1 its
// index as an int32 scalar.
class MergeKernel final : public TaskKernel {
 public:
  explicit MergeKernel(std::string who) : who_(std::move(who)) {}

  Status Run(const std::vector<RuntimeTensor>& inputs, const std::vector<RuntimeTensor>& outputs,
             void* /*workspace*/) override {
    if (outputs.empty() || outputs[0].data == nullptr) {
      return InternalError(who_ + ": the runtime gave no buffer for output 0");
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const RuntimeTensor& in = inputs[i];
      if (in.data == nullptr) continue;
      if (in.dtype != outputs[0].dtype || in.dims != outputs[0].dims) {
        return ParamInvalid(who_ + ": input " + std::to_string(i) + " " +
                            GeShape(in.dims).ToString() + " is not the shape of its output " +
                            GeShape(outputs[0].dims).ToString());
      }
      int64_t elements = 1;
      for (int64_t d : in.dims) elements *= d;
      const int64_t bytes = TypeUtils::GetSizeInBytes(elements, in.dtype);
      if (bytes < 0) return ParamInvalid(who_ + ": input " + std::to_string(i) + " has no size");
      if (bytes > 0 && in.data != outputs[0].data) {
        std::memcpy(outputs[0].data, in.data, static_cast<size_t>(bytes));
      }
      if (outputs.size() > 1 && outputs[1].data != nullptr) {
        if (outputs[1].dtype != DT_INT32) {
          return ParamInvalid(who_ + ": output 1 (value_index) is not int32");
        }
        const auto index = static_cast<int32_t>(i);
        std::memcpy(outputs[1].data, &index, sizeof(index));
      }
      return Status::Ok();
    }
    return ParamInvalid(who_ + ": none of its " + std::to_string(inputs.size()) +
                        " inputs is there to forward");
  }

 private:
  std::string who_;
};

}  // namespace

bool IsRunTimeOpType(const std::string& type) {
  return type == "Merge" || type == "Stack" || type == "StackPush" || type == "StackPop" ||
         type == "StackClose";
}

bool IsShapeQueryType(const std::string& type) {
  return type == "Shape" || type == "ShapeN" || type == "Size" || type == "Rank";
}

Result<std::unique_ptr<TaskKernel>> GeLocalTaskExecutor::LoadTask(const TaskDef& task,
                                                                  const Node& node,
                                                                  const TaskLoadContext& context) {
  const std::string who = "node '" + node.GetName() + "' (type " + node.GetType() + ")";
  const std::string& kernel = task.kernel_name;
  if (kernel == "Merge") return std::unique_ptr<TaskKernel>(std::make_unique<MergeKernel>(who));
  if (IsRunTimeOpType(kernel)) return MakeStackKernel(kernel, node, context);
  if (!IsShapeQueryType(kernel)) {
    return ParamInvalid(who + ": GE Local has no kernel " + kernel +
                        " (it runs only Shape, ShapeN, Size, Rank, Merge and the stack operators)");
  }
  const Query query = kernel == "Shape"    ? Query::kShape
                      : kernel == "ShapeN" ? Query::kShapeN
                      : kernel == "Size"   ? Query::kSize
                                           : Query::kRank;
  const OpDesc& op = *node.GetOpDescBarePtr();
  int64_t start = 0;
  int64_t end = 0;
  AttrUtils::GetInt(op, "start", start);
  const bool has_end = AttrUtils::GetInt(op, "end", end);
  return std::unique_ptr<TaskKernel>(
      std::make_unique<ShapeQueryKernel>(query, who, start, end, has_end));
}

}  // namespace ge::ge_local
