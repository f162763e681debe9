// CompileOptions: defaults, every reader, and the errors for unknown keys and bad values.
#include "ge/compiler/compile_options.h"

#include <gtest/gtest.h>

namespace ge {
namespace {

TEST(CompileOptions, DefaultsWhenNothingIsGiven) {
  auto options = CompileOptions::Parse({});
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_TRUE(options->constant_folding);
  EXPECT_FALSE(options->disable_reuse_memory);
  EXPECT_TRUE(options->single_stream);
  EXPECT_EQ(options->memory_alignment, 64);
  EXPECT_EQ(options->fold_max_bytes, int64_t{16} << 20);
  EXPECT_FALSE(options->topo_mode_given);
  EXPECT_EQ(options->topo.mode, TopoSortingMode::kDFS);
  EXPECT_TRUE(options->disabled_passes.empty());
}

TEST(CompileOptions, ReadsGeSpellings) {
  auto options =
      CompileOptions::Parse({{"ge.oo.constantFolding", "0"},
                             {"ge.exec.disableReuseMemory", "true"},
                             {"ge.enableSingleStream", "false"},
                             {"ge.topoSortingMode", "0"},
                             {"ge.exec.memoryOptimizationPolicy", "MemoryPriority"},
                             {"openge.memoryAlignment", "512"},
                             {"openge.disablePasses", " SimplifyChains , DeadCodeElimination"},
                             {"ge.inputShape", "x:1,3,224,224;mask:-1,16"}});
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_FALSE(options->constant_folding);
  EXPECT_TRUE(options->disable_reuse_memory);
  EXPECT_FALSE(options->single_stream);
  EXPECT_TRUE(options->topo_mode_given);
  EXPECT_EQ(options->topo.mode, TopoSortingMode::kBFS);
  EXPECT_TRUE(options->topo.memory_priority);
  EXPECT_EQ(options->memory_alignment, 512);
  EXPECT_EQ(options->disabled_passes,
            (std::set<std::string>{"SimplifyChains", "DeadCodeElimination"}));
  ASSERT_EQ(options->input_shapes.size(), 2u);
  EXPECT_EQ(options->input_shapes.at("x"), (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(options->input_shapes.at("mask"), (std::vector<int64_t>{-1, 16}));
  EXPECT_EQ(options->raw.at("ge.oo.constantFolding"), "0");
}

TEST(CompileOptions, UnknownKeySuggestsTheClosestOne) {
  auto options = CompileOptions::Parse({{"ge.oo.constantFoldng", "1"}});
  ASSERT_FALSE(options.ok());
  EXPECT_NE(options.status().message().find("unknown option 'ge.oo.constantFoldng'"),
            std::string::npos);
  EXPECT_NE(options.status().message().find("did you mean 'ge.oo.constantFolding'"),
            std::string::npos);
}

TEST(CompileOptions, BadValuesNameTheOptionAndWhatItTakes) {
  struct Case {
    const char* key;
    const char* value;
    const char* expect;
  };
  for (const Case& c : {Case{"ge.oo.constantFolding", "yes", "expected 1/true or 0/false"},
                        Case{"openge.memoryAlignment", "48", "power of two"},
                        Case{"openge.memoryAlignment", "abc", "expected an integer"},
                        Case{"openge.maxStreamNum", "0", "in [1, 64]"},
                        Case{"ge.topoSortingMode", "7", "ge.topoSortingMode"},
                        Case{"ge.inputShape", "x", "expected NAME:D0,D1"},
                        Case{"ge.inputShape", "x:1,b", "dimension 'b'"},
                        Case{"ge.inputShape", "x:1,-2", "dimension '-2'"},
                        Case{"ge.inputShape", "x:1;x:2", "given twice"}}) {
    auto options = CompileOptions::Parse({{c.key, c.value}});
    ASSERT_FALSE(options.ok()) << c.key << "=" << c.value;
    EXPECT_NE(options.status().message().find(c.expect), std::string::npos)
        << c.key << "=" << c.value << ": " << options.status().message();
  }
}

TEST(CompileOptions, EngineDeclaredKeysAreAcceptedAndSuggested) {
  EXPECT_FALSE(CompileOptions::Parse({{"openge.cpuLayout", "plain"}}).ok());
  auto parsed = CompileOptions::Parse({{"openge.cpuLayout", "plain"}}, {"openge.cpuLayout"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->raw.at("openge.cpuLayout"), "plain");
  auto typo = CompileOptions::Parse({{"openge.cpuLayot", "plain"}}, {"openge.cpuLayout"});
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("did you mean 'openge.cpuLayout'?"), std::string::npos)
      << typo.status().message();
}

TEST(CompileOptions, KnownListsEveryOptionOnce) {
  std::set<std::string> keys;
  for (const OptionInfo& info : CompileOptions::Known()) {
    EXPECT_TRUE(keys.insert(info.key).second) << info.key;
    EXPECT_FALSE(info.help.empty()) << info.key;
  }
  EXPECT_TRUE(keys.count("ge.exec.disableReuseMemory"));
  EXPECT_TRUE(keys.count("ge.topoSortingMode"));
}

}  // namespace
}  // namespace ge
