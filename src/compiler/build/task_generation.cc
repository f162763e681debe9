// Task generation: each node's engine builder makes its tasks, in the graph's order. Where an
// edge crosses streams, the producer's stream records an event after the producer's tasks and
// the consumer's stream waits for it before the consumer's (one event per producer and
// consumer stream).
#include <map>
#include <set>

#include "build_stage.h"
#include "ge/graph/node.h"

namespace ge::build {
namespace {

TaskDef EventTask(const char* kind, int64_t event, int64_t stream, const Node& node) {
  TaskDef task;
  task.kernel_name = kind;
  task.op_name = node.GetName();
  task.op_id = node.GetOpDescBarePtr()->GetId();
  task.stream_id = stream;
  task.args["event"] = std::to_string(event);
  return task;
}

}  // namespace

Status GenerateTasks(ComputeGraph& root, const CompileOptions& options,
                     const EngineManager& engines, BuildState& state) {
  state.tasks.clear();
  std::vector<ComputeGraph*> graphs = {&root};
  for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) graphs.push_back(sub.get());
  int64_t next_event = 0;
  for (ComputeGraph* graph : graphs) {
    std::vector<TaskDef>& tasks = state.tasks[graph->GetName()];
    // (producer, consumer stream) -> event id
    std::map<std::pair<const Node*, int64_t>, int64_t> events;
    for (const NodePtr& node : graph->GetDirectNode()) {
      const OpDesc& op = *node->GetOpDescBarePtr();
      const int64_t stream = op.GetStreamId();
      // Waits for producers on other streams.
      std::set<int64_t> waited;
      for (const NodePtr& producer : node->GetInNodes()) {
        const int64_t from = producer->GetOpDescBarePtr()->GetStreamId();
        if (from == stream) continue;
        auto key = std::make_pair(producer.get(), stream);
        auto it = events.find(key);
        if (it == events.end()) continue;  // recorded below when the producer ran
        if (waited.insert(it->second).second) {
          tasks.push_back(EventTask("EventWait", it->second, stream, *node));
        }
      }
      GE_ASSIGN_OR_RETURN(OpsKernelBuilderPtr builder, engines.GetOpsKernelBuilderFor(op));
      RunContext context;
      context.options = options.raw;
      // Engines read the effective switch (GE Local explains a surviving Shape with it).
      context.options[kOptConstantFolding] = std::string(options.constant_folding ? "1" : "0");
      context.stream_id = stream;
      std::vector<TaskDef> node_tasks;
      Status status = builder->GenerateTask(*node, context, node_tasks);
      if (!status.ok()) {
        return std::move(status).Prefix("GenerateTask of node '" + node->GetName() + "' (" +
                                        node->GetType() + ") by engine " + op.GetOpEngineName());
      }
      for (TaskDef& task : node_tasks) {
        if (task.stream_id < 0) task.stream_id = stream;
        tasks.push_back(std::move(task));
      }
      // Records for consumers on other streams.
      std::set<int64_t> consumer_streams;
      for (const NodePtr& consumer : node->GetOutNodes()) {
        const int64_t to = consumer->GetOpDescBarePtr()->GetStreamId();
        if (to != stream) consumer_streams.insert(to);
      }
      for (int64_t to : consumer_streams) {
        const int64_t event = next_event++;
        events[{node.get(), to}] = event;
        tasks.push_back(EventTask("EventRecord", event, stream, *node));
      }
    }
  }
  return Status::Ok();
}

}  // namespace ge::build
