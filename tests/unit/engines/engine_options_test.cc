// Options an engine declares: checked by the host before the engine starts, listed per engine.
#include "ge/engine/engine_options.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine_test_util.h"

namespace ge {
namespace {

using namespace engine_test;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(EngineOptions, AValueIsCheckedAgainstItsDeclaration) {
  EngineOptionDef choice;
  choice.key = "openge.shade";
  choice.choices = {"red", "green", "blue"};
  EXPECT_TRUE(CheckEngineOption(choice, "green", "E").ok());
  Status bad = CheckEngineOption(choice, "pink", "E");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(Contains(bad.message(),
                       "option openge.shade='pink' (an option of engine E): "
                       "expected 'red', 'green' or 'blue'"))
      << bad.message();

  EngineOptionDef flag;
  flag.key = "openge.flag";
  flag.type = EngineOptionDef::Type::kBool;
  EXPECT_TRUE(CheckEngineOption(flag, "true", "E").ok());
  EXPECT_TRUE(CheckEngineOption(flag, "0", "E").ok());
  EXPECT_TRUE(
      Contains(CheckEngineOption(flag, "yes", "E").message(), "expected 1/true or 0/false"));

  EngineOptionDef count;
  count.key = "openge.count";
  count.type = EngineOptionDef::Type::kInt;
  count.min = 1;
  count.max = 8;
  EXPECT_TRUE(CheckEngineOption(count, "8", "E").ok());
  for (const char* value : {"0", "9", "2x", ""}) {
    EXPECT_TRUE(
        Contains(CheckEngineOption(count, value, "E").message(), "expected an integer in [1, 8]"))
        << value;
  }
  EXPECT_EQ(EngineOptionValue(count, {}), "");
  count.default_value = "4";
  EXPECT_EQ(EngineOptionValue(count, {}), "4");
  EXPECT_EQ(EngineOptionValue(count, {{"openge.count", "2"}}), "2");
}

TEST(EngineOptions, TheCpuEngineDeclaresItsOptionsAndTheManagerChecksThem) {
  {
    EngineManager manager;
    ASSERT_TRUE(manager.Initialize({{kOptionEnginePluginPath, kEngineDir}}).ok());
    const EngineInfo* cpu = manager.GetEngine("DNN_VM_HOST_CPU");
    ASSERT_NE(cpu, nullptr);
    std::vector<std::string> keys;
    for (const EngineOptionDef& def : cpu->options) {
      keys.push_back(def.key);
      EXPECT_FALSE(def.help.empty()) << def.key;
      EXPECT_TRUE(CheckEngineOption(def, def.default_value, "x").ok()) << def.key;
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"openge.cpuLayout", "openge.cpuWeightLayout",
                                              "openge.cpuConvAlgorithm"}));
    EXPECT_TRUE(manager.GetEngine("DNN_VM_GE_LOCAL")->options.empty());
  }
  EngineManager manager;
  Status bad =
      manager.Initialize({{kOptionEnginePluginPath, kEngineDir}, {"openge.cpuLayout", "nhwc"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(Contains(bad.message(),
                       "option openge.cpuLayout='nhwc' (an option of engine "
                       "DNN_VM_HOST_CPU): expected 'blocked' or 'plain'"))
      << bad.message();
  EXPECT_TRUE(manager.GetEngines().empty() || manager.GetEngine("DNN_VM_HOST_CPU") == nullptr);
}

}  // namespace
}  // namespace ge
