// Shared by the fusion tests: compile a graph with and without the Fusion pass, run both on the
// same random inputs and compare every output; read the pass's counters.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/runtime/loaded_model.h"

namespace ge::fusion_test {

inline std::vector<float> Random(size_t n, uint32_t seed, float lo = -1.0F, float hi = 1.0F) {
  return testing::RandomFloats(n, seed, lo, hi);
}

inline Result<CompiledModel> Compile(ComputeGraphPtr graph,
                                     std::map<std::string, std::string> extra = {}) {
  GE_ASSIGN_OR_RETURN(auto compiler, Compiler::Create(testing::TestOptions(std::move(extra))));
  return compiler->Compile(graph);
}

/// Every output of `compiled` run on `inputs`, as floats (empty and a test failure on error).
inline std::vector<std::vector<float>> Run(CompiledModel compiled,
                                           const std::vector<GeTensor>& inputs) {
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  auto model = LoadedModel::Load(std::move(compiled), options);
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return {};
  auto out = (*model)->Run(inputs);
  EXPECT_TRUE(out.ok()) << out.status().message();
  std::vector<std::vector<float>> values;
  if (out.ok()) {
    for (const GeTensor& t : *out) values.push_back(testing::TensorValues<float>(t));
  }
  return values;
}

inline int64_t Counter(const CompiledModel& m, const std::string& counter) {
  const PassReport* pass = m.report.FindPass("optimize", "Fusion");
  if (pass == nullptr) return -1;
  auto it = pass->counters.find(counter);
  return it == pass->counters.end() ? 0 : it->second;
}

/// Compiles `make()` with and without Fusion (plus `extra` options), runs both on random float
/// inputs of `input_dims` for two seeds and expects every output to agree within `tolerance`
/// (relative, absolute below 1). Returns the fused compile for further checks.
inline CompiledModel ExpectFusedMatchesUnfused(const std::function<ComputeGraphPtr()>& make,
                                               const std::vector<std::vector<int64_t>>& input_dims,
                                               std::map<std::string, std::string> extra = {},
                                               float tolerance = 1e-5F) {
  auto fused = Compile(make(), extra);
  extra["openge.disablePasses"] = "Fusion";
  auto plain = Compile(make(), extra);
  EXPECT_TRUE(fused.ok()) << fused.status().message();
  EXPECT_TRUE(plain.ok()) << plain.status().message();
  if (!fused.ok() || !plain.ok()) return CompiledModel{};
  for (uint32_t seed : {21U, 22U}) {
    std::vector<GeTensor> inputs;
    uint32_t k = 0;
    for (const std::vector<int64_t>& dims : input_dims) {
      int64_t n = 1;
      for (int64_t d : dims) n *= d;
      inputs.push_back(testing::MakeTensor(
          DT_FLOAT, dims, Random(static_cast<size_t>(n), seed * 31 + k++, -3.0F, 3.0F)));
    }
    const auto a = Run(*fused, inputs);
    const auto b = Run(*plain, inputs);
    EXPECT_EQ(a.size(), b.size());
    for (size_t o = 0; o < std::min(a.size(), b.size()); ++o) {
      EXPECT_EQ(a[o].size(), b[o].size());
      for (size_t i = 0; i < std::min(a[o].size(), b[o].size()); ++i) {
        EXPECT_NEAR(a[o][i], b[o][i], tolerance * std::max(1.0F, std::fabs(b[o][i])))
            << "output " << o << " element " << i;
      }
    }
  }
  return std::move(fused).value();
}

}  // namespace ge::fusion_test
