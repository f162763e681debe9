// Compiling, loading and running models for the Python module.
#include "sessions.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "arrays.h"
#include "errors.h"
#include "ge/compiler/compile_options.h"
#include "ge/compiler/compiler.h"
#include "ge/compiler/memory_plan_json.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/parser/onnx_parser.h"
#include "model_source.h"

namespace openge_py {
namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

ge::Result<CompiledModelHandle> Compile(const ModelSource& source,
                                        const std::map<std::string, std::vector<int64_t>>& shapes,
                                        std::map<std::string, std::string> options) {
  CompiledModelHandle handle;
  if (IsCompiled(source)) {
    if (!shapes.empty()) {
      return ge::ParamInvalid(
          "input_shapes: a compiled model's shapes were fixed when it was "
          "compiled; compile its .onnx again to change them");
    }
    auto start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(ge::CompiledModel model,
                        source.path.empty() ? ge::CompiledModel::Deserialize(source.bytes)
                                            : ge::CompiledModel::LoadFromFile(source.path));
    handle.parse_millis = MillisSince(start);
    handle.model = std::make_shared<const ge::CompiledModel>(std::move(model));
    return handle;
  }
  ge::OnnxParseOptions parse;
  parse.input_shapes = shapes;
  if (!shapes.empty()) {
    std::string text;
    for (const auto& [name, dims] : shapes) {
      text += (text.empty() ? "" : ";") + name + ":";
      for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
    }
    options[ge::kOptInputShape] = text;
  }
  auto start = std::chrono::steady_clock::now();
  GE_ASSIGN_OR_RETURN(ge::ComputeGraphPtr graph, ParseGraph(source, parse));
  handle.parse_millis = MillisSince(start);
  GE_ASSIGN_OR_RETURN(std::vector<ge::IoInfo> inputs, ge::GraphInputs(*graph));
  const bool run_time_dims = std::any_of(inputs.begin(), inputs.end(), [](const ge::IoInfo& i) {
    return std::any_of(i.dims.begin(), i.dims.end(), [](int64_t d) { return d < 0; });
  });
  if (run_time_dims && shapes.empty()) {
    // The copy shares the weights; compiling changes only the graph given to it.
    GE_ASSIGN_OR_RETURN(handle.graph_for_plans, ge::GraphUtils::CopyComputeGraph(graph));
    handle.options = options;
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ge::Compiler> compiler, ge::Compiler::Create(options));
  start = std::chrono::steady_clock::now();
  GE_ASSIGN_OR_RETURN(ge::CompiledModel model, compiler->Compile(graph));
  handle.compile_millis = MillisSince(start);
  model.report.parse_millis = handle.parse_millis;
  handle.model = std::make_shared<const ge::CompiledModel>(std::move(model));
  return handle;
}

// The model's names of an input's symbolic dims ("" for a dim that is known or anonymous).
std::vector<std::string> SymbolicDims(const ge::CompiledModel& model, const std::string& input) {
  std::vector<std::string> names;
  if (model.graph == nullptr) return names;
  for (const ge::NodePtr& node : model.graph->GetDirectNode()) {
    if (node->GetName() != input || node->GetOpDesc()->GetOutputsSize() == 0) continue;
    (void)ge::AttrUtils::GetListStr(node->GetOpDesc()->GetOutputDesc(0), ge::kAttrSymbolicDims,
                                    names);
    break;
  }
  return names;
}

ErrorKind RunErrorKind(const ge::Status& status) {
  return status.code() == ge::StatusCode::kParamInvalid ? ErrorKind::kInput : ErrorKind::kError;
}

// The index of the model's input or output `name` (`what`: "input" or "output"); an unknown name
// is an InputError listing the model's names.
size_t IndexOf(const std::map<std::string, size_t>& index, const std::vector<ge::IoInfo>& io,
               const std::string& name, const char* what) {
  auto it = index.find(name);
  if (it != index.end()) return it->second;
  std::string known;
  for (const ge::IoInfo& i : io) known += (known.empty() ? "" : ", ") + i.name;
  throw BindingError(ErrorKind::kInput, std::string(what) + " '" + name + "' is not an " + what +
                                            " of this model; its " + what + "s are: " + known);
}

}  // namespace

CompiledModelHandle CompileModel(const py::object& model,
                                 const std::map<std::string, std::vector<int64_t>>& input_shapes,
                                 const std::map<std::string, std::string>& options) {
  const ModelSource source = SourceOf(model);
  ge::Result<CompiledModelHandle> handle = ge::InternalError("not compiled");
  {
    py::gil_scoped_release no_gil;
    handle = Compile(source, input_shapes, options);
  }
  return ValueOrThrow(std::move(handle), ErrorKind::kModel);
}

py::list DescribeIo(const ge::CompiledModel& model, const std::vector<ge::IoInfo>& io,
                    bool inputs) {
  py::list list;
  for (const ge::IoInfo& info : io) {
    const std::vector<std::string> symbolic =
        inputs ? SymbolicDims(model, info.name) : std::vector<std::string>{};
    py::list shape;
    for (size_t d = 0; d < info.dims.size(); ++d) {
      if (info.dims[d] >= 0) {
        shape.append(info.dims[d]);
      } else if (d < symbolic.size() && !symbolic[d].empty()) {
        shape.append(symbolic[d]);
      } else {
        shape.append(py::none());
      }
    }
    py::dict d;
    d["name"] = info.name;
    d["type"] = OnnxTypeName(info.dtype);
    const std::optional<py::dtype> dtype = NumpyDtypeOf(info.dtype);
    d["dtype"] = dtype ? py::object(*dtype) : py::none();
    // Unknown rank: ONNX Runtime gives no dims at all as well.
    d["shape"] = shape;
    d["has_default"] = info.default_value != nullptr;
    list.append(d);
  }
  return list;
}

std::map<std::string, std::string> MemoryPlansJson(const ge::CompiledModel& model) {
  std::map<std::string, std::string> plans;
  for (const auto& [graph, plan] : model.plans) plans[graph] = ge::memory::MemoryPlanToJson(plan);
  return plans;
}

SessionHandle::SessionHandle(const CompiledModelHandle& compiled, int threads,
                             int max_concurrent_runs, int64_t max_memory_bytes,
                             const std::map<std::string, std::string>& options)
    : compiled_(compiled) {
  if (compiled.model == nullptr) throw BindingError(ErrorKind::kModel, "no compiled model");
  ge::RuntimeOptions runtime;
  runtime.options = options;
  runtime.threads = threads;
  runtime.max_concurrent_runs = max_concurrent_runs;
  runtime.max_memory_bytes = max_memory_bytes;
  ge::Result<std::unique_ptr<ge::Model>> loaded = ge::InternalError("not loaded");
  {
    py::gil_scoped_release no_gil;
    loaded = ge::Model::Load(*compiled.model, runtime);
  }
  model_ = ValueOrThrow(std::move(loaded), ErrorKind::kModel);
  if (compiled.graph_for_plans != nullptr) {
    ge::Result<std::unique_ptr<ge::ShapePlanCache>> cache = ge::InternalError("not made");
    {
      py::gil_scoped_release no_gil;
      cache = ge::ShapePlanCache::Create(compiled.graph_for_plans, compiled.options, runtime);
    }
    plans_ = ValueOrThrow(std::move(cache), ErrorKind::kModel);
    if (!plans_->specializes()) plans_.reset();  // the loaded model runs every shape
  }
  for (size_t i = 0; i < model_->inputs().size(); ++i) input_index_[model_->inputs()[i].name] = i;
  for (size_t i = 0; i < model_->outputs().size(); ++i) {
    output_index_[model_->outputs()[i].name] = i;
  }
}

py::list SessionHandle::Inputs() const {
  return DescribeIo(*compiled_.model, model_->inputs(), true);
}

py::list SessionHandle::Outputs() const {
  return DescribeIo(*compiled_.model, model_->outputs(), false);
}

py::list SessionHandle::Run(const py::dict& feeds, const py::object& output_names) {
  std::vector<size_t> wanted;
  if (output_names.is_none()) {
    for (size_t i = 0; i < model_->outputs().size(); ++i) wanted.push_back(i);
  } else {
    for (const py::handle& name : output_names) {
      wanted.push_back(IndexOf(output_index_, model_->outputs(), py::str(name), "output"));
    }
  }
  std::map<std::string, ge::GeTensor> inputs;
  for (const auto& [key, value] : feeds) {
    const auto name = py::str(key).cast<std::string>();
    const size_t index = IndexOf(input_index_, model_->inputs(), name, "input");
    InputTensor input = TensorFromValue(value, name, model_->inputs()[index].dtype);
    if (input.copied) ++input_copies_;
    inputs.emplace(name, std::move(input.tensor));
  }
  ge::Result<std::map<std::string, ge::GeTensor>> outputs = ge::InternalError("not run");
  {
    py::gil_scoped_release no_gil;
    outputs = plans_ != nullptr ? RunPlan(inputs) : model_->Run(inputs);
    inputs.clear();  // the borrowed arrays are let go (under the GIL, taken by the deleter)
  }
  if (!outputs.ok()) ThrowIfError(outputs.status(), RunErrorKind(outputs.status()));
  py::list result;
  // How many more times each output is asked for: the last ask takes the bytes, earlier ones copy.
  std::vector<int> remaining(model_->outputs().size(), 0);
  for (size_t index : wanted) ++remaining[index];
  for (size_t index : wanted) {
    const std::string& name = model_->outputs()[index].name;
    auto it = outputs->find(name);
    if (it == outputs->end()) {
      throw BindingError(ErrorKind::kError, "the run returned no output '" + name + "'");
    }
    result.append(--remaining[index] > 0 ? ArrayFromTensor(it->second, name)
                                         : ArrayFromTensor(std::move(it->second), name));
  }
  return result;
}

ge::Result<std::map<std::string, ge::GeTensor>> SessionHandle::RunPlan(
    const std::map<std::string, ge::GeTensor>& inputs) {
  std::vector<ge::GeTensor> ordered;
  for (const ge::IoInfo& info : plans_->inputs()) {
    auto it = inputs.find(info.name);
    if (it != inputs.end()) {
      ordered.push_back(it->second);
    } else if (info.default_value != nullptr) {
      ordered.push_back(*info.default_value);  // shares the default's bytes
    } else {
      return ge::ParamInvalid("Run: input '" + info.name +
                              "' is not given (it has no default value)");
    }
  }
  GE_ASSIGN_OR_RETURN(ge::ShapePlan plan, plans_->PlanFor(ordered));
  plan.model()->EnableProfiling(profiling_.load());
  GE_ASSIGN_OR_RETURN(std::vector<ge::GeTensor> outputs, plan.Run(ordered));
  {
    std::lock_guard<std::mutex> lock(last_mutex_);
    last_plan_ = plan.model();
  }
  const std::vector<ge::IoInfo>& names = plan.model()->outputs();
  if (names.size() != outputs.size()) {
    return ge::InternalError("the plan for " + plan.shapes() + " returned " +
                             std::to_string(outputs.size()) + " outputs for " +
                             std::to_string(names.size()) + " names");
  }
  std::map<std::string, ge::GeTensor> named;
  for (size_t i = 0; i < outputs.size(); ++i) named.emplace(names[i].name, std::move(outputs[i]));
  return named;
}

void SessionHandle::SetProfiling(bool on) {
  profiling_ = on;
  model_->EnableProfiling(on);
  std::lock_guard<std::mutex> lock(last_mutex_);
  if (last_plan_ != nullptr) last_plan_->EnableProfiling(on);
}

py::dict SessionHandle::ShapePlans() const {
  py::dict d;
  d["specializes"] = plans_ != nullptr;
  const ge::ShapePlanStats stats = plans_ != nullptr ? plans_->Stats() : ge::ShapePlanStats{};
  d["hits"] = stats.hits;
  d["misses"] = stats.misses;
  d["padded"] = stats.padded;
  d["evictions"] = stats.evictions;
  d["bytes"] = stats.bytes;
  d["specialize_ms"] = stats.specialize_millis;
  py::list plans;
  for (const ge::ShapePlanInfo& info : stats.plans) {
    py::dict p;
    p["shapes"] = info.shapes;
    p["runs"] = info.runs;
    p["compile_ms"] = info.compile_millis;
    p["load_ms"] = info.load_millis;
    p["bytes"] = info.bytes;
    p["dynamic"] = info.dynamic;
    p["error"] = info.error;
    plans.append(p);
  }
  d["plans"] = plans;
  return d;
}

py::list SessionHandle::LastProfile() const {
  py::list tasks;
  std::shared_ptr<ge::Model> last;
  {
    std::lock_guard<std::mutex> lock(last_mutex_);
    last = last_plan_;
  }
  for (const ge::TaskTiming& t : last != nullptr ? last->LastProfile() : model_->LastProfile()) {
    py::dict d;
    d["name"] = t.name;
    d["type"] = t.type;
    d["stream"] = t.stream;
    d["start_us"] = t.start_us;
    d["duration_us"] = t.duration_us;
    tasks.append(d);
  }
  return tasks;
}

py::dict SessionHandle::Memory() const {
  py::dict d;
  d["arena_bytes"] = model_->arena_bytes();
  d["weight_bytes"] = model_->weight_bytes();
  d["workspace_bytes"] = model_->workspace_bytes();
  d["run_contexts"] = model_->run_contexts();
  d["streams"] = model_->execution().streams;
  return d;
}

CompiledModelHandle SessionHandle::Compiled() const { return compiled_; }

}  // namespace openge_py
