// Tests of plugin loading: the real GE Local plugin, a test-only plugin, and broken plugins.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine_test_util.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

using namespace engine_test;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(EnginePlugin, LoadsGeLocalAndTheCpuEngineFromTheDefaultConfig) {
  EngineManager manager;
  Status status = manager.Initialize({{kOptionEnginePluginPath, kEngineDir}});
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(manager.GetEngines().size(), 2u);
  const EngineInfo& local = manager.GetEngines()[0];
  EXPECT_EQ(local.config.name, "DNN_VM_GE_LOCAL");
  EXPECT_EQ(local.library_path, kEngineDir + "/libge_local_engine.so");
  EXPECT_NE(local.store, nullptr);
  EXPECT_NE(local.builder, nullptr);
  ASSERT_EQ(local.optimizers.count("ge_local_graph_optimizer"), 1u);
  GraphOptimizerAttribute attrs;
  ASSERT_TRUE(local.optimizers.at("ge_local_graph_optimizer")->GetAttributes(attrs).ok());
  EXPECT_EQ(attrs.engineName, "DNN_VM_GE_LOCAL");
  const EngineInfo& cpu = manager.GetEngines()[1];
  EXPECT_EQ(cpu.config.name, "DNN_VM_HOST_CPU");
  EXPECT_EQ(cpu.library_path, kEngineDir + "/libhost_cpu_engine.so");
  ASSERT_NE(cpu.store, nullptr);
  ASSERT_NE(cpu.builder, nullptr);
  // The CPU engine takes compute operators and leaves control flow to others, saying why.
  std::string reason;
  EXPECT_TRUE(cpu.store->CheckSupported(std::make_shared<OpDesc>("c", "Conv2D"), reason));
  EXPECT_FALSE(cpu.store->CheckSupported(std::make_shared<OpDesc>("w", "While"), reason));
  EXPECT_TRUE(Contains(reason, "control flow"));
  EXPECT_TRUE(manager.GetSkippedEngineNotes().empty());
  EXPECT_TRUE(manager.Finalize().ok());
  EXPECT_FALSE(manager.IsInitialized());
  EXPECT_TRUE(manager.GetEngines().empty());
}

TEST(EnginePlugin, SkipsAnAbsentOptionalEngineWithANote) {
  TempDir dir;
  EngineManager manager;
  Status status = manager.Initialize(OptionsFor(dir.Write(
      "conf.json",
      Config({GeLocalEntry(), EngineEntry("DNN_VM_HOST_CPU", "DNN_VM_HOST_CPU_OP_STORE",
                                          "libabsent_cpu_engine.so", "\"required\": false")}))));
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(manager.GetEngines().size(), 1u);
  ASSERT_EQ(manager.GetSkippedEngineNotes().size(), 1u);
  EXPECT_TRUE(Contains(manager.GetSkippedEngineNotes()[0], "DNN_VM_HOST_CPU"));
  EXPECT_TRUE(Contains(manager.GetSkippedEngineNotes()[0], "libabsent_cpu_engine.so"));
  EXPECT_TRUE(manager.Finalize().ok());
}

TEST(EnginePlugin, LoadsATestEngineBesideGeLocalInConfigOrder) {
  TempDir dir;
  EngineManager manager;
  Status status = manager.Initialize(
      OptionsFor(dir.Write("conf.json", Config({GeLocalEntry(), TestEngineEntry()}))));
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(manager.GetEngines().size(), 2u);
  EXPECT_EQ(manager.GetEngines()[0].config.name, "DNN_VM_GE_LOCAL");
  EXPECT_EQ(manager.GetEngines()[1].config.name, "TEST_ENGINE");
  EXPECT_NE(manager.GetOpsKernelInfoStore("TEST_ENGINE_OP_STORE"), nullptr);
  EXPECT_NE(manager.GetOpsKernelBuilder("TEST_ENGINE_OP_STORE"), nullptr);
  EXPECT_EQ(manager.GetOpsKernelBuilder("NO_SUCH_LIB"), nullptr);
  ASSERT_NE(manager.GetEngine("TEST_ENGINE"), nullptr);
  EXPECT_EQ(manager.GetEngine("TEST_ENGINE")->optimizers.count("test_engine_optimizer"), 1u);
  EXPECT_TRUE(manager.GetSkippedEngineNotes().empty());
}

TEST(EnginePlugin, RelativeLibraryNamesResolveInThePluginDirectory) {
  TempDir dir;
  EngineManager manager;
  auto options = OptionsFor(
      dir.Write("conf.json",
                Config({EngineEntry("TEST_ENGINE", "TEST_ENGINE_OP_STORE", "libtest_engine.so")})));
  options[kOptionEnginePluginPath] = kPluginDir;
  Status status = manager.Initialize(options);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(manager.GetEngines()[0].library_path, kPluginDir + "/libtest_engine.so");
}

TEST(EnginePlugin, ARequiredEngineWithoutItsLibraryIsAnError) {
  TempDir dir;
  EngineManager manager;
  Status status = manager.Initialize(OptionsFor(dir.Write(
      "conf.json", Config({GeLocalEntry(),
                           EngineEntry("X", "X_LIB", "/nowhere/libx.so", "\"required\": true")}))));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "engine 'X' is required")) << status.message();
  EXPECT_TRUE(Contains(status.message(), "/nowhere/libx.so")) << status.message();
  EXPECT_TRUE(Contains(status.message(), "ge.enginePluginPath")) << status.message();
  EXPECT_FALSE(manager.IsInitialized());
  EXPECT_TRUE(manager.GetEngines().empty());  // GE Local, loaded first, was unloaded again
}

TEST(EnginePlugin, AMissingEntryPointNamesTheLibraryAndTheSymbol) {
  TempDir dir;
  EngineManager manager;
  const std::string library = TestPlugin("test_engine_missing_symbol");
  Status status = manager.Initialize(
      OptionsFor(dir.Write("conf.json", Config({GeLocalEntry(), TestEngineEntry(library)}))));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "engine 'TEST_ENGINE'")) << status.message();
  EXPECT_TRUE(Contains(status.message(), library)) << status.message();
  EXPECT_TRUE(Contains(status.message(), "does not export the entry point 'GetGraphOptimizerObjs'"))
      << status.message();
  EXPECT_TRUE(manager.GetEngines().empty());
}

TEST(EnginePlugin, AFailingInitializeNamesTheEngineTheLibraryAndTheCause) {
  TempDir dir;
  EngineManager manager;
  const std::string library = TestPlugin("test_engine_init_fails");
  Status status =
      manager.Initialize(OptionsFor(dir.Write("conf.json", Config({TestEngineEntry(library)}))));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "engine 'TEST_ENGINE': Initialize of engine plugin '" +
                                             library + "' failed"))
      << status.message();
  EXPECT_TRUE(Contains(status.message(), "the test engine refuses to start")) << status.message();
  EXPECT_FALSE(manager.IsInitialized());
}

TEST(EnginePlugin, InitializeReceivesTheOptions) {
  TempDir dir;
  EngineManager manager;
  auto options = OptionsFor(dir.Write("conf.json", Config({GeLocalEntry(), TestEngineEntry()})));
  options["test.engine.failInitialize"] = "1";
  Status status = manager.Initialize(options);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "option test.engine.failInitialize=1"))
      << status.message();
  // The same manager can start again once the option is gone.
  options.erase("test.engine.failInitialize");
  status = manager.Initialize(options);
  EXPECT_TRUE(status.ok()) << status.ToString();
}

TEST(EnginePlugin, AFileThatIsNotALibraryIsAnErrorNamingIt) {
  TempDir dir;
  const std::string bogus = dir.Write("libbogus.so", "this is not an ELF file");
  EngineManager manager;
  Status status = manager.Initialize(
      OptionsFor(dir.Write("conf.json", Config({EngineEntry("BOGUS", "BOGUS_LIB", bogus)}))));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "engine 'BOGUS': cannot load engine plugin '" + bogus))
      << status.message();
}

TEST(EnginePlugin, AStoreNotNamedByTheConfigIsAnError) {
  TempDir dir;
  EngineManager manager;
  Status status = manager.Initialize(OptionsFor(dir.Write(
      "conf.json", Config({EngineEntry("TEST_ENGINE", "WRONG_LIB", TestPlugin("test_engine"))}))));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "provides no ops kernel info store named 'WRONG_LIB'"))
      << status.message();
  EXPECT_TRUE(Contains(status.message(), "'TEST_ENGINE_OP_STORE'")) << status.message();
}

TEST(EnginePlugin, AnOptimizerNamingAnotherEngineIsAnError) {
  TempDir dir;
  EngineManager manager;
  // The test plugin's optimizer says TEST_ENGINE; configure the plugin under another name.
  Status status = manager.Initialize(OptionsFor(dir.Write(
      "conf.json",
      Config({EngineEntry("OTHER", "TEST_ENGINE_OP_STORE", TestPlugin("test_engine"))}))));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "names engine 'TEST_ENGINE' in GetAttributes"))
      << status.message();
}

TEST(EnginePlugin, ABadConfigFileIsAnErrorNamingIt) {
  TempDir dir;
  EngineManager manager;
  const std::string conf = dir.Write("conf.json", "{\"engines\": [{\"name\": \"A\"}]}");
  Status status = manager.Initialize(OptionsFor(conf));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), conf)) << status.message();
  EXPECT_TRUE(Contains(status.message(), "missing required field 'kernel_lib'"))
      << status.message();
}

TEST(EnginePlugin, InitializeTwiceIsRefusedAndFinalizeAllowsAgain) {
  EngineManager manager;
  ASSERT_TRUE(manager.Initialize({{kOptionEnginePluginPath, kEngineDir}}).ok());
  Status again = manager.Initialize({{kOptionEnginePluginPath, kEngineDir}});
  EXPECT_FALSE(again.ok());
  EXPECT_TRUE(Contains(again.message(), "already initialized"));
  EXPECT_TRUE(manager.Finalize().ok());
  EXPECT_TRUE(manager.Initialize({{kOptionEnginePluginPath, kEngineDir}}).ok());
}

TEST(EnginePlugin, DefaultPluginDirIsTheInstallDirectoryElseTheBuildTree) {
  const std::string dir = EngineManager::DefaultPluginDir();
  EXPECT_TRUE(Contains(dir, "openge/engines") || dir == kEngineDir) << dir;
  // From a build that is not installed, the default finds this build's plugins.
  if (dir == kEngineDir) {
    EngineManager manager;
    ASSERT_TRUE(manager.Initialize({}).ok());
    EXPECT_EQ(manager.GetEngines().size(), 2u);
    EXPECT_TRUE(manager.Finalize().ok());
  }
}

TEST(EnginePlugin, GraphOptimizersRunAtEachStageInPipelineOrder) {
  TempDir dir;
  EngineManager manager;
  ASSERT_TRUE(manager
                  .Initialize(OptionsFor(
                      dir.Write("conf.json", Config({GeLocalEntry(), TestEngineEntry()}))))
                  .ok());
  ComputeGraph graph("g");
  for (OptimizeStage stage :
       {OptimizeStage::kOriginalGraph, OptimizeStage::kOriginalGraphJudgeInsert,
        OptimizeStage::kFusedGraph, OptimizeStage::kWholeGraph}) {
    Status status = manager.RunGraphOptimizers(stage, graph);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  std::vector<std::string> hooks;
  ASSERT_TRUE(AttrUtils::GetListStr(graph, "test_engine_hooks", hooks));
  EXPECT_EQ(hooks,
            (std::vector<std::string>{"OptimizeOriginalGraph", "OptimizeOriginalGraphJudgeInsert",
                                      "OptimizeFusedGraph", "OptimizeWholeGraph"}));
}

TEST(EnginePlugin, AFailingOptimizerNamesItselfItsEngineAndTheStage) {
  TempDir dir;
  EngineManager manager;
  ASSERT_TRUE(
      manager.Initialize(OptionsFor(dir.Write("conf.json", Config({TestEngineEntry()})))).ok());
  ComputeGraph graph("g");
  AttrUtils::SetBool(graph, "test_engine_fail_whole_graph", true);
  Status status = manager.RunGraphOptimizers(OptimizeStage::kWholeGraph, graph);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(),
                       "OptimizeWholeGraph of graph 'g' by optimizer "
                       "'test_engine_optimizer' of engine 'TEST_ENGINE'"))
      << status.message();
  EXPECT_TRUE(Contains(status.message(), "asked to fail")) << status.message();
}

TEST(EnginePlugin, GeLocalOpInfoHasGesFieldsForEveryRegisteredType) {
  EngineManager manager;
  ASSERT_TRUE(manager.Initialize({{kOptionEnginePluginPath, kEngineDir}}).ok());
  std::map<std::string, OpInfo> infos;
  manager.GetOpsKernelInfoStore("DNN_VM_GE_LOCAL_OP_STORE")->GetAllOpsKernelInfo(infos);
  // GE's no-op types, Loop, Scan and ONNX's sequence and optional operators; GE's deleted types.
  EXPECT_EQ(infos.size(), 59u + 29u);
  const OpInfo expected{
      "DNN_VM_GE_LOCAL", "DNN_VM_GE_LOCAL_OP_STORE", 0, false, false, false, "", ""};
  for (const auto& [type, info] : infos) EXPECT_EQ(info, expected) << type;
  for (const char* type :
       {"Data", "Const", "PhonyConcat", "UnsqueezeV3", "Identity", "Shape", "GatherShapes"}) {
    EXPECT_EQ(infos.count(type), 1u) << type;
  }
}

}  // namespace
}  // namespace ge
