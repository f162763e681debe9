// Compiling, loading and running models for the Python module, through ge::InferenceSession.
#include "sessions.h"

#include <utility>

#include "arrays.h"
#include "errors.h"
#include "ge/compiler/memory_plan_json.h"
#include "model_source.h"

namespace openge_py {
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

ErrorKind RunErrorKind(const ge::Status& status) {
  return status.code() == ge::StatusCode::kParamInvalid ? ErrorKind::kInput : ErrorKind::kError;
}

// Where `name` is among the model's inputs or outputs (`what`: "input" or "output"); an unknown
// name is an InputError listing the model's names.
size_t IndexOf(const std::vector<ge::IoInfo>& io, const std::string& name, const char* what) {
  for (size_t i = 0; i < io.size(); ++i) {
    if (io[i].name == name) return i;
  }
  std::string known;
  for (const ge::IoInfo& i : io) known += (known.empty() ? "" : ", ") + i.name;
  throw BindingError(ErrorKind::kInput, std::string(what) + " '" + name + "' is not an " + what +
                                            " of this model; its " + what + "s are: " + known);
}

}  // namespace

CompiledModelHandle CompileModel(const py::object& model,
                                 const std::map<std::string, std::vector<int64_t>>& input_shapes,
                                 const std::map<std::string, std::string>& options) {
  const ge::ModelSource source = SourceOf(model);
  ge::InferenceOptions inference;
  inference.compile = options;
  inference.input_shapes = input_shapes;
  ge::Result<ge::PreparedModel> prepared = ge::InternalError("not compiled");
  {
    py::gil_scoped_release no_gil;
    prepared = ge::CompileSource(source, inference);
  }
  ge::PreparedModel compiled = ValueOrThrow(std::move(prepared), ErrorKind::kModel);
  CompiledModelHandle handle;
  handle.model = std::make_shared<const ge::CompiledModel>(std::move(compiled.model));
  handle.graph_for_plans = std::move(compiled.graph_for_plans);
  handle.options = options;
  handle.parse_millis = compiled.times.parse + compiled.times.read_om;
  handle.compile_millis = compiled.times.compile;
  return handle;
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
    d["type"] =
        info.value_type.empty() ? OnnxTypeName(info.dtype) : OnnxValueTypeName(info.value_type);
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
  ge::InferenceOptions inference;
  inference.compile = compiled.options;
  inference.runtime = RuntimeOf(threads, max_concurrent_runs, max_memory_bytes, options);
  ge::Result<std::unique_ptr<ge::InferenceSession>> session = ge::InternalError("not loaded");
  {
    py::gil_scoped_release no_gil;
    // The copy shares the graph and weights; sessions of one compiled model share them.
    session = ge::InferenceSession::FromCompiled(*compiled.model, std::move(inference),
                                                 compiled.graph_for_plans);
  }
  session_ = ValueOrThrow(std::move(session), ErrorKind::kModel);
}

SessionHandle::SessionHandle(std::unique_ptr<ge::InferenceSession> session,
                             CompiledModelHandle compiled)
    : session_(std::move(session)), compiled_(std::move(compiled)) {}

std::unique_ptr<SessionHandle> SessionHandle::Open(
    const py::object& model, const std::map<std::string, std::vector<int64_t>>& input_shapes,
    const std::map<std::string, std::string>& compile_options, int threads, int max_concurrent_runs,
    int64_t max_memory_bytes) {
  const ge::ModelSource source = SourceOf(model);
  ge::InferenceOptions inference;
  inference.compile = compile_options;
  inference.input_shapes = input_shapes;
  inference.runtime = RuntimeOf(threads, max_concurrent_runs, max_memory_bytes, {});
  ge::Result<std::unique_ptr<ge::InferenceSession>> opened = ge::InternalError("not opened");
  {
    py::gil_scoped_release no_gil;
    opened = ge::InferenceSession::Open(source, std::move(inference));
  }
  std::unique_ptr<ge::InferenceSession> session =
      ValueOrThrow(std::move(opened), ErrorKind::kModel);
  CompiledModelHandle about;
  about.parse_millis = session->times().parse + session->times().read_om;
  about.compile_millis = session->times().compile;
  return std::unique_ptr<SessionHandle>(new SessionHandle(std::move(session), std::move(about)));
}

py::list SessionHandle::Inputs() const { return DescribeIo(session_->inputs()); }

py::list SessionHandle::Outputs() const { return DescribeIo(session_->outputs()); }

py::list SessionHandle::Run(const py::dict& feeds, const py::object& output_names) {
  const std::vector<ge::IoInfo>& outputs_info = session_->outputs();
  std::vector<size_t> wanted;
  if (output_names.is_none()) {
    for (size_t i = 0; i < outputs_info.size(); ++i) wanted.push_back(i);
  } else {
    for (const py::handle& name : output_names) {
      wanted.push_back(IndexOf(outputs_info, py::str(name), "output"));
    }
  }
  std::map<std::string, ge::GeTensor> inputs;
  for (const auto& [key, value] : feeds) {
    const auto name = py::str(key).cast<std::string>();
    const size_t index = IndexOf(session_->inputs(), name, "input");
    const ge::IoInfo& info = session_->inputs()[index];
    if (info.dtype == ge::DT_VARIANT) {  // a sequence or optional
      ge::Result<ge::ValueType> type = ge::ParseValueType(info.value_type);
      if (!type.ok()) throw BindingError(ErrorKind::kInput, type.status().message());
      inputs.emplace(name, CompositeFromValue(value, name, *type));
      ++input_copies_;
      continue;
    }
    InputTensor input = TensorFromValue(value, name, info.dtype);
    if (input.copied) ++input_copies_;
    inputs.emplace(name, std::move(input.tensor));
  }
  ge::Result<std::map<std::string, ge::GeTensor>> outputs = ge::InternalError("not run");
  {
    py::gil_scoped_release no_gil;
    outputs = session_->Run(inputs);
    inputs.clear();  // the borrowed arrays are let go (under the GIL, taken by the deleter)
  }
  if (!outputs.ok()) ThrowIfError(outputs.status(), RunErrorKind(outputs.status()));
  py::list result;
  // How many more times each output is asked for: the last ask takes the bytes, earlier ones copy.
  std::vector<int> remaining(outputs_info.size(), 0);
  for (size_t index : wanted) ++remaining[index];
  for (size_t index : wanted) {
    const std::string& name = outputs_info[index].name;
    auto it = outputs->find(name);
    if (it == outputs->end()) {
      throw BindingError(ErrorKind::kError, "the run returned no output '" + name + "'");
    }
    result.append(--remaining[index] > 0 ? ValueFromTensor(it->second, name)
                                         : ValueFromTensor(std::move(it->second), name));
  }
  return result;
}

void SessionHandle::SetProfiling(bool on) { session_->EnableProfiling(on); }

py::dict SessionHandle::ShapePlans() const {
  py::dict d;
  d["specializes"] = session_->strategy() == ge::RunStrategy::kShapePlans;
  const ge::ShapePlanStats stats = session_->PlanStats();
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
  for (const ge::TaskTiming& t : session_->LastProfile()) {
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

std::string SessionHandle::TraceEvents(double run_start_us, int64_t pid) const {
  return ge::TraceEventsJson(session_->LastProfile(), run_start_us, pid);
}

py::dict SessionHandle::Memory() const {
  const ge::SessionMemory memory = session_->Memory();
  py::dict d;
  d["arena_bytes"] = memory.arena_bytes;
  d["weight_bytes"] = memory.weight_bytes;
  d["workspace_bytes"] = memory.workspace_bytes;
  d["loaded_weight_bytes"] = memory.loaded_weight_bytes;
  d["run_contexts"] = memory.run_contexts;
  d["streams"] = memory.streams;
  return d;
}

CompiledModelHandle SessionHandle::Compiled() {
  std::lock_guard<std::mutex> lock(compiled_mutex_);
  if (compiled_.model == nullptr) {
    ge::Result<ge::CompiledModel> any_shape = ge::InternalError("not compiled");
    {
      py::gil_scoped_release no_gil;
      any_shape = session_->CompileForAnyShape();
    }
    compiled_.model = std::make_shared<const ge::CompiledModel>(
        ValueOrThrow(std::move(any_shape), ErrorKind::kModel));
  }
  return compiled_;
}

}  // namespace openge_py
