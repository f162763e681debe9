// CompiledModel to and from the .om: the graph as a ge_ir.proto ModelDef with the Consts' bytes
// moved into the weights partition, the tasks and plans as an openge.model.TaskModel.
#include "ge/model/compiled_model.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <fstream>
#include <functional>
#include <limits>

#include "compiled_model_file.h"
#include "ge/graph/node.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "om_file.h"
#include "om_model.pb.h"

namespace ge {
namespace {

namespace pb = openge::model;

/// On a Const in the .om's graph: {offset, size} of its value's bytes in the weights partition.
constexpr char kAttrOmWeight[] = "_om_weight";
constexpr uint64_t kWeightAlignment = 64;

bool HoldsWeight(const Node& node) {
  const std::string& type = node.GetType();
  return type == "Const" || type == "Constant";
}

GeTensor* MutableConstValue(Node& node) {
  AttrValue* value = node.GetOpDescBarePtr()->MutableAttrMap().GetMutable(kAttrConstValue);
  return value == nullptr ? nullptr : value->GetMutable<GeTensor>();
}

/// Zeros that pad a weight to its alignment in the weights partition.
constexpr uint8_t kPadding[kWeightAlignment] = {};

/// Takes every Const's bytes out of the graph, as the pieces of the weights partition (each
/// weight where it lies, padded to kWeightAlignment), and puts them back when it goes.
class WeightsOut {
 public:
  explicit WeightsOut(ComputeGraph& graph) {
    for (const NodePtr& node : graph.GetAllNodes()) {
      if (!HoldsWeight(*node)) continue;
      GeTensor* value = MutableConstValue(*node);
      if (value == nullptr || value->GetSize() == 0 ||
          value->GetTensorDesc().GetDataType() == DT_STRING) {
        continue;  // strings keep their own encoding inline
      }
      const uint64_t offset = (size_ + kWeightAlignment - 1) / kWeightAlignment * kWeightAlignment;
      if (offset > size_) pieces_.emplace_back(kPadding, offset - size_);
      const auto bytes = value->GetStoredData();  // written as they lie: no aligned copy
      pieces_.push_back(bytes);                   // valid while taken_ holds the tensor
      size_ = offset + bytes.size();
      taken_.emplace_back(node, *value);
      value->ClearData();
      AttrUtils::SetListInt(
          node->GetOpDesc(), kAttrOmWeight,
          std::vector<int64_t>{static_cast<int64_t>(offset), static_cast<int64_t>(bytes.size())});
    }
  }
  ~WeightsOut() {
    for (auto& [node, value] : taken_) {
      *MutableConstValue(*node) = value;
      node->GetOpDescBarePtr()->DelAttr(kAttrOmWeight);
    }
  }
  WeightsOut(const WeightsOut&) = delete;
  WeightsOut& operator=(const WeightsOut&) = delete;
  const std::vector<std::span<const uint8_t>>& pieces() const { return pieces_; }

 private:
  std::vector<std::span<const uint8_t>> pieces_;
  uint64_t size_ = 0;
  std::vector<std::pair<NodePtr, GeTensor>> taken_;
};

/// Points every Const that names a weight at its bytes in the file (no copy).
Status WeightsIn(ComputeGraph& graph, const om::OmFile& file) {
  const std::span<const uint8_t> weights = file.Get(om::PartitionType::kWeightsData);
  for (const NodePtr& node : graph.GetAllNodes()) {
    OpDesc& op = *node->GetOpDescBarePtr();
    if (!op.HasAttr(kAttrOmWeight)) continue;
    const std::string who = "Const '" + node->GetName() + "'";
    std::vector<int64_t> where;
    GeTensor* value = HoldsWeight(*node) ? MutableConstValue(*node) : nullptr;
    if (!AttrUtils::GetListInt(node->GetOpDesc(), kAttrOmWeight, where) || where.size() != 2 ||
        value == nullptr) {
      return ParamInvalid("the compiled model is damaged: node '" + node->GetName() + "' (" +
                          node->GetType() + ") has a malformed weight reference");
    }
    if (value->GetSize() != 0) {
      return ParamInvalid("the compiled model is damaged: " + who +
                          " has both its own bytes and a weight reference");
    }
    const int64_t offset = where[0];
    const int64_t size = where[1];
    if (offset < 0 || size < 0 || static_cast<uint64_t>(offset) > weights.size() ||
        static_cast<uint64_t>(size) > weights.size() - static_cast<uint64_t>(offset)) {
      return ParamInvalid("the compiled model is damaged: " + who + "'s weight at bytes " +
                          std::to_string(offset) + "+" + std::to_string(size) +
                          " lies outside the weights partition (" + std::to_string(weights.size()) +
                          " bytes)");
    }
    // The tensor keeps the whole file alive through the aliasing shared_ptr; it says when its
    // bytes are pages of the file's mapping, which a reader may let go (a kernel packing them).
    value->SetSharedData(std::shared_ptr<const uint8_t>(file.bytes.data, weights.data() + offset),
                         static_cast<size_t>(size), file.bytes.mapped);
    op.DelAttr(kAttrOmWeight);
  }
  return Status::Ok();
}

pb::TaskModel ToProto(const CompiledModel& model) {
  pb::TaskModel out;
  out.set_stream_count(model.stream_count);
  for (const auto& [graph, list] : model.tasks) {
    pb::TaskList& tasks = (*out.mutable_tasks())[graph];
    for (const TaskDef& t : list) {
      pb::TaskDef& task = *tasks.add_tasks();
      task.set_kernel(t.kernel_name);
      task.set_engine(t.engine);
      task.set_op_name(t.op_name);
      task.set_op_id(t.op_id);
      task.set_stream_id(t.stream_id);
      for (const auto& [key, value] : t.args) (*task.mutable_args())[key] = value;
    }
  }
  for (const auto& [graph, p] : model.plans) {
    pb::MemoryPlan& plan = (*out.mutable_plans())[graph];
    plan.set_arena_bytes(p.arena_bytes);
    plan.set_lower_bound(p.lower_bound);
    plan.set_weight_bytes(p.weight_bytes);
    plan.set_output_bytes(p.output_bytes);
    plan.set_alignment(p.alignment);
    plan.set_strategy(p.strategy);
    plan.set_peak_step(p.peak_step);
    for (const memory::StrategyResult& s : p.strategies) {
      pb::StrategyResult& one = *plan.add_strategies();
      one.set_name(s.name);
      one.set_arena_bytes(s.arena_bytes);
      one.set_millis(s.millis);
    }
    for (const memory::TensorPlan& t : p.tensors) {
      pb::TensorPlan& row = *plan.add_tensors();
      row.set_node(t.node);
      row.set_op_type(t.op_type);
      row.set_output_index(t.output_index);
      row.set_workspace_index(t.workspace_index);
      row.set_region(static_cast<pb::Region>(t.region));
      row.set_offset(t.offset);
      row.set_size(t.size);
      row.set_first_step(t.first_step);
      row.set_last_step(t.last_step);
      row.set_alias_of(t.alias_of);
    }
  }
  return out;
}

Status FromProto(const pb::TaskModel& in, CompiledModel& model) {
  model.stream_count = in.stream_count();
  for (const auto& [graph, list] : in.tasks()) {
    std::vector<TaskDef>& tasks = model.tasks[graph];
    for (const pb::TaskDef& t : list.tasks()) {
      TaskDef task;
      task.kernel_name = t.kernel();
      task.engine = t.engine();
      task.op_name = t.op_name();
      task.op_id = t.op_id();
      task.stream_id = t.stream_id();
      task.args.insert(t.args().begin(), t.args().end());
      tasks.push_back(std::move(task));
    }
  }
  for (const auto& [graph, p] : in.plans()) {
    memory::MemoryPlan& plan = model.plans[graph];
    plan.arena_bytes = p.arena_bytes();
    plan.lower_bound = p.lower_bound();
    plan.weight_bytes = p.weight_bytes();
    plan.output_bytes = p.output_bytes();
    plan.alignment = p.alignment();
    plan.strategy = p.strategy();
    plan.peak_step = p.peak_step();
    for (const pb::StrategyResult& s : p.strategies()) {
      plan.strategies.push_back({s.name(), s.arena_bytes(), s.millis()});
    }
    for (const pb::TensorPlan& t : p.tensors()) {
      const int region = t.region();
      if (region < 0 || region > static_cast<int>(memory::Region::kDynamic)) {
        return ParamInvalid("the compiled model is damaged: tensor '" + t.node() + "' of graph '" +
                            graph + "' is planned in region " + std::to_string(region) +
                            ", which does not exist");
      }
      memory::TensorPlan row;
      row.node = t.node();
      row.op_type = t.op_type();
      row.output_index = t.output_index();
      row.workspace_index = t.workspace_index();
      row.region = static_cast<memory::Region>(region);
      row.offset = t.offset();
      row.size = t.size();
      row.first_step = t.first_step();
      row.last_step = t.last_step();
      row.alias_of = t.alias_of();
      plan.tensors.push_back(std::move(row));
    }
  }
  return Status::Ok();
}

std::string_view AsText(std::span<const uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

Result<CompiledModel> CompiledModelFromFileBytes(om::FileBytes bytes) {
  GE_ASSIGN_OR_RETURN(om::OmFile file, om::Parse(std::move(bytes)));
  if (!file.Get(om::PartitionType::kPipeline).empty()) {
    return ParamInvalid(
        "it is a pipeline of stages (gec compile --pipeline-stages), not one model: run it with "
        "gec run (all stages in one process, or under mpirun with --pipeline) or load it with "
        "PipelineModel::LoadFromFile");
  }
  CompiledModel model;
  const std::span<const uint8_t> tasks = file.Get(om::PartitionType::kTaskInfo);
  pb::TaskModel task_model;
  if (tasks.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !task_model.ParseFromArray(tasks.data(), static_cast<int>(tasks.size()))) {
    return ParamInvalid("the compiled model is damaged: its task partition (" +
                        std::to_string(tasks.size()) + " bytes) does not parse");
  }
  GE_RETURN_IF_ERROR(FromProto(task_model, model));
  Result<ComputeGraphPtr> graph =
      ModelSerialize::Deserialize(AsText(file.Get(om::PartitionType::kModelDef)));
  if (!graph.ok()) return Status(graph.status()).Prefix("the compiled model's graph partition");
  GE_RETURN_IF_ERROR(WeightsIn(**graph, file));
  model.graph = std::move(graph).value();
  return model;
}

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

namespace {

// Lays out the model's partitions and hands them to `write`; the weights stay where they lie.
template <typename Write>
auto WithPartitions(const CompiledModel& model, const char* who, Write write)
    -> decltype(write(std::vector<om::Partition>())) {
  if (model.graph == nullptr) return ParamInvalid(std::string(who) + ": the model has no graph");
  std::string task_bytes;
  {
    // Deterministic: maps in key order, so one model always gives the same file.
    google::protobuf::io::StringOutputStream raw(&task_bytes);
    google::protobuf::io::CodedOutputStream coded(&raw);
    coded.SetSerializationDeterministic(true);
    if (!ToProto(model).SerializeToCodedStream(&coded)) {
      return Failed(std::string(who) + ": the task model does not serialize");
    }
  }
  const std::string report_json = model.report.ToJson();
  // The weights come out of the graph for the write and go back after it, so the in-memory
  // graph stays as the compiler left it.
  WeightsOut weights(*model.graph);
  GE_ASSIGN_OR_RETURN(std::string graph_bytes, ModelSerialize::Serialize(*model.graph));
  auto whole = [](const std::string& bytes) {
    return std::vector<std::span<const uint8_t>>{
        {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}};
  };
  return write({{om::PartitionType::kModelDef, whole(graph_bytes)},
                {om::PartitionType::kTaskInfo, whole(task_bytes)},
                {om::PartitionType::kReport, whole(report_json)},
                {om::PartitionType::kWeightsData, weights.pieces()}});
}

}  // namespace

Status WithCompiledModelPartitions(
    const CompiledModel& model,
    const std::function<Status(const std::vector<om::Partition>&)>& write) {
  return CatchExceptions("CompiledModel::Serialize", [&]() -> Status {
    return WithPartitions(
        model, "CompiledModel::Serialize",
        [&](const std::vector<om::Partition>& partitions) -> Status { return write(partitions); });
  });
}

Result<std::string> CompiledModel::Serialize() const {
  return CatchExceptions("CompiledModel::Serialize", [&]() -> Result<std::string> {
    return WithPartitions(*this, "CompiledModel::Serialize",
                          [](const std::vector<om::Partition>& partitions) -> Result<std::string> {
                            return om::Write(partitions);
                          });
  });
}

Result<CompiledModel> CompiledModel::Deserialize(std::string_view bytes) {
  return CatchExceptions("CompiledModel::Deserialize", [&]() -> Result<CompiledModel> {
    return CompiledModelFromFileBytes(
        CopyAligned(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  });
}

Status CompiledModel::SaveToFile(const std::string& path) const {
  return CatchExceptions("CompiledModel::SaveToFile", [&]() -> Status {
    return WithPartitions(*this, "CompiledModel::SaveToFile",
                          [&](const std::vector<om::Partition>& partitions) -> Status {
                            std::ofstream out(path, std::ios::binary | std::ios::trunc);
                            if (!out) return Failed("cannot open '" + path + "' for writing");
                            return om::WriteTo(out, path, partitions);
                          });
  });
}

Result<CompiledModel> CompiledModel::LoadFromFile(const std::string& path) {
  return CatchExceptions("CompiledModel::LoadFromFile", [&]() -> Result<CompiledModel> {
    GE_ASSIGN_OR_RETURN(om::FileBytes bytes, MapFile(path));
    std::shared_ptr<const uint8_t> mapping = bytes.mapped ? bytes.data : nullptr;
    Result<CompiledModel> model = CompiledModelFromFileBytes(std::move(bytes));
    if (!model.ok()) return Status(model.status()).Prefix("'" + path + "'");
    model->mapped_file = std::move(mapping);
    return model;
  });
}

bool CompiledModel::IsCompiledModelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char prefix[8] = {};
  if (!in.read(prefix, sizeof(prefix))) return false;
  return om::HasMagic({reinterpret_cast<const uint8_t*>(prefix), sizeof(prefix)});
}

bool CompiledModel::IsCompiledModelBytes(std::string_view bytes) {
  return om::HasMagic({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
}

}  // namespace ge
