// Helpers for the engine tests: plugin paths, temporary config files, small graphs.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "ge/engine/engine_manager.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge::engine_test {

inline const std::string kEngineDir = GE_TEST_ENGINE_DIR;  // the build tree's lib/engines
inline const std::string kPluginDir = GE_TEST_PLUGIN_DIR;  // the test-only plugins

inline std::string TestPlugin(const std::string& name) {
  return kPluginDir + "/lib" + name + ".so";
}
inline std::string GeLocalPlugin() { return kEngineDir + "/libge_local_engine.so"; }

/// Loads the built-in operator library into the process registry: engines read operator traits
/// (views, identities, which pass removes a type) from it.
inline Status LoadBuiltinOps() {
  return OpsProtoManager::Instance().Initialize({{"ge.opsProtoLibPath", GE_TEST_BUILTIN_OPS_DIR}});
}

/// A directory removed with everything in it when the object dies.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "ge_engine_test_XXXXXX").string();
    path_ = mkdtemp(pattern.data()) == nullptr ? "" : pattern;
  }
  ~TempDir() {
    std::error_code error;
    std::filesystem::remove_all(path_, error);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// Writes `text` to `name` in the directory and returns the file's path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string file = path_ + "/" + name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::string path_;
};

/// One engine entry of an engine_conf.json.
inline std::string EngineEntry(const std::string& name, const std::string& kernel_lib,
                               const std::string& library, const std::string& extra = "") {
  return "{\"name\": \"" + name + "\", \"kernel_lib\": \"" + kernel_lib + "\", \"library\": \"" +
         library + "\"" + (extra.empty() ? "" : ", " + extra) + "}";
}
inline std::string GeLocalEntry() {
  return EngineEntry("DNN_VM_GE_LOCAL", "DNN_VM_GE_LOCAL_OP_STORE", GeLocalPlugin(),
                     "\"attach\": true, \"skip_assign_stream\": true, \"required\": true");
}
inline std::string TestEngineEntry(const std::string& library = TestPlugin("test_engine")) {
  return EngineEntry("TEST_ENGINE", "TEST_ENGINE_OP_STORE", library);
}
inline std::string Config(const std::vector<std::string>& entries) {
  std::string text = "{\"engines\": [";
  for (size_t i = 0; i < entries.size(); ++i) text += (i ? ", " : "") + entries[i];
  return text + "]}";
}

/// Options that point EngineManager at `conf` (a file) with the build tree's plugin dir.
inline std::map<std::string, std::string> OptionsFor(const std::string& conf) {
  return {{kOptionEnginePluginPath, kEngineDir}, {kOptionEngineConfPath, conf}};
}

/// Adds a node with `inputs` and `outputs` descs to `graph`.
inline NodePtr AddNode(const ComputeGraphPtr& graph, const std::string& name,
                       const std::string& type, const std::vector<GeTensorDesc>& inputs,
                       const std::vector<GeTensorDesc>& outputs) {
  auto op_desc = std::make_shared<OpDesc>(name, type);
  for (const GeTensorDesc& desc : inputs) (void)op_desc->AddInputDesc(desc);
  for (const GeTensorDesc& desc : outputs) (void)op_desc->AddOutputDesc(desc);
  auto node = graph->AddNode(op_desc);
  return node.ok() ? *node : nullptr;
}

inline GeTensorDesc Desc(std::vector<int64_t> dims, DataType dtype = DT_FLOAT) {
  return GeTensorDesc(GeShape(std::move(dims)), FORMAT_ND, dtype);
}

inline bool Link(const NodePtr& src, int src_idx, const NodePtr& dst, int dst_idx) {
  return GraphUtils::AddEdge(src->GetOutDataAnchor(src_idx), dst->GetInDataAnchor(dst_idx)).ok();
}

}  // namespace ge::engine_test

namespace ge::engine_test {

/// Loads the shipped engine_conf.json from the build tree (GE Local; the CPU engine is absent and
/// skipped) once per test suite, and hands out GE Local's objects.
class GeLocalTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Status ops = LoadBuiltinOps();
    ASSERT_TRUE(ops.ok()) << ops.ToString();
    manager_ = new EngineManager();
    Status status = manager_->Initialize({{kOptionEnginePluginPath, kEngineDir}});
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  static void TearDownTestSuite() {
    delete manager_;
    manager_ = nullptr;
  }
  static EngineManager& manager() { return *manager_; }
  static OpsKernelBuilderPtr builder() {
    return manager_->GetOpsKernelBuilder("DNN_VM_GE_LOCAL_OP_STORE");
  }
  static OpsKernelInfoStorePtr store() {
    return manager_->GetOpsKernelInfoStore("DNN_VM_GE_LOCAL_OP_STORE");
  }

  ComputeGraphPtr graph_ = std::make_shared<ComputeGraph>("g");

 private:
  static inline EngineManager* manager_ = nullptr;
};

}  // namespace ge::engine_test
