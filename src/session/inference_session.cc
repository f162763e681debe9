// InferenceSession: opening, compiling or loading, and running a model, decided in one place.
#include "ge/session/inference_session.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <utility>

#include "ge/compiler/compile_options.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/model/pipeline_model.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/pipeline_run.h"

namespace ge {
namespace {

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool HasRunTimeDims(const std::vector<IoInfo>& inputs) {
  return std::any_of(inputs.begin(), inputs.end(), [](const IoInfo& info) {
    return std::any_of(info.dims.begin(), info.dims.end(), [](int64_t d) { return d < 0; });
  });
}

// "name:d0,d1;name2:d0", ge.inputShape's syntax.
std::string InputShapeOption(const std::map<std::string, std::vector<int64_t>>& shapes) {
  std::string text;
  for (const auto& [name, dims] : shapes) {
    if (!text.empty()) text += ';';
    text += name;
    text += ':';
    for (size_t i = 0; i < dims.size(); ++i) {
      if (i > 0) text += ',';
      text += std::to_string(dims[i]);  // appended: GCC 12 -O3 misreads "," + a temporary
    }
  }
  return text;
}

// The compiler's options for `options`: the input shapes as ge.inputShape, and the threads the
// model will run with as the cost model's budget (unless the options set either).
std::map<std::string, std::string> CompileOptionsOf(const InferenceOptions& options) {
  std::map<std::string, std::string> compile = options.compile;
  if (!options.input_shapes.empty()) {
    compile.emplace(kOptInputShape, InputShapeOption(options.input_shapes));
  }
  if (options.runtime.threads > 0) {
    compile.emplace(kOptScheduleThreads, std::to_string(options.runtime.threads));
  }
  return compile;
}

std::vector<IoInfo> PipelineInputs(const PipelineModel& pipeline) {
  std::vector<IoInfo> inputs;
  for (const std::string& name : pipeline.inputs) {
    const PipelineTensor* t = pipeline.Tensor(name);
    IoInfo info;
    info.name = name;
    if (t != nullptr) {
      info.dtype = t->dtype;
      info.dims = t->dims;
    }
    inputs.push_back(std::move(info));
  }
  return inputs;
}

std::vector<IoInfo> PipelineOutputs(const PipelineModel& pipeline) {
  std::vector<IoInfo> outputs;
  for (size_t i = 0; i < pipeline.outputs.size(); ++i) {
    const PipelineTensor* t = pipeline.Tensor(pipeline.outputs[i]);
    IoInfo info;
    info.name = i < pipeline.output_names.size() ? pipeline.output_names[i] : pipeline.outputs[i];
    if (t != nullptr) {
      info.dtype = t->dtype;
      info.dims = t->dims;
    }
    outputs.push_back(std::move(info));
  }
  return outputs;
}

Result<ComputeGraphPtr> ParseGraph(const ModelSource& source, const InferenceOptions& options) {
  if (source.format() == ModelFormat::kGeGraph) {
    if (source.path().empty()) {
      return ParamInvalid(source.name() + ": a GE graph is read from a file");
    }
    return ModelSerialize::LoadFromFile(source.path());
  }
  OnnxParseOptions parse;
  parse.input_shapes = options.input_shapes;
  if (!source.path().empty()) return ParseOnnxFile(source.path(), parse);
  return ParseOnnxBytes(source.bytes(), ".", source.name(), parse);
}

// A compiled model's (or pipeline's) input shapes were fixed when it was compiled.
Status RefuseInputShapes(const ModelSource& source, const InferenceOptions& options) {
  if (options.input_shapes.empty()) return Status::Ok();
  return ParamInvalid(source.name() + " is a " + ModelFormatName(source.format()) +
                      ": its input shapes were fixed when it was compiled; compile its graph "
                      "again to change them");
}

// A compiled model's file or bytes, read.
Result<CompiledModel> ReadCompiled(const ModelSource& source, const InferenceOptions& options) {
  GE_RETURN_IF_ERROR(RefuseInputShapes(source, options));
  return source.path().empty() ? CompiledModel::Deserialize(source.bytes())
                               : CompiledModel::LoadFromFile(source.path());
}

// True when some input dim of `graph` is left to run time: no shape given fixes it.
Result<bool> LeavesDimsToRunTime(const ComputeGraph& graph,
                                 const std::map<std::string, std::string>& compile) {
  if (compile.count(kOptInputShape) != 0) return false;
  GE_ASSIGN_OR_RETURN(std::vector<IoInfo> inputs, GraphInputs(graph));
  return HasRunTimeDims(inputs);
}

// `graph` compiled with the options' callbacks; its compile time in `millis`.
Result<CompiledModel> CompileGraph(const ComputeGraphPtr& graph,
                                   const std::map<std::string, std::string>& compile,
                                   const InferenceOptions& options, double parse_millis,
                                   double& millis, const std::string& last_stage = "build") {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(compile));
  if (options.progress) compiler->SetProgress(options.progress);
  if (options.stage_done) compiler->SetStageDone(options.stage_done);
  const Clock::time_point start = Clock::now();
  GE_ASSIGN_OR_RETURN(CompiledModel model, compiler->Compile(graph, last_stage));
  millis = MillisSince(start);
  model.report.parse_millis = parse_millis;
  if (options.compiled) options.compiled(*compiler, model);
  return model;
}

}  // namespace

const char* RunStrategyName(RunStrategy strategy) {
  switch (strategy) {
    case RunStrategy::kStatic:
      return "static";
    case RunStrategy::kShapePlans:
      return "shape plans";
    case RunStrategy::kAnyShape:
      return "any shape";
    case RunStrategy::kPipeline:
      return "pipeline";
  }
  return "static";
}

InferenceSession::~InferenceSession() = default;

Result<std::unique_ptr<InferenceSession>> InferenceSession::Open(const ModelSource& source,
                                                                 InferenceOptions options) {
  const Clock::time_point start = Clock::now();
  if (source.format() == ModelFormat::kPipeline) {
    GE_RETURN_IF_ERROR(RefuseInputShapes(source, options));
    GE_ASSIGN_OR_RETURN(PipelineModel pipeline, source.path().empty()
                                                    ? PipelineModel::Deserialize(source.bytes())
                                                    : PipelineModel::LoadFromFile(source.path()));
    const double read = MillisSince(start);
    std::unique_ptr<InferenceSession> session(new InferenceSession());
    session->strategy_ = RunStrategy::kPipeline;
    session->inputs_ = PipelineInputs(pipeline);
    session->outputs_ = PipelineOutputs(pipeline);
    const Clock::time_point load = Clock::now();
    GE_ASSIGN_OR_RETURN(session->stages_,
                        PipelineStages::Load(std::move(pipeline), options.runtime));
    session->times_.read_om = read;
    session->times_.load = MillisSince(load);
    return session;
  }
  if (source.format() == ModelFormat::kCompiled) {
    GE_ASSIGN_OR_RETURN(CompiledModel model, ReadCompiled(source, options));
    const double read = MillisSince(start);
    GE_ASSIGN_OR_RETURN(auto session, FromCompiled(std::move(model), std::move(options)));
    session->times_.read_om = read;
    return session;
  }
  GE_ASSIGN_OR_RETURN(ComputeGraphPtr graph, ParseGraph(source, options));
  return FromParsed(std::move(graph), std::move(options), MillisSince(start));
}

Result<std::unique_ptr<InferenceSession>> InferenceSession::FromGraph(ComputeGraphPtr graph,
                                                                      InferenceOptions options) {
  return FromParsed(std::move(graph), std::move(options), 0);
}

Result<std::unique_ptr<InferenceSession>> InferenceSession::FromParsed(ComputeGraphPtr graph,
                                                                       InferenceOptions options,
                                                                       double parse_millis) {
  if (graph == nullptr) return ParamInvalid("InferenceSession: no graph");
  const std::map<std::string, std::string> compile = CompileOptionsOf(options);
  // Shapes given (here or as ge.inputShape) fix the run-time dims before compiling.
  GE_ASSIGN_OR_RETURN(const bool run_time_dims, LeavesDimsToRunTime(*graph, compile));
  if (run_time_dims) {
    // The cache alone holds the graph: it may drop weights its plans copy again from the file.
    GE_ASSIGN_OR_RETURN(std::unique_ptr<ShapePlanCache> plans,
                        ShapePlanCache::Create(std::move(graph), compile, options.runtime));
    if (plans->specializes()) {
      std::unique_ptr<InferenceSession> session(new InferenceSession());
      session->strategy_ = RunStrategy::kShapePlans;
      session->inputs_ = plans->inputs();
      session->outputs_ = plans->outputs();
      session->plans_ = std::move(plans);
      session->times_.parse = parse_millis;
      return session;
    }
    // One model for every shape (state across runs, or openge.shapePlanCacheEntries=0).
    const Clock::time_point start = Clock::now();
    GE_ASSIGN_OR_RETURN(CompiledModel any_shape, plans->CompileForAnyShape());
    const double compile_millis = MillisSince(start);
    GE_ASSIGN_OR_RETURN(auto session, FromCompiled(std::move(any_shape), std::move(options)));
    session->strategy_ = RunStrategy::kAnyShape;
    session->times_.parse = parse_millis;
    session->times_.compile = compile_millis;
    return session;
  }
  double compile_millis = 0;
  GE_ASSIGN_OR_RETURN(CompiledModel model,
                      CompileGraph(graph, compile, options, parse_millis, compile_millis));
  graph.reset();  // the compiled model holds what it needs
  GE_ASSIGN_OR_RETURN(auto session, FromCompiled(std::move(model), std::move(options)));
  session->times_.parse = parse_millis;
  session->times_.compile = compile_millis;
  return session;
}

Result<std::unique_ptr<InferenceSession>> InferenceSession::FromCompiled(CompiledModel model,
                                                                         InferenceOptions options,
                                                                         ComputeGraphPtr graph) {
  std::unique_ptr<InferenceSession> session(new InferenceSession());
  if (graph != nullptr) {
    const std::map<std::string, std::string> compile = CompileOptionsOf(options);
    GE_ASSIGN_OR_RETURN(const bool run_time_dims, LeavesDimsToRunTime(*graph, compile));
    if (run_time_dims) {
      GE_ASSIGN_OR_RETURN(session->plans_,
                          ShapePlanCache::Create(std::move(graph), compile, options.runtime));
      if (!session->plans_->specializes()) session->plans_.reset();  // the model runs them all
    }
  }
  const Clock::time_point start = Clock::now();
  GE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> loaded,
                      LoadedModel::Load(std::move(model), options.runtime));
  session->times_.load = MillisSince(start);
  session->model_ = std::move(loaded);
  session->inputs_ = session->model_->inputs();
  session->outputs_ = session->model_->outputs();
  if (session->plans_ != nullptr) {
    session->strategy_ = RunStrategy::kShapePlans;
  } else if (session->model_->runs_dynamically() && HasRunTimeDims(session->inputs_)) {
    session->strategy_ = RunStrategy::kAnyShape;
  }
  return session;
}

Result<std::vector<GeTensor>> InferenceSession::Bind(
    const std::map<std::string, GeTensor>& named) const {
  for (const auto& [name, tensor] : named) {
    const std::string& given = name;  // clang 14 cannot capture a structured binding
    if (std::none_of(inputs_.begin(), inputs_.end(),
                     [&given](const IoInfo& info) { return info.name == given; })) {
      std::string known;
      for (const IoInfo& info : inputs_) known += (known.empty() ? "" : ", ") + info.name;
      return ParamInvalid("input '" + name +
                          "' is not an input of this model; its inputs are: " + known);
    }
  }
  std::vector<GeTensor> ordered;
  ordered.reserve(inputs_.size());
  for (const IoInfo& info : inputs_) {
    auto it = named.find(info.name);
    if (it != named.end()) {
      ordered.push_back(it->second);
    } else if (info.default_value != nullptr) {
      ordered.push_back(*info.default_value);  // shares the default's bytes
    } else {
      return ParamInvalid("input '" + info.name + "' is not given (it has no default value)");
    }
  }
  return ordered;
}

Status InferenceSession::Prepare(const std::vector<GeTensor>& inputs) {
  if (plans_ == nullptr || inputs.empty()) return Status::Ok();
  GE_ASSIGN_OR_RETURN(ShapePlan plan, plans_->PlanFor(inputs));
  (void)plan;
  return Status::Ok();
}

Result<std::vector<GeTensor>> InferenceSession::Run(const std::vector<GeTensor>& inputs) {
  switch (strategy_) {
    case RunStrategy::kShapePlans:
      return plans_ != nullptr ? RunPlan(inputs) : model_->Run(inputs);
    case RunStrategy::kPipeline:
      return stages_->Run(inputs);
    case RunStrategy::kStatic:
    case RunStrategy::kAnyShape:
      break;
  }
  return model_->Run(inputs);
}

Result<std::map<std::string, GeTensor>> InferenceSession::Run(
    const std::map<std::string, GeTensor>& named) {
  GE_ASSIGN_OR_RETURN(std::vector<GeTensor> inputs, Bind(named));
  GE_ASSIGN_OR_RETURN(std::vector<GeTensor> outputs, Run(inputs));
  if (outputs.size() != outputs_.size()) {
    return InternalError("the run returned " + std::to_string(outputs.size()) + " outputs for " +
                         std::to_string(outputs_.size()) + " names");
  }
  std::map<std::string, GeTensor> by_name;
  for (size_t i = 0; i < outputs.size(); ++i)
    by_name.emplace(outputs_[i].name, std::move(outputs[i]));
  return by_name;
}

Result<std::vector<GeTensor>> InferenceSession::RunPlan(const std::vector<GeTensor>& inputs) {
  GE_ASSIGN_OR_RETURN(ShapePlan plan, plans_->PlanFor(inputs));
  plan.model()->EnableProfiling(profiling_.load());
  GE_ASSIGN_OR_RETURN(std::vector<GeTensor> outputs, plan.Run(inputs));
  std::lock_guard<std::mutex> lock(last_mutex_);
  last_plan_ = plan.model();
  return outputs;
}

std::shared_ptr<LoadedModel> InferenceSession::LastModel() const {
  if (plans_ != nullptr) {
    std::lock_guard<std::mutex> lock(last_mutex_);
    if (last_plan_ != nullptr) return last_plan_;
  }
  return model_;
}

void InferenceSession::EnableProfiling(bool on) {
  profiling_ = on;
  if (model_ != nullptr) model_->EnableProfiling(on);
  if (stages_ != nullptr) {
    for (size_t s = 0; s < stages_->pipeline().stages.size(); ++s) {
      stages_->stage(s).EnableProfiling(on);
    }
  }
  std::lock_guard<std::mutex> lock(last_mutex_);
  if (last_plan_ != nullptr) last_plan_->EnableProfiling(on);
}

std::vector<TaskTiming> InferenceSession::LastProfile() const {
  if (stages_ != nullptr) {
    // Each stage's tasks on a row of its own, after the stages before it.
    std::vector<TaskTiming> all;
    double offset = 0;
    for (size_t s = 0; s < stages_->pipeline().stages.size(); ++s) {
      double end = 0;
      for (TaskTiming t : stages_->stage(s).LastProfile()) {
        end = std::max(end, t.start_us + t.duration_us);
        t.start_us += offset;
        t.stream = static_cast<int64_t>(s);
        all.push_back(std::move(t));
      }
      offset += end;
    }
    return all;
  }
  const std::shared_ptr<LoadedModel> model = LastModel();
  return model != nullptr ? model->LastProfile() : std::vector<TaskTiming>{};
}

SessionMemory InferenceSession::Memory() const {
  SessionMemory memory;
  auto add = [&memory](const LoadedModel& model) {
    memory.weight_bytes += model.weight_bytes();
    memory.loaded_weight_bytes += model.loaded_weight_bytes();
    memory.arena_bytes += model.arena_bytes();
    memory.workspace_bytes += model.workspace_bytes();
    memory.run_contexts = std::max(memory.run_contexts, model.run_contexts());
    memory.streams = std::max(memory.streams, model.execution().streams);
  };
  if (stages_ != nullptr) {
    for (size_t s = 0; s < stages_->pipeline().stages.size(); ++s) add(stages_->stage(s));
    return memory;
  }
  const std::shared_ptr<LoadedModel> model = LastModel();
  if (model != nullptr) add(*model);
  return memory;
}

ExecutionInfo InferenceSession::Execution() const {
  const std::shared_ptr<LoadedModel> model = LastModel();
  return model != nullptr ? model->execution() : ExecutionInfo{};
}

ShapePlanStats InferenceSession::PlanStats() const {
  return plans_ != nullptr ? plans_->Stats() : ShapePlanStats{};
}

int InferenceSession::stages() const {
  return stages_ != nullptr ? static_cast<int>(stages_->pipeline().stages.size()) : 1;
}

const CompiledModel* InferenceSession::compiled() const {
  return model_ != nullptr ? &model_->compiled() : nullptr;
}

Result<CompiledModel> InferenceSession::CompileForAnyShape() const {
  if (model_ != nullptr) return model_->compiled();
  if (plans_ != nullptr) return plans_->CompileForAnyShape();
  return ParamInvalid("a pipeline is compiled already, one model per stage");
}

Result<ComputeGraphPtr> ReadGraph(const ModelSource& source, const InferenceOptions& options) {
  switch (source.format()) {
    case ModelFormat::kPipeline:
      return ParamInvalid(source.name() + " is a pipeline: each of its stages has a graph");
    case ModelFormat::kCompiled: {
      GE_ASSIGN_OR_RETURN(CompiledModel model, ReadCompiled(source, options));
      return model.graph;
    }
    case ModelFormat::kOnnx:
    case ModelFormat::kGeGraph:
      break;
  }
  return ParseGraph(source, options);
}

Result<PreparedModel> CompileSource(const ModelSource& source, const InferenceOptions& options,
                                    const std::string& last_stage) {
  PreparedModel prepared;
  const Clock::time_point start = Clock::now();
  if (source.format() == ModelFormat::kPipeline) {
    return ParamInvalid(source.name() +
                        " is a pipeline: open it in a session, or run its "
                        "stages under mpirun (gec run --pipeline)");
  }
  if (source.format() == ModelFormat::kCompiled) {
    GE_ASSIGN_OR_RETURN(prepared.model, ReadCompiled(source, options));
    prepared.times.read_om = MillisSince(start);
    return prepared;
  }
  GE_ASSIGN_OR_RETURN(ComputeGraphPtr graph, ParseGraph(source, options));
  prepared.times.parse = MillisSince(start);
  const std::map<std::string, std::string> compile = CompileOptionsOf(options);
  GE_ASSIGN_OR_RETURN(const bool run_time_dims, LeavesDimsToRunTime(*graph, compile));
  if (run_time_dims) {
    // Compiling changes the graph it is given; the copy shares the weights.
    GE_ASSIGN_OR_RETURN(prepared.graph_for_plans, GraphUtils::CopyComputeGraph(graph));
  }
  GE_ASSIGN_OR_RETURN(prepared.model, CompileGraph(graph, compile, options, prepared.times.parse,
                                                   prepared.times.compile, last_stage));
  return prepared;
}

std::string TraceEventsJson(const std::vector<TaskTiming>& tasks, double run_start_us,
                            int64_t pid) {
  nlohmann::json events = nlohmann::json::array();
  double end_us = 0;
  for (const TaskTiming& t : tasks) end_us = std::max(end_us, t.start_us + t.duration_us);
  nlohmann::json run = nlohmann::json::object();
  run["name"] = "run";
  run["cat"] = "Session";
  run["ph"] = "X";
  run["ts"] = run_start_us;
  run["dur"] = end_us;
  run["pid"] = pid;
  run["tid"] = 0;
  events.push_back(std::move(run));
  for (const TaskTiming& t : tasks) {
    nlohmann::json e = nlohmann::json::object();
    e["name"] = t.name;
    e["cat"] = "Node";
    e["ph"] = "X";
    e["ts"] = run_start_us + t.start_us;
    e["dur"] = t.duration_us;
    e["pid"] = pid;
    e["tid"] = t.stream + 1;  // row 0 is the run's
    e["args"]["op_name"] = t.type;
    e["args"]["stream"] = t.stream;
    e["args"]["threads"] = t.threads;
    if (t.predicted_us >= 0) e["args"]["predicted_us"] = t.predicted_us;
    events.push_back(std::move(e));
  }
  return events.dump();
}

}  // namespace ge
