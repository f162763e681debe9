// Tests of engine_conf.json parsing: the shipped file, every field, and every error.
#include "ge/engine/engine_config.h"

#include <gtest/gtest.h>

#include "engine_test_util.h"

namespace ge {
namespace {

using engine_test::kEngineDir;

TEST(EngineConfig, ShippedFileListsGeLocalThenHostCpu) {
  auto configs = LoadEngineConfigFile(kEngineDir + "/engine_conf.json");
  ASSERT_TRUE(configs.ok()) << configs.status().ToString();
  ASSERT_EQ(configs->size(), 2u);
  const EngineConfig& local = (*configs)[0];
  EXPECT_EQ(local.name, "DNN_VM_GE_LOCAL");
  EXPECT_EQ(local.kernel_lib, "DNN_VM_GE_LOCAL_OP_STORE");
  EXPECT_EQ(local.library, "libge_local_engine.so");
  EXPECT_TRUE(local.attach);
  EXPECT_TRUE(local.skip_assign_stream);
  EXPECT_FALSE(local.independent);
  EXPECT_TRUE(local.required);
  EXPECT_EQ((*configs)[1].name, "DNN_VM_HOST_CPU");
  EXPECT_FALSE((*configs)[1].required);
}

TEST(EngineConfig, FlagsDefaultToFalse) {
  auto configs = ParseEngineConfig(
      R"({"engines": [{"name": "A", "kernel_lib": "A_LIB", "library": "a.so"}]})", "conf.json");
  ASSERT_TRUE(configs.ok()) << configs.status().ToString();
  EXPECT_EQ((*configs)[0], (EngineConfig{"A", "A_LIB", "a.so", false, false, false, false}));
}

TEST(EngineConfig, KeepsPriorityOrder) {
  auto configs = ParseEngineConfig(
      R"({"engines": [{"name": "B", "kernel_lib": "B_LIB", "library": "b.so", "independent": true},
                      {"name": "A", "kernel_lib": "A_LIB", "library": "a.so"}]})",
      "conf.json");
  ASSERT_TRUE(configs.ok()) << configs.status().ToString();
  ASSERT_EQ(configs->size(), 2u);
  EXPECT_EQ((*configs)[0].name, "B");
  EXPECT_TRUE((*configs)[0].independent);
  EXPECT_EQ((*configs)[1].name, "A");
}

struct BadConfig {
  const char* text;
  const char* expected;  // a part of the message
};

class EngineConfigErrors : public ::testing::TestWithParam<BadConfig> {};

TEST_P(EngineConfigErrors, NameTheFileAndTheField) {
  auto configs = ParseEngineConfig(GetParam().text, "/etc/my_conf.json");
  ASSERT_FALSE(configs.ok());
  EXPECT_EQ(configs.status().code(), StatusCode::kParamInvalid);
  EXPECT_NE(configs.status().message().find("/etc/my_conf.json"), std::string::npos)
      << configs.status().message();
  EXPECT_NE(configs.status().message().find(GetParam().expected), std::string::npos)
      << configs.status().message();
}

INSTANTIATE_TEST_SUITE_P(
    All, EngineConfigErrors,
    ::testing::Values(BadConfig{"{engines: ", "not valid JSON"},
                      BadConfig{"[]", "must be a JSON object"},
                      BadConfig{"{}", "missing field 'engines'"},
                      BadConfig{R"({"engines": {}})", "must be an array"},
                      BadConfig{R"({"engines": [], "extra": 1})", "unknown field 'extra'"},
                      BadConfig{R"({"engines": [7]})", "engines[0]: must be an object"},
                      BadConfig{R"({"engines": [{"kernel_lib": "L", "library": "l.so"}]})",
                                "missing required field 'name'"},
                      BadConfig{R"({"engines": [{"name": "A", "library": "l.so"}]})",
                                "engines[0] ('A'): missing required field 'kernel_lib'"},
                      BadConfig{R"({"engines": [{"name": "A", "kernel_lib": "L"}]})",
                                "missing required field 'library'"},
                      BadConfig{
                          R"({"engines": [{"name": 3, "kernel_lib": "L", "library": "l.so"}]})",
                          "field 'name' must be a non-empty string"},
                      BadConfig{R"({"engines": [{"name": "A", "kernel_lib": "L", "library": "l.so",
                                   "attach": "yes"}]})",
                                "flag 'attach' must be true or false"},
                      BadConfig{R"({"engines": [{"name": "A", "kernel_lib": "L", "library": "l.so",
                                   "skip_assign": true}]})",
                                "unknown field 'skip_assign'"},
                      BadConfig{R"({"engines": [{"name": "A", "kernel_lib": "L", "library": "l.so"},
                                  {"name": "A", "kernel_lib": "M", "library": "m.so"}]})",
                                "engines[1] ('A'): field 'name': duplicate engine 'A'"},
                      BadConfig{R"({"engines": [{"name": "A", "kernel_lib": "L", "library": "l.so"},
                                  {"name": "B", "kernel_lib": "L", "library": "m.so"}]})",
                                "field 'kernel_lib': kernel library 'L' is already used"}));

TEST(EngineConfig, MissingFileIsAnErrorNamingIt) {
  auto configs = LoadEngineConfigFile("/nonexistent/engine_conf.json");
  ASSERT_FALSE(configs.ok());
  EXPECT_NE(configs.status().message().find("/nonexistent/engine_conf.json"), std::string::npos);
  EXPECT_NE(configs.status().message().find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace ge
