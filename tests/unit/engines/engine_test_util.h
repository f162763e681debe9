// Helpers for the engine tests: plugin paths, temporary config files, a fixture with GE Local
// and a graph to build in.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "../graph/status_test_util.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/graph_builder.h"
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
  return R"({"name": ")" + name + R"(", "kernel_lib": ")" + kernel_lib + R"(", "library": ")" +
         library + "\"" + (extra.empty() ? "" : ", " + extra) + "}";
}
inline std::string GeLocalEntry() {
  return EngineEntry("DNN_VM_GE_LOCAL", "DNN_VM_GE_LOCAL_OP_STORE", GeLocalPlugin(),
                     R"("attach": true, "skip_assign_stream": true, "required": true)");
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

using ge::testing::IsOk;
using ge::testing::Must;

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
  GraphBuilder graph_builder_{graph_};

 private:
  static inline EngineManager* manager_ = nullptr;
};

}  // namespace ge::engine_test
