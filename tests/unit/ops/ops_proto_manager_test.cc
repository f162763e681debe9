// Tests of OpsProtoManager: loading test plugin libraries copied into temporary directories,
// duplicates and the override window, broken libraries, and the search path.
#include "ge/ops/ops_proto_manager.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "ops_test_util.h"

namespace ge {
namespace {

namespace fs = std::filesystem;
using testing::ExpectError;

std::string PluginPath(const std::string& target) {
  return std::string(GE_TEST_OP_PLUGIN_DIR) + "/lib" + target + ".so";
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "openge_ops_XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  /// Copies a built plugin into the directory under `name`.
  std::string Add(const std::string& target, const std::string& name) const {
    const std::string dst = path_ + "/" + name;
    fs::copy_file(PluginPath(target), dst, fs::copy_options::overwrite_existing);
    return dst;
  }

 private:
  std::string path_;
};

TEST(OpsProtoManager, LoadsAPluginFromATemporaryDirectory) {
  TempDir dir;
  const std::string lib = dir.Add("ge_test_good_ops", "libgood.so");
  OpRegistry reg;
  OpsProtoManager manager(reg);
  ASSERT_TRUE(manager.LoadDirectory(dir.path()).ok());
  EXPECT_EQ(reg.GetAllTypes(), (std::vector<std::string>{"TestOpA", "TestOpB"}));
  EXPECT_EQ(reg.SourceOf("TestOpA"), fs::canonical(lib).string());
  EXPECT_EQ(manager.LoadedLibraries(), std::vector<std::string>{fs::canonical(lib).string()});

  // The prototype's functions live in the plugin and work through the factory.
  OpDescPtr op = reg.CreateOpDesc("TestOpA", "a").value();
  ASSERT_TRUE(op->UpdateInputDesc(0, GeTensorDesc(GeShape({5, 2}), FORMAT_ND, DT_FLOAT16)).ok());
  ASSERT_TRUE(op->InferShapeAndType().ok());
  EXPECT_EQ(op->GetOutputDesc(0).GetShape(), GeShape({5, 2}));
  EXPECT_EQ(op->GetOutputDesc(0).GetDataType(), DT_FLOAT16);
  EXPECT_TRUE(reg.Verify(*reg.CreateOpDesc("TestOpA", "b").value()).ok());
}

TEST(OpsProtoManager, LoadingTheSameLibraryTwiceIsANoOp) {
  TempDir dir;
  const std::string lib = dir.Add("ge_test_good_ops", "libgood.so");
  OpRegistry reg;
  OpsProtoManager manager(reg);
  ASSERT_TRUE(manager.LoadLibrary(lib).ok());
  EXPECT_TRUE(manager.LoadLibrary(lib).ok());
  EXPECT_EQ(manager.LoadedLibraries().size(), 1u);
}

TEST(OpsProtoManager, DuplicateRegistrationFailsTheLoadNamingBothLibraries) {
  TempDir dir;
  const std::string good = fs::canonical(dir.Add("ge_test_good_ops", "a_good.so")).string();
  const std::string dup = fs::canonical(dir.Add("ge_test_dup_ops", "b_dup.so")).string();
  OpRegistry reg;
  OpsProtoManager manager(reg);
  // Sorted load order: a_good.so first, then b_dup.so is refused.
  Status s = manager.LoadDirectory(dir.path());
  ExpectError(s, {"'TestOpA'", good.c_str(), dup.c_str()});
  EXPECT_FALSE(reg.Has("TestOpC"));  // nothing of the refused library is registered
  EXPECT_EQ(reg.SourceOf("TestOpA"), good);
  EXPECT_EQ(manager.LoadedLibraries(), std::vector<std::string>{good});
}

TEST(OpsProtoManager, OverrideWindowIsOpenForOneLoadOnly) {
  TempDir dir;
  const std::string good = dir.Add("ge_test_good_ops", "libgood.so");
  const std::string dup = dir.Add("ge_test_dup_ops", "libdup.so");
  const std::string good2 = dir.Add("ge_test_good_ops", "libgood2.so");
  OpRegistry reg;
  OpsProtoManager manager(reg);
  ASSERT_TRUE(manager.LoadLibrary(good).ok());
  ASSERT_TRUE(manager.LoadLibrary(dup, /*allow_override=*/true).ok());
  EXPECT_EQ(reg.SourceOf("TestOpA"), fs::canonical(dup).string());
  EXPECT_NE(reg.Find("TestOpA")->FindAttr("beta"), nullptr);
  EXPECT_TRUE(reg.Has("TestOpC"));
  // The window closed with that load: the next library may not replace anything.
  ExpectError(manager.LoadLibrary(good2), {"'TestOpA'", "libgood2.so", "libdup.so"});
  EXPECT_EQ(reg.SourceOf("TestOpA"), fs::canonical(dup).string());
}

TEST(OpsProtoManager, LibraryWithoutEntryPointIsRefusedClearly) {
  TempDir dir;
  const std::string lib = dir.Add("ge_test_no_entry", "libnoentry.so");
  OpRegistry reg;
  OpsProtoManager manager(reg);
  ExpectError(manager.LoadLibrary(lib), {"libnoentry.so", "is not an operator prototype library",
                                         "symbol OpenGeRegisterOpProtos not found"});
  EXPECT_EQ(reg.size(), 0u);
  EXPECT_TRUE(manager.LoadedLibraries().empty());
}

TEST(OpsProtoManager, FileThatIsNotAnElfFailsWithTheLoaderMessage) {
  TempDir dir;
  const std::string path = dir.path() + "/libbogus.so";
  std::ofstream(path) << "this is not a shared library\n";
  OpRegistry reg;
  OpsProtoManager manager(reg);
  Status s = manager.LoadLibrary(path);
  ExpectError(s, {"cannot load operator prototype library", "libbogus.so"});
  EXPECT_TRUE(s.message().find("ELF") != std::string::npos ||
              s.message().find("too short") != std::string::npos)
      << s.message();
}

TEST(OpsProtoManager, MalformedPrototypeFailsTheWholeLoad) {
  TempDir dir;
  const std::string lib = dir.Add("ge_test_failing_ops", "libfailing.so");
  OpRegistry reg;
  OpsProtoManager manager(reg);
  ExpectError(manager.LoadLibrary(lib),
              {"libfailing.so", "failed to register", "'TestOpBroken'", "undeclared type symbol"});
  EXPECT_FALSE(reg.Has("TestOpFine"));
}

TEST(OpsProtoManager, MissingLibraryOrDirectoryIsAnError) {
  OpRegistry reg;
  OpsProtoManager manager(reg);
  ExpectError(manager.LoadLibrary("/nonexistent/libx.so"), {"/nonexistent/libx.so"});
  ExpectError(manager.Initialize({{kOptionOpsProtoLibPath, "/nonexistent/dir"}}),
              {"'/nonexistent/dir' named by ge.opsProtoLibPath is not a directory"});
}

TEST(OpsProtoManager, DefaultDirectoryIsTheBuildTreeLibOps) {
  EXPECT_EQ(fs::canonical(OpsProtoManager::DefaultDirectory()),
            fs::canonical(GE_TEST_BUILTIN_OPS_DIR));
}

TEST(OpsProtoManager, InitializeLoadsBuiltinsThenEnvThenOptionDirectories) {
  TempDir env_dir;
  TempDir opt_dir;
  env_dir.Add("ge_test_good_ops", "libgood.so");
  opt_dir.Add("ge_test_dup_ops", "libdup.so");
  ASSERT_EQ(setenv(kEnvOpsProtoLibPath, env_dir.path().c_str(), 1), 0);
  const std::map<std::string, std::string> options = {{kOptionOpsProtoLibPath, opt_dir.path()}};
  const auto path = OpsProtoManager::SearchPath(options);
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(path[1], env_dir.path());
  EXPECT_EQ(path[2], opt_dir.path());
  {
    OpRegistry reg;
    OpsProtoManager manager(reg);
    // Without overriding the option library's TestOpA clashes with the env library's.
    ExpectError(manager.Initialize(options), {"'TestOpA'", "libgood.so", "libdup.so"});
    EXPECT_TRUE(reg.Has("Conv2D"));
    EXPECT_TRUE(reg.Has("TestOpB"));
  }
  {
    OpRegistry reg;
    OpsProtoManager manager(reg);
    auto with_override = options;
    with_override[kOptionOpsProtoLibOverride] = "1";
    Status s = manager.Initialize(with_override);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(reg.Has("TestOpC"));
    EXPECT_EQ(manager.LoadedLibraries().size(), 3u);
  }
  unsetenv(kEnvOpsProtoLibPath);
}

}  // namespace
}  // namespace ge
