// Building small graphs for compiler tests from the built-in operator prototypes.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../graph/status_test_util.h"
#include "ge/compiler/compile_options.h"
#include "ge/compiler/graph_pass.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/graph_builder.h"
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

/// `n` floats uniform in [lo, hi), the same for the same seed.
inline std::vector<float> RandomFloats(size_t n, uint32_t seed, float lo = -1.0F, float hi = 1.0F) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& f : v) f = dist(rng);
  return v;
}

template <typename T>
GeTensor MakeTensor(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  desc.SetOriginShape(GeShape(dims));
  return {desc, std::move(bytes)};
}

template <typename T>
std::vector<T> TensorValues(const GeTensor& t) {
  std::vector<T> out(t.GetSize() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.GetData().data(), out.size() * sizeof(T));
  return out;
}

/// A graph of operators made from the registry's prototypes, built with GraphBuilder: each call
/// is one node, and an error is a test failure (so tests read as the graph). builder() gives the
/// GraphBuilder for what these calls do not cover (control edges, subgraphs).
class ProtoGraph {
 public:
  explicit ProtoGraph(const std::string& name = "g") : builder_(name) {}

  ComputeGraphPtr graph() const { return builder_.GetGraph(); }
  GraphBuilder& builder() { return builder_; }

  NodePtr Data(const std::string& name, std::vector<int64_t> dims, DataType dtype = DT_FLOAT) {
    return Must(builder_.AddData(name, std::move(dims), dtype));
  }
  /// A Data node of a subgraph that stands for input `parent_index` of the parent node.
  NodePtr SubgraphData(const std::string& name, int64_t parent_index, std::vector<int64_t> dims,
                       DataType dtype = DT_FLOAT) {
    return Must(
        builder_.AddSubgraphData(name, parent_index, GraphBuilder::Desc(std::move(dims), dtype)));
  }

  template <typename T>
  NodePtr Const(const std::string& name, DataType dtype, std::vector<int64_t> dims,
                const std::vector<T>& values) {
    return Must(builder_.AddConst(name, dtype, std::move(dims), values));
  }

  /// A node of `type` from its prototype (dynamic inputs and outputs get `counts`) whose inputs
  /// are fed from `inputs`, in order; a null node leaves an optional input unlinked.
  NodePtr Op(const std::string& type, const std::string& name,
             const std::vector<NodeOutput>& inputs, const NodeAttrs& attrs = {},
             const DynamicPortCounts& counts = {}) {
    Result<OpDescPtr> op = OpRegistry::Instance().CreateOpDesc(type, name, counts);
    if (!op.ok()) {
      ADD_FAILURE() << type << ": " << op.status().message();
      return nullptr;
    }
    return Must(builder_.AddNode(*op, inputs, attrs));
  }

  /// The prototype's NetOutput over `inputs`. Unlike GraphBuilder::AddNetOutput it leaves the
  /// graph's output info empty: these tests' graphs have their outputs in the NetOutput only (the
  /// CPU engine's layout choices, for one, differ when the output info names a producer).
  NodePtr Output(const std::vector<NodeOutput>& inputs, const std::string& name = "output") {
    return Op("NetOutput", name, inputs, {}, {{"x", static_cast<uint32_t>(inputs.size())}});
  }

 private:
  GraphBuilder builder_;
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
