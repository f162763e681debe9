// The fuzz targets (see fuzz_targets.h).
#include "fuzz_targets.h"

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "ge/compiler/compiler.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/serialize/graph_dump.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/model/pipeline_model.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "ge/runtime/npy.h"
#include "ge/runtime/pipeline_run.h"

namespace ge::fuzz {
namespace {

// Bounds that keep one input quick; a model asking for more is refused by the runtime, which is
// what the runtime must do. The targets that compile or run several models at once get the
// tighter limit.
constexpr int64_t kMaxMemoryBytes = int64_t{256} << 20;
constexpr int64_t kTightMemoryBytes = int64_t{64} << 20;
constexpr int64_t kMaxInputBytes = int64_t{4} << 20;

[[noreturn]] void Finding(const char* target, const char* what, const Status& status) {
  std::fprintf(stderr, "fuzz target %s: %s: %s\n", target, what, status.ToString().c_str());
  std::abort();
}

// A refusal must say why.
void ExpectMessage(const char* target, const char* what, const Status& status) {
  if (!status.ok() && status.message().empty()) Finding(target, what, status);
}

std::map<std::string, std::string> EngineOptions() {
  return {{"ge.enginePluginPath", OPENGE_FUZZ_ENGINE_DIR}};
}

// One compiler for every input: creating it loads the operator libraries and engine plugins.
Compiler& SharedCompiler() {
  static std::unique_ptr<Compiler> compiler = [] {
    Result<std::unique_ptr<Compiler>> made = Compiler::Create(EngineOptions());
    if (!made.ok()) Finding("compile", "the compiler cannot be created", made.status());
    return std::move(made).value();
  }();
  return *compiler;
}

// An empty directory for external data lookups: a fuzzed model finds no file there.
const std::string& EmptyDir() {
  static const std::string dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "openge_fuzz_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      Finding("onnx_parse", "no temporary directory", Status::Ok());
    return pattern;
  }();
  return dir;
}

// Small deterministic values of `dtype` and `dims` (every unknown dim 2).
Result<GeTensor> MakeInput(const std::string& name, DataType dtype, std::vector<int64_t> dims) {
  if (dims.size() == 1 && dims[0] == UNKNOWN_DIM_NUM) dims = {2};
  for (int64_t& d : dims) d = d < 0 ? 2 : d;
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  const int64_t bytes = TensorUtils::CalcTensorMemSize(desc);
  if (bytes < 0 || bytes > kMaxInputBytes) {
    return ParamInvalid("input '" + name + "' is too large to make");
  }
  std::vector<uint8_t> data(static_cast<size_t>(bytes));
  const int element = TypeUtils::GetSizeByDataType(dtype);
  for (size_t i = 0; i < data.size(); ++i) {
    // Bytes that read as small values whatever the type: 0 or 1 in every element's low byte.
    data[i] =
        element > 0 && i % static_cast<size_t>(element) == 0 ? static_cast<uint8_t>(i & 1) : 0;
  }
  return GeTensor(desc, std::move(data));
}

// Values for an input: its default when it has one, else small deterministic numbers.
Result<GeTensor> InputFor(const IoInfo& info) {
  if (info.default_value != nullptr) return *info.default_value;
  return MakeInput(info.name, info.dtype, info.dims);
}

RuntimeOptions RunOptions(int64_t max_memory_bytes) {
  RuntimeOptions options;
  options.options = EngineOptions();
  options.threads = 1;
  options.max_memory_bytes = max_memory_bytes;
  return options;
}

// Loads `compiled` and runs it on inputs made for it: true when it ran.
bool LoadAndRun(const char* target, CompiledModel compiled, int64_t max_memory_bytes) {
  Result<std::unique_ptr<LoadedModel>> model =
      LoadedModel::Load(std::move(compiled), RunOptions(max_memory_bytes));
  if (!model.ok()) {
    ExpectMessage(target, "a model load failed without a message", model.status());
    return false;
  }
  std::vector<GeTensor> inputs;
  for (const IoInfo& info : (*model)->inputs()) {
    Result<GeTensor> input = InputFor(info);
    if (!input.ok()) return false;  // the harness's bound, not a finding
    inputs.push_back(std::move(input).value());
  }
  Result<std::vector<GeTensor>> outputs = (*model)->Run(inputs);
  if (!outputs.ok()) {
    ExpectMessage(target, "a run failed without a message", outputs.status());
    return false;
  }
  if (outputs->size() != (*model)->outputs().size()) {
    Finding(target, "a run gave a different number of outputs than the model declares",
            Status::Ok());
  }
  return true;
}

}  // namespace

bool GeLoad(std::string_view bytes) {
  bool loaded = false;
  for (SerializeFormat format : {SerializeFormat::kBinary, SerializeFormat::kText}) {
    Result<ComputeGraphPtr> graph = ModelSerialize::Deserialize(bytes, format);
    if (!graph.ok()) {
      ExpectMessage("ge_load", "a load failed without a message", graph.status());
      continue;
    }
    const Status verified = GraphVerifier::Verify(**graph);
    if (!verified.ok()) Finding("ge_load", "a loaded graph fails GraphVerifier", verified);
    Result<std::string> saved = ModelSerialize::Serialize(**graph);
    if (!saved.ok()) Finding("ge_load", "a loaded graph does not save", saved.status());
    Result<ComputeGraphPtr> again = ModelSerialize::Deserialize(*saved);
    if (!again.ok()) Finding("ge_load", "a saved graph does not load", again.status());
    Result<std::string> resaved = ModelSerialize::Serialize(**again);
    if (!resaved.ok()) Finding("ge_load", "a reloaded graph does not save", resaved.status());
    if (*resaved != *saved)
      Finding("ge_load", "save(load(save(g))) differs from save(g)", Status::Ok());
    (void)GraphDump::ToDot(**graph);
    (void)GraphDump::ToJson(**graph);
    loaded = true;
  }
  return loaded;
}

bool OnnxParse(std::string_view bytes) {
  Result<ComputeGraphPtr> graph = ParseOnnxBytes(std::string(bytes), EmptyDir(), "fuzz.onnx");
  if (!graph.ok()) {
    ExpectMessage("onnx_parse", "a parse failed without a message", graph.status());
    return false;
  }
  const Status verified = GraphVerifier::Verify(**graph);
  if (!verified.ok()) Finding("onnx_parse", "a parsed graph fails GraphVerifier", verified);
  Result<CompiledModel> compiled = SharedCompiler().Compile(*graph);
  if (!compiled.ok()) {
    ExpectMessage("onnx_parse", "a compile failed without a message", compiled.status());
    return false;
  }
  Result<std::string> saved = compiled->Serialize();
  if (!saved.ok()) Finding("onnx_parse", "a compiled model does not save", saved.status());
  return true;
}

bool OmRun(std::string_view bytes) {
  Result<CompiledModel> compiled = CompiledModel::Deserialize(bytes);
  if (!compiled.ok()) {
    ExpectMessage("om_run", "a load failed without a message", compiled.status());
    return false;
  }
  return LoadAndRun("om_run", std::move(compiled).value(), kMaxMemoryBytes);
}

bool GeRun(std::string_view bytes) {
  // The first format the bytes load in (a file is one or the other, and both load rarely).
  Result<ComputeGraphPtr> graph = ParamInvalid("not loaded");
  for (SerializeFormat format : {SerializeFormat::kBinary, SerializeFormat::kText}) {
    graph = ModelSerialize::Deserialize(bytes, format);
    if (graph.ok()) break;
    ExpectMessage("ge_run", "a load failed without a message", graph.status());
  }
  if (!graph.ok()) return false;
  Result<CompiledModel> compiled = SharedCompiler().Compile(*graph);
  if (!compiled.ok()) {
    ExpectMessage("ge_run", "a compile failed without a message", compiled.status());
    return false;
  }
  return LoadAndRun("ge_run", std::move(compiled).value(), kTightMemoryBytes);
}

bool PipelineRun(std::string_view bytes) {
  Result<PipelineModel> pipeline = PipelineModel::Deserialize(bytes);
  if (!pipeline.ok()) {
    ExpectMessage("pipeline_run", "a load failed without a message", pipeline.status());
    return false;
  }
  Result<std::unique_ptr<PipelineStages>> stages =
      PipelineStages::Load(std::move(pipeline).value(), RunOptions(kTightMemoryBytes));
  if (!stages.ok()) {
    ExpectMessage("pipeline_run", "a stage load failed without a message", stages.status());
    return false;
  }
  const PipelineModel& loaded = (*stages)->pipeline();
  std::vector<GeTensor> inputs;
  for (const std::string& name : loaded.inputs) {
    const PipelineTensor* tensor = loaded.Tensor(name);
    if (tensor == nullptr) {
      Finding("pipeline_run", "a loaded pipeline's input is not in its manifest", Status::Ok());
    }
    Result<GeTensor> input = MakeInput(name, tensor->dtype, tensor->dims);
    if (!input.ok()) return false;  // the harness's bound, not a finding
    inputs.push_back(std::move(input).value());
  }
  Result<std::vector<GeTensor>> outputs = (*stages)->Run(inputs);
  if (!outputs.ok()) {
    ExpectMessage("pipeline_run", "a run failed without a message", outputs.status());
    return false;
  }
  if (outputs->size() != loaded.outputs.size()) {
    Finding("pipeline_run", "a run gave a different number of outputs than the manifest names",
            Status::Ok());
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    const PipelineTensor* want = loaded.Tensor(loaded.outputs[i]);
    const GeTensorDesc& got = (*outputs)[i].GetTensorDesc();
    if (want == nullptr || got.GetDataType() != want->dtype ||
        got.GetShape().GetDims() != want->dims) {
      Finding("pipeline_run", "an output differs from the manifest in dtype or shape",
              Status::Ok());
    }
  }
  return true;
}

bool Npy(std::string_view bytes) {
  Result<GeTensor> parsed = ParseNpy(std::string(bytes), "fuzz.npy");
  if (!parsed.ok()) {
    ExpectMessage("npy", "a parse failed without a message", parsed.status());
    return false;
  }
  Result<std::string> written = SerializeNpy(*parsed);
  if (!written.ok()) Finding("npy", "a parsed array does not serialize", written.status());
  Result<GeTensor> again = ParseNpy(*written, "fuzz.npy");
  if (!again.ok()) Finding("npy", "a serialized array does not parse", again.status());
  if (again->GetTensorDesc().GetShape().GetDims() != parsed->GetTensorDesc().GetShape().GetDims() ||
      again->GetTensorDesc().GetDataType() != parsed->GetTensorDesc().GetDataType() ||
      again->GetSize() != parsed->GetSize() ||
      (parsed->GetSize() != 0 &&
       std::memcmp(again->GetData().data(), parsed->GetData().data(), parsed->GetSize()) != 0)) {
    Finding("npy", "parse(serialize(a)) differs from a", Status::Ok());
  }
  return true;
}

namespace {

// Two stored values are the same when their items are: dtype, dims and bytes, nested alike.
bool SameComposite(const CompositeValue& a, const CompositeValue& b) {
  if (a.kind != b.kind || a.items.size() != b.items.size()) return false;
  for (size_t i = 0; i < a.items.size(); ++i) {
    const GeTensor& x = a.items[i];
    const GeTensor& y = b.items[i];
    if (x.GetTensorDesc().GetDataType() != y.GetTensorDesc().GetDataType() ||
        x.GetTensorDesc().GetShape().GetDims() != y.GetTensorDesc().GetShape().GetDims()) {
      return false;
    }
    if (x.GetTensorDesc().GetDataType() == DT_VARIANT) {
      Result<CompositeValue> xa = LoadComposite(x, "x");
      Result<CompositeValue> ya = LoadComposite(y, "y");
      if (!xa.ok() || !ya.ok() || !SameComposite(*xa, *ya)) return false;
    } else if (x.GetTensorDesc().GetDataType() == DT_STRING) {
      Result<std::vector<std::string_view>> xs = StringsOf(x, "x");
      Result<std::vector<std::string_view>> ys = StringsOf(y, "y");
      if (!xs.ok() || !ys.ok() || *xs != *ys) return false;
    } else if (x.GetSize() != y.GetSize() ||
               (x.GetSize() != 0 &&
                std::memcmp(x.GetData().data(), y.GetData().data(), x.GetSize()) != 0)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool Values(std::string_view bytes) {
  if (bytes.size() < 2) return false;
  const std::string rest(bytes.substr(2));
  if (bytes[0] % 2 == 0) {
    const auto count = static_cast<int64_t>(static_cast<uint8_t>(bytes[1]) % 16);
    GeTensor t(GeTensorDesc(GeShape({count}), FORMAT_ND, DT_STRING),
               reinterpret_cast<const uint8_t*>(rest.data()), rest.size());
    Result<std::vector<std::string_view>> strings = StringsOf(t, "fuzz strings");
    if (!strings.ok()) {
      ExpectMessage("values", "a string tensor was refused without a message", strings.status());
      return false;
    }
    StringStore store(1 << 20);
    Result<const StringHead*> heads = store.Bind(t.GetData().data(), t.GetSize(), count, "fuzz");
    if (!heads.ok()) Finding("values", "decoded strings do not bind", heads.status());
    for (int64_t i = 0; i < count; ++i) {
      if (ReadString(*heads, i) != (*strings)[static_cast<size_t>(i)]) {
        Finding("values", "a bound string differs from the decoded one", Status::Ok());
      }
    }
    const GeTensor again = StoreStrings(*heads, {count});
    Result<std::vector<std::string_view>> back = StringsOf(again, "fuzz strings again");
    if (!back.ok() || *back != *strings) {
      Finding("values", "stored strings do not read back the same", Status::Ok());
    }
    return true;
  }
  GeTensor t(GeTensorDesc(GeShape(std::vector<int64_t>{}), FORMAT_ND, DT_VARIANT),
             reinterpret_cast<const uint8_t*>(rest.data()), rest.size());
  Result<CompositeValue> value = LoadComposite(t, "fuzz value");
  if (!value.ok()) {
    ExpectMessage("values", "a stored value was refused without a message", value.status());
    return false;
  }
  Result<CompositeValue> again = LoadComposite(StoreComposite(*value), "fuzz value again");
  if (!again.ok()) Finding("values", "a loaded value does not store and load", again.status());
  if (!SameComposite(*value, *again)) {
    Finding("values", "load(store(v)) differs from v", Status::Ok());
  }
  return true;
}

Target FindTarget(std::string_view name) {
  if (name == "ge_load") return GeLoad;
  if (name == "ge_run") return GeRun;
  if (name == "onnx_parse") return OnnxParse;
  if (name == "om_run") return OmRun;
  if (name == "npy") return Npy;
  if (name == "pipeline_run") return PipelineRun;
  if (name == "values") return Values;
  return nullptr;
}

}  // namespace ge::fuzz
