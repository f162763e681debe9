// Building small graphs for compiler tests from the built-in operator prototypes.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ge/compiler/compile_options.h"
#include "ge/compiler/graph_pass.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge::testing {

/// The first line of the model exporter's status file in `models_dir` ("ok" when the exported
/// models exist; tests that need them fail, never skip, otherwise).
inline std::string ExportStatus(const std::string& models_dir) {
  std::ifstream in(models_dir + "/export_status.txt");
  std::string line;
  if (!in || !std::getline(in, line)) return "missing export_status.txt in " + models_dir;
  return line;
}

inline void LoadOps() {
  Status s = OpsProtoManager::Instance().Initialize({});
  ASSERT_TRUE(s.ok()) << s.message();
}

/// Options every compiler test uses: the engines of this build, the verifier after each pass.
inline std::map<std::string, std::string> TestOptions(
    std::map<std::string, std::string> extra = {}) {
  std::map<std::string, std::string> options = {{kOptEnginePluginPath, GE_TEST_ENGINE_DIR},
                                                {kOptVerifyPasses, "1"}};
  for (auto& [k, v] : extra) options[k] = v;
  return options;
}

template <typename T>
GeTensor MakeTensor(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  desc.SetOriginShape(GeShape(dims));
  return GeTensor(desc, std::move(bytes));
}

template <typename T>
std::vector<T> TensorValues(const GeTensor& t) {
  std::vector<T> out(t.GetSize() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.GetData().data(), out.size() * sizeof(T));
  return out;
}

/// A graph under construction. Every helper asserts success (so tests read as the graph).
class GraphBuilder {
 public:
  explicit GraphBuilder(const std::string& name = "g")
      : graph_(std::make_shared<ComputeGraph>(name)) {}

  ComputeGraphPtr graph() const { return graph_; }

  NodePtr Data(const std::string& name, std::vector<int64_t> dims, DataType dtype = DT_FLOAT,
               int64_t index = -1) {
    OpDescPtr op = Create("Data", name, {});
    GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
    desc.SetOriginShape(GeShape(dims));
    desc.SetOriginDataType(dtype);
    EXPECT_TRUE(op->UpdateOutputDesc(0, desc).ok());
    AttrUtils::SetInt(*op, "index", index >= 0 ? index : data_count_);
    ++data_count_;
    NodePtr node = AddOp(op);
    EXPECT_TRUE(graph_->AddInputNode(node).ok());
    return node;
  }

  template <typename T>
  NodePtr Const(const std::string& name, DataType dtype, std::vector<int64_t> dims,
                const std::vector<T>& values) {
    return AddOp(OpDescUtils::CreateConstOp(name, MakeTensor(dtype, std::move(dims), values)));
  }

  /// A node of `type` whose inputs are (node, output index) pairs, in order; dynamic inputs get
  /// `counts`.
  NodePtr Op(const std::string& type, const std::string& name,
             const std::vector<std::pair<NodePtr, int>>& inputs,
             const std::map<std::string, AttrValue>& attrs = {}, DynamicPortCounts counts = {}) {
    OpDescPtr op = Create(type, name, counts);
    for (const auto& [k, v] : attrs) op->MutableAttrMap().Set(k, v);
    NodePtr node = AddOp(op);
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].first == nullptr) continue;
      Status s = GraphUtils::AddEdge(inputs[i].first->GetOutDataAnchor(inputs[i].second),
                                     node->GetInDataAnchor(static_cast<int>(i)));
      EXPECT_TRUE(s.ok()) << name << " input " << i << ": " << s.message();
    }
    return node;
  }

  NodePtr Output(const std::vector<std::pair<NodePtr, int>>& inputs,
                 const std::string& name = "output") {
    return Op("NetOutput", name, inputs, {}, {{"x", static_cast<uint32_t>(inputs.size())}});
  }

 private:
  OpDescPtr Create(const std::string& type, const std::string& name,
                   const DynamicPortCounts& counts) {
    auto op = OpRegistry::Instance().CreateOpDesc(type, name, counts);
    EXPECT_TRUE(op.ok()) << type << ": " << op.status().message();
    return op.ok() ? *op : nullptr;
  }
  NodePtr AddOp(const OpDescPtr& op) {
    auto node = graph_->AddNode(op);
    EXPECT_TRUE(node.ok()) << node.status().message();
    return node.ok() ? *node : nullptr;
  }
  ComputeGraphPtr graph_;
  int64_t data_count_ = 0;
};

/// The build tree's engines, loaded once for the process: passes that run kernels (constant
/// folding) reach them through the pass context, as inside a Compiler.
inline const EngineManager& TestEngines() {
  static const EngineManager* engines = [] {
    auto* manager = new EngineManager();  // lives as long as the process, like the plugins
    Status status = manager->Initialize(TestOptions());
    if (!status.ok()) ADD_FAILURE() << "loading the engines failed: " << status.ToString();
    return manager;
  }();
  return *engines;
}

/// The options the test engines declare (CompileOptions::Parse accepts them).
inline std::vector<std::string> EngineKeys() {
  std::vector<std::string> keys;
  for (const EngineInfo& engine : TestEngines().GetEngines()) {
    for (const EngineOptionDef& def : engine.options) keys.push_back(def.key);
  }
  return keys;
}

/// Runs one pass with `options` and returns its report (asserting success).
inline PassReport RunPass(GraphPass& pass, ComputeGraph& graph,
                          const std::map<std::string, std::string>& options = {}) {
  auto parsed = CompileOptions::Parse(TestOptions(options), EngineKeys());
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  PassContext context(*parsed, OpRegistry::Instance());
  context.set_engines(&TestEngines());
  auto report = pass.Run(graph, context);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return report.ok() ? *report : PassReport{};
}

inline Status RunPassStatus(GraphPass& pass, ComputeGraph& graph,
                            const std::map<std::string, std::string>& options = {}) {
  auto parsed = CompileOptions::Parse(TestOptions(options), EngineKeys());
  if (!parsed.ok()) return parsed.status();
  PassContext context(*parsed, OpRegistry::Instance());
  context.set_engines(&TestEngines());
  auto report = pass.Run(graph, context);
  return report.ok() ? Status::Ok() : report.status();
}

inline size_t CountType(const ComputeGraph& graph, const std::string& type) {
  size_t n = 0;
  for (const NodePtr& node : graph.GetAllNodes()) n += node->GetType() == type;
  return n;
}

/// The Const feeding input `index` of `node`, or nullptr.
inline NodePtr ConstInput(const NodePtr& node, int index) {
  auto in = node->GetInDataAnchor(index);
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return nullptr;
  NodePtr producer = in->GetPeerOutAnchor()->GetOwnerNode();
  return producer->GetType() == "Const" ? producer : nullptr;
}

}  // namespace ge::testing
