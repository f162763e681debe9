// PipelineModel (ge/model/pipeline_model.h): the manifest as JSON and the stages' .om files in
// one container.
#include "ge/model/pipeline_model.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "compiled_model_file.h"
#include "ge/graph/types.h"
#include "om_file.h"

namespace ge {
namespace {

constexpr int kManifestVersion = 1;
constexpr size_t kMaxStages = 1024;

std::string Damaged(const std::string& what) {
  return "the pipeline is damaged: " + what + " (compile it again with gec compile)";
}

nlohmann::json Manifest(const PipelineModel& model, const std::vector<uint64_t>& offsets,
                        const std::vector<uint64_t>& sizes) {
  nlohmann::json j;
  j["version"] = kManifestVersion;
  j["inputs"] = model.inputs;
  j["outputs"] = model.outputs;
  j["output_names"] = model.output_names;
  nlohmann::json tensors = nlohmann::json::array();
  for (const PipelineTensor& t : model.tensors) {
    tensors.push_back({{"name", t.name},
                       {"dtype", TypeUtils::DataTypeToSerialString(t.dtype)},
                       {"dims", t.dims}});
  }
  j["tensors"] = std::move(tensors);
  nlohmann::json stages = nlohmann::json::array();
  for (size_t s = 0; s < model.stages.size(); ++s) {
    const PipelineStage& stage = model.stages[s];
    stages.push_back({{"inputs", stage.inputs},
                      {"outputs", stage.outputs},
                      {"sends", stage.sends},
                      {"predicted_us", stage.predicted_us},
                      {"weight_bytes", stage.weight_bytes},
                      {"send_bytes", stage.send_bytes},
                      {"offset", offsets[s]},
                      {"size", sizes[s]}});
  }
  j["stages"] = std::move(stages);
  return j;
}

// A list of strings at `key` of `j`, or an error naming `where`.
Result<std::vector<std::string>> Names(const nlohmann::json& j, const char* key,
                                       const std::string& where) {
  if (!j.contains(key) || !j[key].is_array()) {
    return ParamInvalid(Damaged(where + " has no list '" + key + "'"));
  }
  std::vector<std::string> out;
  for (const nlohmann::json& v : j[key]) {
    if (!v.is_string()) return ParamInvalid(Damaged(where + "'s '" + key + "' holds a non-name"));
    out.push_back(v.get<std::string>());
  }
  return out;
}

Result<int64_t> Whole(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<int64_t>() < 0) {
    return ParamInvalid(Damaged(where + "'s '" + key + "' is not a whole number"));
  }
  return j[key].get<int64_t>();
}

// The manifest's model, each stage's byte range in the stages partition beside it.
Result<PipelineModel> ParseManifest(std::span<const uint8_t> bytes,
                                    std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  const nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr,
                                                 /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return ParamInvalid(Damaged("its manifest is not a JSON object"));
  }
  if (!j.contains("version") || j["version"] != kManifestVersion) {
    return ParamInvalid(
        Damaged("its manifest is not of version " + std::to_string(kManifestVersion)));
  }
  PipelineModel model;
  GE_ASSIGN_OR_RETURN(model.inputs, Names(j, "inputs", "the manifest"));
  GE_ASSIGN_OR_RETURN(model.outputs, Names(j, "outputs", "the manifest"));
  GE_ASSIGN_OR_RETURN(model.output_names, Names(j, "output_names", "the manifest"));
  if (!j.contains("tensors") || !j["tensors"].is_array()) {
    return ParamInvalid(Damaged("the manifest has no list 'tensors'"));
  }
  for (const nlohmann::json& t : j["tensors"]) {
    if (!t.is_object() || !t.contains("name") || !t["name"].is_string() || !t.contains("dtype") ||
        !t["dtype"].is_string() || !t.contains("dims") || !t["dims"].is_array()) {
      return ParamInvalid(Damaged("a tensor of the manifest lacks its name, dtype or dims"));
    }
    PipelineTensor tensor;
    tensor.name = t["name"].get<std::string>();
    tensor.dtype = TypeUtils::SerialStringToDataType(t["dtype"].get<std::string>());
    if (tensor.dtype == DT_UNDEFINED) {
      return ParamInvalid(Damaged("tensor '" + tensor.name + "' has the unknown dtype '" +
                                  t["dtype"].get<std::string>() + "'"));
    }
    for (const nlohmann::json& d : t["dims"]) {
      if (!d.is_number_integer() || d.get<int64_t>() < 0 || d.get<int64_t>() > (int64_t{1} << 40)) {
        return ParamInvalid(Damaged("tensor '" + tensor.name + "' has a dim that is not a size"));
      }
      tensor.dims.push_back(d.get<int64_t>());
    }
    model.tensors.push_back(std::move(tensor));
  }
  if (!j.contains("stages") || !j["stages"].is_array() || j["stages"].empty() ||
      j["stages"].size() > kMaxStages) {
    return ParamInvalid(
        Damaged("the manifest has no stages (or more than " + std::to_string(kMaxStages) + ")"));
  }
  for (size_t s = 0; s < j["stages"].size(); ++s) {
    const nlohmann::json& st = j["stages"][s];
    const std::string where = "stage " + std::to_string(s);
    if (!st.is_object()) return ParamInvalid(Damaged(where + " is not an object"));
    PipelineStage stage;
    GE_ASSIGN_OR_RETURN(stage.inputs, Names(st, "inputs", where));
    GE_ASSIGN_OR_RETURN(stage.outputs, Names(st, "outputs", where));
    GE_ASSIGN_OR_RETURN(stage.sends, Names(st, "sends", where));
    GE_ASSIGN_OR_RETURN(stage.weight_bytes, Whole(st, "weight_bytes", where));
    GE_ASSIGN_OR_RETURN(stage.send_bytes, Whole(st, "send_bytes", where));
    GE_ASSIGN_OR_RETURN(const int64_t offset, Whole(st, "offset", where));
    GE_ASSIGN_OR_RETURN(const int64_t size, Whole(st, "size", where));
    if (st.contains("predicted_us") && st["predicted_us"].is_number()) {
      stage.predicted_us = st["predicted_us"].get<double>();
    }
    ranges.emplace_back(static_cast<uint64_t>(offset), static_cast<uint64_t>(size));
    model.stages.push_back(std::move(stage));
  }
  return model;
}

}  // namespace

int64_t PipelineTensor::Bytes() const {
  const int32_t size = TypeUtils::GetSizeByDataType(dtype);
  if (size <= 0 || TypeUtils::IsSubByteType(dtype)) return -1;
  int64_t n = size;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

const PipelineTensor* PipelineModel::Tensor(const std::string& name) const {
  for (const PipelineTensor& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const std::vector<std::string>& PipelineModel::Receives(size_t s) const {
  return s == 0 ? inputs : stages[s - 1].sends;
}

Status PipelineModel::Check() const {
  if (stages.empty()) return ParamInvalid("the pipeline has no stages");
  std::set<std::string> names;
  for (const PipelineTensor& t : tensors) {
    if (!names.insert(t.name).second) {
      return ParamInvalid(Damaged("tensor '" + t.name + "' is named twice"));
    }
    if (t.Bytes() < 0) {
      const bool sized =
          TypeUtils::GetSizeByDataType(t.dtype) > 0 && !TypeUtils::IsSubByteType(t.dtype);
      return ParamInvalid(Damaged(
          "tensor '" + t.name + "' " +
          (sized ? "of shape " + GeShape(t.dims).ToString() + " needs more bytes than int64 counts"
                 : std::string("has no fixed size"))));
    }
  }
  auto known = [&](const std::vector<std::string>& list, const std::string& where) -> Status {
    for (const std::string& n : list) {
      if (names.count(n) == 0) return ParamInvalid(Damaged(where + " names no tensor '" + n + "'"));
    }
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(known(inputs, "the model's inputs"));
  GE_RETURN_IF_ERROR(known(outputs, "the model's outputs"));
  if (output_names.size() != outputs.size()) {
    return ParamInvalid(Damaged("the model has " + std::to_string(outputs.size()) +
                                " outputs and " + std::to_string(output_names.size()) +
                                " output names"));
  }
  for (size_t s = 0; s < stages.size(); ++s) {
    const PipelineStage& stage = stages[s];
    const std::string where = "stage " + std::to_string(s);
    GE_RETURN_IF_ERROR(known(stage.inputs, where + "'s inputs"));
    GE_RETURN_IF_ERROR(known(stage.outputs, where + "'s outputs"));
    GE_RETURN_IF_ERROR(known(stage.sends, where + "'s sends"));
    const std::vector<std::string>& received = Receives(s);
    const std::set<std::string> in(received.begin(), received.end());
    for (const std::string& n : stage.inputs) {
      if (in.count(n) == 0) {
        return ParamInvalid(Damaged(where + " reads '" + n + "', which it does not receive"));
      }
    }
    std::set<std::string> has = in;
    has.insert(stage.outputs.begin(), stage.outputs.end());
    for (const std::string& n : stage.sends) {
      if (has.count(n) == 0) {
        return ParamInvalid(
            Damaged(where + " sends '" + n + "', which it neither makes nor receives"));
      }
    }
  }
  if (stages.back().sends != outputs) {
    return ParamInvalid(Damaged("the last stage does not send the model's outputs"));
  }
  return Status::Ok();
}

Status PipelineModel::SaveToFile(const std::string& path) const {
  GE_RETURN_IF_ERROR(Check());
  // Each stage's file is measured first and written straight into this one after: no stage's
  // bytes are gathered in memory (its weights are written from where they lie).
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> sizes;
  uint64_t end = 0;
  for (size_t s = 0; s < stages.size(); ++s) {
    uint64_t size = 0;
    Status measured = WithCompiledModelPartitions(
        stages[s].model, [&size](const std::vector<om::Partition>& partitions) {
          size = om::FileSize(partitions);
          return Status::Ok();
        });
    if (!measured.ok()) return std::move(measured).Prefix("stage " + std::to_string(s));
    end = (end + om::kWeightsAlignment - 1) / om::kWeightsAlignment * om::kWeightsAlignment;
    offsets.push_back(end);
    sizes.push_back(size);
    end += size;
  }
  const std::string manifest = Manifest(*this, offsets, sizes).dump();
  std::vector<uint64_t> at;
  const std::string head = om::HeaderFor(
      {{om::PartitionType::kPipeline, manifest.size()}, {om::PartitionType::kStages, end}}, at);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Failed("cannot open '" + path + "' for writing");
  uint64_t written = 0;
  auto pad_to = [&](uint64_t offset) {
    static const std::string kZeros(om::kWeightsAlignment, '\0');
    while (written < offset) {
      const uint64_t n = std::min<uint64_t>(offset - written, kZeros.size());
      out.write(kZeros.data(), static_cast<std::streamsize>(n));
      written += n;
    }
  };
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  written = head.size();
  pad_to(at[0]);
  out.write(manifest.data(), static_cast<std::streamsize>(manifest.size()));
  written += manifest.size();
  for (size_t s = 0; s < stages.size(); ++s) {
    pad_to(at[1] + offsets[s]);
    Status put = WithCompiledModelPartitions(
        stages[s].model, [&](const std::vector<om::Partition>& partitions) -> Status {
          if (om::FileSize(partitions) != sizes[s]) {
            return InternalError("its file changed size between measuring and writing");
          }
          return om::WriteTo(out, path, partitions);
        });
    if (!put.ok()) return std::move(put).Prefix("stage " + std::to_string(s));
    written += sizes[s];
  }
  pad_to(at[2]);
  out.flush();
  if (!out) return Failed("writing '" + path + "' failed");
  return Status::Ok();
}

namespace {

// The pipeline in `bytes` (a whole file); `path` says where it came from, in errors.
Result<PipelineModel> FromBytes(const FileBytes& bytes, const std::string& path, int only_stage) {
  Result<om::OmFile> parsed = om::Parse(bytes);
  if (!parsed.ok()) return Status(parsed.status()).Prefix(path);
  const om::OmFile& file = *parsed;
  const std::span<const uint8_t> manifest = file.Get(om::PartitionType::kPipeline);
  if (manifest.empty()) {
    return ParamInvalid(path +
                        " is one compiled model, not a pipeline (compile it with "
                        "--pipeline-stages N)");
  }
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  Result<PipelineModel> model = ParseManifest(manifest, ranges);
  if (!model.ok()) return Status(model.status()).Prefix(path);
  Status checked = model->Check();
  if (!checked.ok()) return std::move(checked).Prefix(path);
  if (only_stage >= static_cast<int>(model->stages.size())) {
    return ParamInvalid(path + " has " + std::to_string(model->stages.size()) +
                        " stages; there is no stage " + std::to_string(only_stage));
  }
  const std::span<const uint8_t> stages = file.Get(om::PartitionType::kStages);
  for (size_t s = 0; s < model->stages.size(); ++s) {
    const auto [offset, size] = ranges[s];
    const std::string where = path + " stage " + std::to_string(s);
    if (offset % om::kWeightsAlignment != 0 || offset > stages.size() ||
        size > stages.size() - offset) {
      return ParamInvalid(where + ": " +
                          Damaged("its bytes " + std::to_string(offset) + "+" +
                                  std::to_string(size) + " are not an aligned range of the " +
                                  std::to_string(stages.size()) + "-byte stages partition"));
    }
    if (only_stage >= 0 && static_cast<size_t>(only_stage) != s) continue;
    // The stage's file is a range of the mapping; its views keep the whole mapping alive.
    FileBytes range;
    range.data = std::shared_ptr<const uint8_t>(bytes.data, stages.data() + offset);
    range.size = static_cast<size_t>(size);
    range.mapped = bytes.mapped;
    Result<CompiledModel> stage = CompiledModelFromFileBytes(std::move(range));
    if (!stage.ok()) return Status(stage.status()).Prefix(where);
    model->stages[s].model = std::move(stage).value();
  }
  return model;
}

}  // namespace

Result<PipelineModel> PipelineModel::LoadFromFile(const std::string& path, int only_stage) {
  GE_ASSIGN_OR_RETURN(FileBytes bytes, MapFile(path));
  return FromBytes(bytes, "'" + path + "'", only_stage);
}

Result<PipelineModel> PipelineModel::Deserialize(std::string_view bytes) {
  return FromBytes(CopyAligned(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                   "the pipeline", -1);
}

bool PipelineModel::IsPipelineFile(const std::string& path) {
  if (!CompiledModel::IsCompiledModelFile(path)) return false;
  Result<FileBytes> bytes = MapFile(path);
  if (!bytes.ok()) return false;
  Result<om::OmFile> file = om::Parse(*bytes);
  return file.ok() && !file->Get(om::PartitionType::kPipeline).empty();
}

bool PipelineModel::IsPipelineBytes(std::string_view bytes) {
  if (!CompiledModel::IsCompiledModelBytes(bytes)) return false;
  FileBytes view;  // borrowed: the table is read, nothing is kept
  view.data = std::shared_ptr<const uint8_t>(std::shared_ptr<const uint8_t>(),
                                             reinterpret_cast<const uint8_t*>(bytes.data()));
  view.size = bytes.size();
  Result<om::OmFile> file = om::Parse(view);
  return file.ok() && !file->Get(om::PartitionType::kPipeline).empty();
}

}  // namespace ge
