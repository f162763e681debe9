// RunPipelineStage and PipelineStages (ge/runtime/pipeline_run.h).
#include "ge/runtime/pipeline_run.h"

#include <map>

namespace ge {
namespace {

std::string Shape(DataType dtype, const std::vector<int64_t>& dims) {
  return TypeUtils::DataTypeToSerialString(dtype) + " " + GeShape(dims).ToString();
}

}  // namespace

Result<std::vector<GeTensor>> RunPipelineStage(Model& model, const PipelineModel& pipeline,
                                               size_t s, const std::vector<GeTensor>& received) {
  if (s >= pipeline.stages.size()) {
    return ParamInvalid("the pipeline has no stage " + std::to_string(s));
  }
  const std::string where = "stage " + std::to_string(s);
  const PipelineStage& stage = pipeline.stages[s];
  const std::vector<std::string>& names = pipeline.Receives(s);
  if (received.size() != names.size()) {
    return ParamInvalid(where + " receives " + std::to_string(names.size()) + " tensor(s), given " +
                        std::to_string(received.size()));
  }
  std::map<std::string, const GeTensor*> have;
  for (size_t i = 0; i < names.size(); ++i) {
    const PipelineTensor* want = pipeline.Tensor(names[i]);
    const GeTensorDesc& desc = received[i].GetTensorDesc();
    if (want == nullptr || desc.GetDataType() != want->dtype ||
        desc.GetShape().GetDims() != want->dims ||
        static_cast<int64_t>(received[i].GetSize()) != want->Bytes()) {
      return ParamInvalid(
          where + ": '" + names[i] + "' is " +
          Shape(desc.GetDataType(), desc.GetShape().GetDims()) + " (" +
          std::to_string(received[i].GetSize()) + " bytes); the stage wants " +
          (want == nullptr ? std::string("no such tensor") : Shape(want->dtype, want->dims)));
    }
    have[names[i]] = &received[i];
  }
  std::vector<GeTensor> inputs;
  inputs.reserve(stage.inputs.size());
  for (const std::string& name : stage.inputs) inputs.push_back(*have.at(name));
  Result<std::vector<GeTensor>> outputs = model.Run(inputs);
  if (!outputs.ok()) return Status(outputs.status()).Prefix(where);
  if (outputs->size() != stage.outputs.size()) {
    return InternalError(where + " made " + std::to_string(outputs->size()) +
                         " outputs; its manifest names " + std::to_string(stage.outputs.size()));
  }
  std::map<std::string, const GeTensor*> made;
  for (size_t i = 0; i < stage.outputs.size(); ++i) made[stage.outputs[i]] = &(*outputs)[i];
  std::vector<GeTensor> sends;
  sends.reserve(stage.sends.size());
  for (const std::string& name : stage.sends) {
    auto found = made.find(name);
    if (found == made.end()) found = have.find(name);
    if (found == have.end()) {
      return InternalError(where + " sends '" + name + "', which it neither made nor received");
    }
    sends.push_back(*found->second);
  }
  return sends;
}

Result<std::unique_ptr<PipelineStages>> PipelineStages::Load(PipelineModel pipeline,
                                                             const RuntimeOptions& options) {
  std::unique_ptr<PipelineStages> stages(new PipelineStages());  // a private constructor
  for (size_t s = 0; s < pipeline.stages.size(); ++s) {
    if (pipeline.stages[s].model.graph == nullptr) {
      return ParamInvalid("stage " + std::to_string(s) + " of the pipeline was not loaded");
    }
    Result<std::unique_ptr<Model>> model = Model::Load(pipeline.stages[s].model, options);
    if (!model.ok()) return Status(model.status()).Prefix("stage " + std::to_string(s));
    stages->models_.push_back(std::move(model).value());
  }
  stages->pipeline_ = std::move(pipeline);
  return stages;
}

Result<std::vector<GeTensor>> PipelineStages::Run(const std::vector<GeTensor>& inputs) {
  std::vector<GeTensor> passing = inputs;
  for (size_t s = 0; s < models_.size(); ++s) {
    GE_ASSIGN_OR_RETURN(passing, RunPipelineStage(*models_[s], pipeline_, s, passing));
  }
  return passing;
}

}  // namespace ge
