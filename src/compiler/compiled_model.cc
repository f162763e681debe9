// CompiledModel (de)serialization: the graph through ge_ir.proto, the tasks and plans as JSON
// graph attributes.
#include "ge/compiler/compiled_model.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

using Json = nlohmann::json;

Json TasksToJson(const std::map<std::string, std::vector<TaskDef>>& tasks) {
  Json j = Json::object();
  for (const auto& [graph, list] : tasks) {
    Json arr = Json::array();
    for (const TaskDef& t : list) {
      Json task = Json::object();
      task["kernel"] = t.kernel_name;
      task["engine"] = t.engine;
      task["op"] = t.op_name;
      task["op_id"] = t.op_id;
      task["stream"] = t.stream_id;
      task["args"] = t.args;
      arr.push_back(std::move(task));
    }
    j[graph] = std::move(arr);
  }
  return j;
}

std::map<std::string, std::vector<TaskDef>> TasksFromJson(const Json& j) {
  std::map<std::string, std::vector<TaskDef>> out;
  if (!j.is_object()) throw std::invalid_argument("tasks are not a JSON object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    const Json& arr = it.value();
    std::vector<TaskDef>& list = out[it.key()];
    for (const Json& t : arr) {
      TaskDef task;
      task.kernel_name = t.at("kernel").get<std::string>();
      task.engine = t.at("engine").get<std::string>();
      task.op_name = t.at("op").get<std::string>();
      task.op_id = t.at("op_id").get<int64_t>();
      task.stream_id = t.at("stream").get<int64_t>();
      task.args = t.at("args").get<std::map<std::string, std::string>>();
      list.push_back(std::move(task));
    }
  }
  return out;
}

Json PlanToJson(const memory::MemoryPlan& p) {
  Json j = Json::object();
  j["arena_bytes"] = p.arena_bytes;
  j["lower_bound"] = p.lower_bound;
  j["weight_bytes"] = p.weight_bytes;
  j["output_bytes"] = p.output_bytes;
  j["alignment"] = p.alignment;
  j["strategy"] = p.strategy;
  j["peak_step"] = p.peak_step;
  Json strategies = Json::array();
  for (const auto& s : p.strategies) {
    Json one = Json::object();
    one["name"] = s.name;
    one["arena_bytes"] = s.arena_bytes;
    one["millis"] = s.millis;
    strategies.push_back(std::move(one));
  }
  j["strategies"] = std::move(strategies);
  Json tensors = Json::array();
  for (const auto& t : p.tensors) {
    Json row = Json::array();
    row.push_back(t.node);
    row.push_back(t.op_type);
    row.push_back(t.output_index);
    row.push_back(t.workspace_index);
    row.push_back(static_cast<int32_t>(t.region));
    row.push_back(t.offset);
    row.push_back(t.size);
    row.push_back(t.first_step);
    row.push_back(t.last_step);
    row.push_back(t.alias_of);
    tensors.push_back(std::move(row));
  }
  j["tensors"] = std::move(tensors);
  return j;
}

memory::MemoryPlan PlanFromJson(const Json& j) {
  memory::MemoryPlan p;
  p.arena_bytes = j.at("arena_bytes").get<int64_t>();
  p.lower_bound = j.at("lower_bound").get<int64_t>();
  p.weight_bytes = j.at("weight_bytes").get<int64_t>();
  p.output_bytes = j.at("output_bytes").get<int64_t>();
  p.alignment = j.at("alignment").get<int64_t>();
  p.strategy = j.at("strategy").get<std::string>();
  p.peak_step = j.at("peak_step").get<int64_t>();
  for (const Json& s : j.at("strategies")) {
    p.strategies.push_back({s.at("name").get<std::string>(), s.at("arena_bytes").get<int64_t>(),
                            s.at("millis").get<double>()});
  }
  for (const Json& t : j.at("tensors")) {
    memory::TensorPlan tp;
    tp.node = t.at(0).get<std::string>();
    tp.op_type = t.at(1).get<std::string>();
    tp.output_index = t.at(2).get<int32_t>();
    tp.workspace_index = t.at(3).get<int32_t>();
    const int32_t region = t.at(4).get<int32_t>();
    if (region < 0 || region > static_cast<int32_t>(memory::Region::kDynamic))
      throw std::out_of_range("bad region " + std::to_string(region));
    tp.region = static_cast<memory::Region>(region);
    tp.offset = t.at(5).get<int64_t>();
    tp.size = t.at(6).get<int64_t>();
    tp.first_step = t.at(7).get<int64_t>();
    tp.last_step = t.at(8).get<int64_t>();
    tp.alias_of = t.at(9).get<int32_t>();
    p.tensors.push_back(std::move(tp));
  }
  return p;
}

}  // namespace

std::vector<TaskDef> CompiledModel::TasksOfStream(const std::string& graph_name,
                                                  int64_t stream) const {
  std::vector<TaskDef> out;
  auto it = tasks.find(graph_name);
  if (it == tasks.end()) return out;
  for (const TaskDef& t : it->second) {
    if (t.stream_id == stream) out.push_back(t);
  }
  return out;
}

int64_t CompiledModel::TaskCount() const {
  int64_t n = 0;
  for (const auto& [graph, list] : tasks) n += static_cast<int64_t>(list.size());
  return n;
}

bool CompiledModel::IsCompiledModel(const ComputeGraph& graph) {
  int64_t format = 0;
  return AttrUtils::GetInt(graph, kAttrCompiledFormat, format) && format > 0;
}

Result<std::string> CompiledModel::Serialize() const {
  return CatchExceptions("CompiledModel::Serialize", [&]() -> Result<std::string> {
    if (graph == nullptr) return ParamInvalid("CompiledModel::Serialize: the model has no graph");
    Json plans_json = Json::object();
    for (const auto& [name, plan] : plans) plans_json[name] = PlanToJson(plan);
    // The attributes go on the graph for the write and come off again, so the in-memory graph
    // stays as the compiler left it.
    AttrUtils::SetInt(*graph, kAttrCompiledFormat, kCompiledModelFormat);
    AttrUtils::SetStr(*graph, kAttrCompiledTasks, TasksToJson(tasks).dump());
    AttrUtils::SetStr(*graph, kAttrCompiledPlans, plans_json.dump());
    AttrUtils::SetInt(*graph, kAttrCompiledStreams, stream_count);
    AttrUtils::SetStr(*graph, kAttrCompiledReport, report.ToJson());
    Result<std::string> bytes = ModelSerialize::Serialize(*graph);
    for (const char* attr : {kAttrCompiledFormat, kAttrCompiledTasks, kAttrCompiledPlans,
                             kAttrCompiledStreams, kAttrCompiledReport}) {
      graph->DelAttr(attr);
    }
    return bytes;
  });
}

Result<CompiledModel> CompiledModel::Deserialize(std::string_view bytes) {
  return CatchExceptions("CompiledModel::Deserialize", [&]() -> Result<CompiledModel> {
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr graph, ModelSerialize::Deserialize(bytes));
    return FromGraph(std::move(graph));
  });
}

Result<CompiledModel> CompiledModel::FromGraph(ComputeGraphPtr graph) {
  return CatchExceptions("CompiledModel::FromGraph", [&]() -> Result<CompiledModel> {
    if (!IsCompiledModel(*graph)) {
      return ParamInvalid("the model '" + graph->GetName() +
                          "' is a graph, not a compiled model (it has no " + kAttrCompiledFormat +
                          " attribute); compile it first (gec compile)");
    }
    int64_t format = 0;
    AttrUtils::GetInt(*graph, kAttrCompiledFormat, format);
    if (format != kCompiledModelFormat) {
      return ParamInvalid("compiled model format " + std::to_string(format) +
                          " is not supported (this build reads format " +
                          std::to_string(kCompiledModelFormat) + "); compile the model again");
    }
    CompiledModel model;
    std::string tasks_text, plans_text;
    if (!AttrUtils::GetStr(*graph, kAttrCompiledTasks, tasks_text) ||
        !AttrUtils::GetStr(*graph, kAttrCompiledPlans, plans_text) ||
        !AttrUtils::GetInt(*graph, kAttrCompiledStreams, model.stream_count)) {
      return ParamInvalid("compiled model '" + graph->GetName() +
                          "' lacks its tasks, plans or "
                          "stream count attributes; the file is damaged");
    }
    try {
      model.tasks = TasksFromJson(Json::parse(tasks_text));
      const Json plans = Json::parse(plans_text);
      if (!plans.is_object()) throw std::invalid_argument("memory plans are not a JSON object");
      for (auto it = plans.begin(); it != plans.end(); ++it) {
        model.plans[it.key()] = PlanFromJson(it.value());
      }
    } catch (const std::exception& e) {
      return ParamInvalid("compiled model '" + graph->GetName() +
                          "': its tasks or memory plans do not parse (" + e.what() +
                          "); the file is damaged");
    }
    for (const char* attr : {kAttrCompiledFormat, kAttrCompiledTasks, kAttrCompiledPlans,
                             kAttrCompiledStreams, kAttrCompiledReport}) {
      graph->DelAttr(attr);
    }
    model.graph = std::move(graph);
    return model;
  });
}

Status CompiledModel::SaveToFile(const std::string& path) const {
  return CatchExceptions("CompiledModel::SaveToFile", [&]() -> Status {
    GE_ASSIGN_OR_RETURN(std::string bytes, Serialize());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Failed("cannot open '" + path + "' for writing");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return Failed("writing '" + path + "' failed");
    return Status::Ok();
  });
}

Result<CompiledModel> CompiledModel::LoadFromFile(const std::string& path) {
  return CatchExceptions("CompiledModel::LoadFromFile", [&]() -> Result<CompiledModel> {
    // Read as binary whatever the file's name: a compiled model is never text.
    Result<ComputeGraphPtr> graph = ModelSerialize::LoadFromFile(path, SerializeFormat::kBinary);
    if (!graph.ok()) return std::move(graph).status();
    Result<CompiledModel> model = FromGraph(std::move(graph).value());
    if (!model.ok()) return Status(model.status()).Prefix("'" + path + "'");
    return model;
  });
}

}  // namespace ge
