// RunPipelineStage and PipelineStages (ge/runtime/pipeline_run.h).
#include "ge/runtime/pipeline_run.h"

#include <map>

#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

std::string Shape(DataType dtype, const std::vector<int64_t>& dims) {
  return TypeUtils::DataTypeToSerialString(dtype) + " " + GeShape(dims).ToString();
}

// `what` (a stage's input or output, `name` in the manifest) is `got` in its model; the manifest
// says `want`.
Status CheckIo(const std::string& what, const PipelineTensor& want, const IoInfo& got) {
  if (got.dtype != want.dtype || got.dims != want.dims) {
    return ParamInvalid(what + " '" + want.name + "' is " + Shape(got.dtype, got.dims) +
                        " in the stage's model; the manifest says " + Shape(want.dtype, want.dims) +
                        " (the pipeline is damaged)");
  }
  return Status::Ok();
}

}  // namespace

Result<int64_t> PipelineBytes(const PipelineModel& pipeline, const std::vector<std::string>& names,
                              const std::string& where) {
  int64_t total = 0;
  for (const std::string& name : names) {
    const PipelineTensor* t = pipeline.Tensor(name);
    if (t == nullptr) return ParamInvalid(where + ": the manifest has no tensor '" + name + "'");
    const int64_t bytes = t->Bytes();
    if (bytes < 0) {
      return ParamInvalid(where + ": tensor '" + name + "' of " + Shape(t->dtype, t->dims) +
                          " has no byte count int64 can hold");
    }
    if (__builtin_add_overflow(total, bytes, &total)) {
      return ParamInvalid(where + ": the tensors up to '" + name +
                          "' together need more bytes than int64 counts");
    }
  }
  return total;
}

Status CheckPipelineStage(const PipelineModel& pipeline, size_t s) {
  const std::string where = "stage " + std::to_string(s);
  if (s >= pipeline.stages.size()) return ParamInvalid("the pipeline has no " + where);
  const PipelineStage& stage = pipeline.stages[s];
  if (stage.model.graph == nullptr) {
    return ParamInvalid(where + " of the pipeline was not loaded");
  }
  Result<std::vector<IoInfo>> inputs = GraphInputs(*stage.model.graph);
  if (!inputs.ok()) return Status(inputs.status()).Prefix(where);
  const std::vector<IoInfo> outputs = GraphOutputs(*stage.model.graph);
  auto check = [&](const char* kind, const std::vector<std::string>& names,
                   const std::vector<IoInfo>& io) -> Status {
    if (names.size() != io.size()) {
      return ParamInvalid(where + "'s model has " + std::to_string(io.size()) + " " + kind +
                          "(s); the manifest names " + std::to_string(names.size()) +
                          " (the pipeline is damaged)");
    }
    for (size_t i = 0; i < names.size(); ++i) {
      const PipelineTensor* want = pipeline.Tensor(names[i]);
      if (want == nullptr) {
        return ParamInvalid(where + ": the manifest has no tensor '" + names[i] + "'");
      }
      GE_RETURN_IF_ERROR(CheckIo(where + " " + kind + " " + std::to_string(i), *want, io[i]));
    }
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(check("input", stage.inputs, *inputs));
  GE_RETURN_IF_ERROR(check("output", stage.outputs, outputs));
  // The names as well: tensors of one dtype and shape listed in another order would otherwise
  // reach the wrong inputs.
  std::vector<std::string> made;
  for (const NodePtr& node : stage.model.graph->GetDirectNode()) {
    if (node->GetType() == kTypeNetOutput) {
      (void)AttrUtils::GetListStr(node->GetOpDesc(), kAttrPipelineTensors, made);
    }
  }
  for (size_t i = 0; i < inputs->size(); ++i) {
    const NodePtr data = stage.model.graph->FindNode((*inputs)[i].name);
    std::string name;
    if (data == nullptr || !AttrUtils::GetStr(data->GetOpDesc(), kAttrPipelineTensor, name)) {
      return ParamInvalid(where + "'s model does not name the tensor its input " +
                          std::to_string(i) + " receives (the pipeline is damaged)");
    }
    if (name != stage.inputs[i]) {
      return ParamInvalid(where + " input " + std::to_string(i) + " is tensor '" + name +
                          "' in the stage's model; the manifest says '" + stage.inputs[i] +
                          "' (the pipeline is damaged)");
    }
  }
  if (made != stage.outputs) {
    for (size_t i = 0; i < stage.outputs.size(); ++i) {
      const std::string name = i < made.size() ? made[i] : std::string();
      if (name == stage.outputs[i]) continue;
      return ParamInvalid(where + " output " + std::to_string(i) + " is tensor '" + name +
                          "' in the stage's model; the manifest says '" + stage.outputs[i] +
                          "' (the pipeline is damaged)");
    }
    return ParamInvalid(where + "'s model names " + std::to_string(made.size()) +
                        " output tensors; the manifest " + std::to_string(stage.outputs.size()) +
                        " (the pipeline is damaged)");
  }
  return Status::Ok();
}

Status CheckPipelineReceive(const PipelineModel& pipeline, size_t s,
                            const std::vector<int64_t>& bytes, const std::string& from) {
  const std::string where = "stage " + std::to_string(s);
  if (s >= pipeline.stages.size()) return ParamInvalid("the pipeline has no " + where);
  const std::vector<std::string>& names = pipeline.Receives(s);
  if (bytes.size() != names.size()) {
    return ParamInvalid(where + " received " + std::to_string(bytes.size()) + " tensor(s) from " +
                        from + "; the manifest says " + std::to_string(names.size()));
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const PipelineTensor* want = pipeline.Tensor(names[i]);
    if (want == nullptr) {
      return ParamInvalid(where + ": the manifest has no tensor '" + names[i] + "'");
    }
    if (bytes[i] != want->Bytes()) {
      return ParamInvalid(where + " received '" + names[i] + "' from " + from + " as " +
                          std::to_string(bytes[i]) + " bytes; the manifest says " +
                          Shape(want->dtype, want->dims) + " (" + std::to_string(want->Bytes()) +
                          " bytes)");
    }
  }
  return Status::Ok();
}

Result<std::vector<GeTensor>> RunPipelineStage(LoadedModel& model, const PipelineModel& pipeline,
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
  // `t`, called `name` in the manifest, is what the manifest says.
  auto matches = [&](const std::string& name, const GeTensor& t) -> Status {
    const PipelineTensor* want = pipeline.Tensor(name);
    const GeTensorDesc& desc = t.GetTensorDesc();
    if (want == nullptr || desc.GetDataType() != want->dtype ||
        desc.GetShape().GetDims() != want->dims ||
        static_cast<int64_t>(t.GetSize()) != want->Bytes()) {
      return ParamInvalid("'" + name + "' is " +
                          Shape(desc.GetDataType(), desc.GetShape().GetDims()) + " (" +
                          std::to_string(t.GetSize()) + " bytes); the manifest says " +
                          (want == nullptr ? std::string("no such tensor")
                                           : Shape(want->dtype, want->dims) + " (" +
                                                 std::to_string(want->Bytes()) + " bytes)"));
    }
    return Status::Ok();
  };
  std::map<std::string, const GeTensor*> have;
  for (size_t i = 0; i < names.size(); ++i) {
    Status ok = matches(names[i], received[i]);
    if (!ok.ok()) return std::move(ok).Prefix(where + " received");
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
  for (size_t i = 0; i < stage.outputs.size(); ++i) {
    Status ok = matches(stage.outputs[i], (*outputs)[i]);
    if (!ok.ok()) return std::move(ok).Prefix(where + " made");
    made[stage.outputs[i]] = &(*outputs)[i];
  }
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
  GE_RETURN_IF_ERROR(pipeline.Check());
  for (size_t s = 0; s < pipeline.stages.size(); ++s) {
    GE_RETURN_IF_ERROR(CheckPipelineStage(pipeline, s));
  }
  // Every tensor that crosses a stage may be alive at once beside the stages' own memory.
  std::vector<std::string> crossing;
  crossing.reserve(pipeline.tensors.size());
  for (const PipelineTensor& t : pipeline.tensors) crossing.push_back(t.name);
  GE_ASSIGN_OR_RETURN(const int64_t crossing_bytes,
                      PipelineBytes(pipeline, crossing, "the pipeline"));
  const int64_t limit = options.max_memory_bytes;  // 0: each stage's own default
  if (limit < 0) {
    return ParamInvalid("max_memory_bytes must be 0 (the machine's memory) or more, not " +
                        std::to_string(limit));
  }
  int64_t left = limit - std::min(limit, crossing_bytes);
  std::string spent = "the tensors that cross stages take " + std::to_string(crossing_bytes);
  std::unique_ptr<PipelineStages> stages(new PipelineStages());  // a private constructor
  for (size_t s = 0; s < pipeline.stages.size(); ++s) {
    const std::string where = "stage " + std::to_string(s);
    if (limit > 0 && left == 0) {
      return ParamInvalid(where + ": nothing is left of the memory limit of " +
                          std::to_string(limit) +
                          " bytes (RuntimeOptions::max_memory_bytes): " + spent);
    }
    RuntimeOptions stage_options = options;
    stage_options.max_memory_bytes = left;
    Result<std::unique_ptr<LoadedModel>> model =
        LoadedModel::Load(pipeline.stages[s].model, stage_options);
    if (!model.ok()) {
      return Status(model.status())
          .Prefix(limit > 0 ? where + " (" + std::to_string(left) + " bytes left of the limit of " +
                                  std::to_string(limit) + ": " + spent + ")"
                            : where);
    }
    if (limit > 0) {
      const int64_t held = (*model)->arena_bytes() + (*model)->workspace_bytes();
      left -= std::min(left, held);
      spent += ", " + where + " " + std::to_string(held);
    }
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
