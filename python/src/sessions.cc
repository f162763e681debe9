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

// A model as read for compiling: an ONNX model parsed, with the compile options `shapes` add
// (ge.inputShape); a .om read whole into `compiled`.
struct Opened {
  CompiledModelHandle compiled;  // model set for a .om
  ge::ComputeGraphPtr graph;     // an ONNX model's graph
  std::map<std::string, std::string> options;
  bool run_time_dims = false;  // some input dim is left to run time and no shape fixes it
};

ge::Result<Opened> Open(const ModelSource& source,
                        const std::map<std::string, std::vector<int64_t>>& shapes,
                        std::map<std::string, std::string> options) {
  Opened opened;
  CompiledModelHandle& handle = opened.compiled;
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
    return opened;
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
  GE_ASSIGN_OR_RETURN(opened.graph, ParseGraph(source, parse));
  handle.parse_millis = MillisSince(start);
  GE_ASSIGN_OR_RETURN(std::vector<ge::IoInfo> inputs, ge::GraphInputs(*opened.graph));
  opened.run_time_dims =
      shapes.empty() && std::any_of(inputs.begin(), inputs.end(), [](const ge::IoInfo& i) {
        return std::any_of(i.dims.begin(), i.dims.end(), [](int64_t d) { return d < 0; });
      });
  opened.options = std::move(options);
  return opened;
}

// Compiles what Open read (a .om is compiled already). A model with run-time dims also keeps a
// copy of its graph for the sessions made from it, which compile it per set of input shapes.
ge::Result<CompiledModelHandle> Compile(Opened opened) {
  CompiledModelHandle handle = std::move(opened.compiled);
  if (handle.model != nullptr) return handle;
  if (opened.run_time_dims) {
    // The copy shares the weights; compiling changes only the graph given to it.
    GE_ASSIGN_OR_RETURN(handle.graph_for_plans, ge::GraphUtils::CopyComputeGraph(opened.graph));
    handle.options = opened.options;
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ge::Compiler> compiler, ge::Compiler::Create(opened.options));
  auto start = std::chrono::steady_clock::now();
  GE_ASSIGN_OR_RETURN(ge::CompiledModel model, compiler->Compile(opened.graph));
  handle.compile_millis = MillisSince(start);
  model.report.parse_millis = handle.parse_millis;
  handle.model = std::make_shared<const ge::CompiledModel>(std::move(model));
  return handle;
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
    ge::Result<Opened> opened = Open(source, input_shapes, options);
    handle = opened.ok() ? Compile(std::move(opened).value())
                         : ge::Result<CompiledModelHandle>(opened.status());
  }
  return ValueOrThrow(std::move(handle), ErrorKind::kModel);
}

py::list DescribeIo(const std::vector<ge::IoInfo>& io) {
  py::list list;
  for (const ge::IoInfo& info : io) {
    py::list shape;
    for (size_t d = 0; d < info.dims.size(); ++d) {
      if (info.dims[d] >= 0) {
        shape.append(info.dims[d]);
      } else if (d < info.dim_names.size() && !info.dim_names[d].empty()) {
        shape.append(info.dim_names[d]);
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

namespace {

ge::RuntimeOptions RuntimeOf(int threads, int max_concurrent_runs, int64_t max_memory_bytes,
                             const std::map<std::string, std::string>& options) {
  ge::RuntimeOptions runtime;
  runtime.options = options;
  runtime.threads = threads;
  runtime.max_concurrent_runs = max_concurrent_runs;
  runtime.max_memory_bytes = max_memory_bytes;
  return runtime;
}

}  // namespace

SessionHandle::SessionHandle(const CompiledModelHandle& compiled, int threads,
                             int max_concurrent_runs, int64_t max_memory_bytes,
                             const std::map<std::string, std::string>& options)
    : compiled_(compiled) {
  if (compiled.model == nullptr) throw BindingError(ErrorKind::kModel, "no compiled model");
  const ge::RuntimeOptions runtime =
      RuntimeOf(threads, max_concurrent_runs, max_memory_bytes, options);
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
  IndexNames();
}

std::unique_ptr<SessionHandle> SessionHandle::Open(
    const py::object& model, const std::map<std::string, std::vector<int64_t>>& input_shapes,
    const std::map<std::string, std::string>& compile_options, int threads, int max_concurrent_runs,
    int64_t max_memory_bytes) {
  const ModelSource source = SourceOf(model);
  const ge::RuntimeOptions runtime = RuntimeOf(threads, max_concurrent_runs, max_memory_bytes, {});
  // The model is planned for the threads it runs with, unless the options say otherwise: the
  // cost model's thread counts, and the kernels the engines prepare for them.
  std::map<std::string, std::string> options = compile_options;
  if (threads > 0) options.emplace(ge::kOptScheduleThreads, std::to_string(threads));
  ge::Result<Opened> opened = ge::InternalError("not opened");
  ge::Result<std::unique_ptr<ge::ShapePlanCache>> cache = ge::InternalError("not made");
  {
    py::gil_scoped_release no_gil;
    opened = openge_py::Open(source, input_shapes, options);
    if (opened.ok() && opened->run_time_dims) {
      // The cache alone holds the graph: it drops the weights it copies again per plan.
      cache = ge::ShapePlanCache::Create(std::move(opened->graph), opened->options, runtime);
    }
  }
  Opened read = ValueOrThrow(std::move(opened), ErrorKind::kModel);
  if (!read.run_time_dims) {
    ge::Result<CompiledModelHandle> compiled = ge::InternalError("not compiled");
    {
      py::gil_scoped_release no_gil;
      compiled = Compile(std::move(read));
    }
    return std::make_unique<SessionHandle>(ValueOrThrow(std::move(compiled), ErrorKind::kModel),
                                           threads, max_concurrent_runs, max_memory_bytes,
                                           std::map<std::string, std::string>{});
  }
  std::unique_ptr<ge::ShapePlanCache> plans = ValueOrThrow(std::move(cache), ErrorKind::kModel);
  CompiledModelHandle about = std::move(read.compiled);
  if (plans->specializes()) {
    return std::unique_ptr<SessionHandle>(new SessionHandle(std::move(plans), std::move(about)));
  }
  // One plan for every shape (state across runs, or openge.shapePlanCacheEntries=0): the model
  // compiled for any shape runs.
  ge::Result<ge::CompiledModel> any_shape = ge::InternalError("not compiled");
  {
    py::gil_scoped_release no_gil;
    any_shape = plans->CompileForAnyShape();
  }
  about.model = std::make_shared<const ge::CompiledModel>(
      ValueOrThrow(std::move(any_shape), ErrorKind::kModel));
  return std::make_unique<SessionHandle>(about, threads, max_concurrent_runs, max_memory_bytes,
                                         std::map<std::string, std::string>{});
}

SessionHandle::SessionHandle(std::unique_ptr<ge::ShapePlanCache> plans, CompiledModelHandle about)
    : plans_(std::move(plans)), compiled_(std::move(about)) {
  IndexNames();
}

void SessionHandle::IndexNames() {
  for (size_t i = 0; i < InputInfo().size(); ++i) input_index_[InputInfo()[i].name] = i;
  for (size_t i = 0; i < OutputInfo().size(); ++i) output_index_[OutputInfo()[i].name] = i;
}

const std::vector<ge::IoInfo>& SessionHandle::InputInfo() const {
  return model_ != nullptr ? model_->inputs() : plans_->inputs();
}

const std::vector<ge::IoInfo>& SessionHandle::OutputInfo() const {
  return model_ != nullptr ? model_->outputs() : plans_->outputs();
}

py::list SessionHandle::Inputs() const { return DescribeIo(InputInfo()); }

py::list SessionHandle::Outputs() const { return DescribeIo(OutputInfo()); }

py::list SessionHandle::Run(const py::dict& feeds, const py::object& output_names) {
  std::vector<size_t> wanted;
  if (output_names.is_none()) {
    for (size_t i = 0; i < OutputInfo().size(); ++i) wanted.push_back(i);
  } else {
    for (const py::handle& name : output_names) {
      wanted.push_back(IndexOf(output_index_, OutputInfo(), py::str(name), "output"));
    }
  }
  std::map<std::string, ge::GeTensor> inputs;
  for (const auto& [key, value] : feeds) {
    const auto name = py::str(key).cast<std::string>();
    const size_t index = IndexOf(input_index_, InputInfo(), name, "input");
    InputTensor input = TensorFromValue(value, name, InputInfo()[index].dtype);
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
  std::vector<int> remaining(OutputInfo().size(), 0);
  for (size_t index : wanted) ++remaining[index];
  for (size_t index : wanted) {
    const std::string& name = OutputInfo()[index].name;
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
  if (model_ != nullptr) model_->EnableProfiling(on);
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
  const std::vector<ge::TaskTiming> timings = last != nullptr     ? last->LastProfile()
                                              : model_ != nullptr ? model_->LastProfile()
                                                                  : std::vector<ge::TaskTiming>{};
  for (const ge::TaskTiming& t : timings) {
    py::dict d;
    d["name"] = t.name;
    d["type"] = t.type;
    d["stream"] = t.stream;
    d["start_us"] = t.start_us;
    d["duration_us"] = t.duration_us;
    d["threads"] = t.threads;
    if (t.predicted_us >= 0) d["predicted_us"] = t.predicted_us;
    tasks.append(d);
  }
  return tasks;
}

py::dict SessionHandle::Memory() const {
  // A session that runs plans only: what the plan of the last run holds.
  std::shared_ptr<ge::Model> last;
  if (model_ == nullptr) {
    std::lock_guard<std::mutex> lock(last_mutex_);
    last = last_plan_;
  }
  const ge::Model* model = model_ != nullptr ? model_.get() : last.get();
  py::dict d;
  d["arena_bytes"] = model != nullptr ? model->arena_bytes() : 0;
  d["weight_bytes"] = model != nullptr ? model->weight_bytes() : 0;
  d["workspace_bytes"] = model != nullptr ? model->workspace_bytes() : 0;
  d["loaded_weight_bytes"] = model != nullptr ? model->loaded_weight_bytes() : 0;
  d["run_contexts"] = model != nullptr ? model->run_contexts() : 0;
  d["streams"] = model != nullptr ? model->execution().streams : 0;
  return d;
}

CompiledModelHandle SessionHandle::Compiled() {
  std::lock_guard<std::mutex> lock(compiled_mutex_);
  if (compiled_.model == nullptr) {
    ge::Result<ge::CompiledModel> any_shape = ge::InternalError("not compiled");
    {
      py::gil_scoped_release no_gil;
      any_shape = plans_->CompileForAnyShape();
    }
    compiled_.model = std::make_shared<const ge::CompiledModel>(
        ValueOrThrow(std::move(any_shape), ErrorKind::kModel));
  }
  return compiled_;
}

}  // namespace openge_py
