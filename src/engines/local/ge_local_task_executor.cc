// The shape queries as run-time kernels: each writes its input's dims (or their product, or
// their number) into its output, in the output's integer type.
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

}  // namespace

bool IsShapeQueryType(const std::string& type) {
  return type == "Shape" || type == "ShapeN" || type == "Size" || type == "Rank";
}

Result<std::unique_ptr<TaskKernel>> GeLocalTaskExecutor::LoadTask(
    const TaskDef& task, const Node& node, const TaskLoadContext& /*context*/) {
  const std::string who = "node '" + node.GetName() + "' (type " + node.GetType() + ")";
  const std::string& kernel = task.kernel_name;
  if (!IsShapeQueryType(kernel)) {
    return ParamInvalid(who + ": GE Local has no kernel " + kernel +
                        " (it runs only Shape, ShapeN, Size and Rank)");
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
