// A loaded .om never passes through the compiler's checks, so every kernel must check the
// attributes it reads when it prepares. This test compiles the ONNX node suite and the exporter-
// idiom cases, then for each operator's attributes writes the hostile values a crafted file
// holds (negative, zero, the int64 limits, NaN and infinities, empty and oversized lists, unknown
// strings) into the compiled model, sends it through the file format, loads it and runs it under
// a memory cap. Every edit must end in a clean error that names the edited node, or in a run:
// never a crash, a hang or an out-of-bounds access (the sanitizer build runs this too).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/attr_value.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/types.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Node types whose attributes describe the graph rather than a computation.
bool IsStructural(const std::string& type) {
  static const std::set<std::string> kTypes = {"Data", "NetOutput", "Const", "Constant",
                                               "Variable"};
  return kTypes.count(type) > 0;
}

// The hostile values a crafted file may put in an attribute of `value`'s kind; empty when the
// kind is not edited (tensors, graphs and the like have loaders of their own to check them).
std::vector<AttrValue> HostileValues(const AttrValue& value) {
  switch (value.GetType()) {
    case AttrValue::Type::kInt:
      return {int64_t{-1}, int64_t{0}, kMax, kMin, int64_t{1} << 31};
    case AttrValue::Type::kFloat:
      return {kNaN, -kInf, kInf, -1e30F, 0.0F};
    case AttrValue::Type::kBool:
      return {!*value.Get<bool>()};
    case AttrValue::Type::kString:
      return {std::string(), std::string("bogus")};
    case AttrValue::Type::kListInt: {
      const auto& list = *value.Get<std::vector<int64_t>>();
      const size_t n = std::max<size_t>(list.size(), 1);
      std::vector<int64_t> longer = list;
      longer.push_back(1);
      return {std::vector<int64_t>{},
              std::vector<int64_t>(n, -1),
              std::vector<int64_t>(n, 0),
              std::vector<int64_t>(n, kMax),
              std::vector<int64_t>(n, kMin),
              std::vector<int64_t>(n, (int64_t{1} << 62) + 1),
              std::move(longer)};
    }
    case AttrValue::Type::kListFloat: {
      const size_t n = std::max<size_t>(value.Get<std::vector<float>>()->size(), 1);
      return {std::vector<float>{}, std::vector<float>(n, kNaN), std::vector<float>(n, -kInf)};
    }
    case AttrValue::Type::kListString: {
      const size_t n = std::max<size_t>(value.Get<std::vector<std::string>>()->size(), 1);
      return {std::vector<std::string>{}, std::vector<std::string>(n, "bogus")};
    }
    default:
      return {};
  }
}

std::string Describe(const AttrValue& value) {
  switch (value.GetType()) {
    case AttrValue::Type::kInt:
      return std::to_string(*value.Get<int64_t>());
    case AttrValue::Type::kFloat:
      return std::to_string(*value.Get<float>());
    case AttrValue::Type::kString:
      return "'" + *value.Get<std::string>() + "'";
    case AttrValue::Type::kListInt: {
      const auto& list = *value.Get<std::vector<int64_t>>();
      return "[" + (list.empty() ? std::string() : std::to_string(list.front())) + " x" +
             std::to_string(list.size()) + "]";
    }
    default:
      return AttrValue::TypeName(value.GetType());
  }
}

// Zero-filled inputs of the model's dims (a dim known only at run time is 1); empty strings, and
// empty sequences and optionals.
std::vector<GeTensor> ZeroInputs(const LoadedModel& model) {
  std::vector<GeTensor> inputs;
  for (const IoInfo& in : model.inputs()) {
    if (in.dtype == DT_VARIANT) {
      const bool optional = in.value_type.rfind("opt(", 0) == 0;
      inputs.push_back(
          StoreComposite({optional ? ValueType::Kind::kOptional : ValueType::Kind::kSequence, {}}));
      continue;
    }
    std::vector<int64_t> dims = in.dims;
    int64_t count = 1;
    for (int64_t& d : dims) {
      if (d < 0) d = 1;
      count *= d;
    }
    if (in.dtype == DT_STRING) {
      inputs.push_back(
          MakeStringTensor(dims, std::vector<std::string>(static_cast<size_t>(count))));
      continue;
    }
    const int64_t bytes = std::max<int64_t>(TypeUtils::GetSizeInBytes(count, in.dtype), 0);
    inputs.emplace_back(GeTensorDesc(GeShape(dims), FORMAT_ND, in.dtype),
                        std::vector<uint8_t>(static_cast<size_t>(bytes), 0));
  }
  return inputs;
}

struct Case {
  std::string name;
  std::string bytes;  // the compiled model, serialized
};

// Adds the (operator, attribute) pairs of `graph`'s nodes to `attrs`; true when one is new.
bool AddsAttributes(const ComputeGraph& graph,
                    std::set<std::pair<std::string, std::string>>* attrs) {
  bool adds = false;
  for (const NodePtr& node : graph.GetAllNodes()) {
    if (IsStructural(node->GetType())) continue;
    node->GetOpDesc()->GetAttrMap().ForEach([&](const std::string& name, const AttrValue& v) {
      if (!HostileValues(v).empty()) adds |= attrs->insert({node->GetType(), name}).second;
    });
  }
  return adds;
}

// The suite's cases, compiled: only those whose parsed graph has an (operator, attribute) pair
// no case before it had, so each attribute of each operator is edited, and the compile stays
// short.
std::vector<Case> CompiledCases(std::set<std::pair<std::string, std::string>>* attrs) {
  std::vector<std::filesystem::path> models;
  for (const char* dir : {GE_TEST_CONFORMANCE_DIR "/node", GE_TEST_IDIOMS_DIR}) {
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.path().filename() == "model.onnx") models.push_back(entry.path());
    }
  }
  std::sort(models.begin(), models.end());
  auto compiler = Compiler::Create(testing::TestOptions());
  EXPECT_TRUE(compiler.ok()) << compiler.status().message();
  std::vector<Case> cases;
  if (!compiler.ok()) return cases;
  std::set<std::pair<std::string, std::string>> parsed;
  for (const auto& path : models) {
    auto graph = ParseOnnxFile(path.string());
    if (!graph.ok() || !AddsAttributes(**graph, &parsed)) continue;
    auto compiled = (*compiler)->Compile(*graph);
    if (!compiled.ok()) continue;
    AddsAttributes(*compiled->graph, attrs);
    auto bytes = compiled->Serialize();
    if (bytes.ok()) cases.push_back({path.parent_path().filename().string(), std::move(*bytes)});
  }
  return cases;
}

TEST(CorruptedAttributes, EveryKernelRefusesOrRunsHostileAttributesFromAnOm) {
  testing::LoadOps();
  const auto start = std::chrono::steady_clock::now();
  std::set<std::pair<std::string, std::string>> attrs;
  const std::vector<Case> cases = CompiledCases(&attrs);
  std::cout << "compiled in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s\n";
  // The suite holds some 150 operator types with attributes; fewer means it was not generated.
  ASSERT_GT(attrs.size(), 150U) << "the ONNX suite was not found under " GE_TEST_CONFORMANCE_DIR;
  RuntimeOptions options = testing::EngineOptions();
  options.max_memory_bytes = int64_t{256} << 20;
  options.threads = 1;
  std::set<std::pair<std::string, std::string>> edited;
  int64_t edits = 0, refused = 0;
  for (const Case& c : cases) {
    auto original = CompiledModel::Deserialize(c.bytes);
    ASSERT_TRUE(original.ok()) << c.name << ": " << original.status().message();
    for (const NodePtr& node : original->graph->GetAllNodes()) {
      if (IsStructural(node->GetType())) continue;
      std::vector<std::pair<std::string, AttrValue>> targets;
      node->GetOpDesc()->GetAttrMap().ForEach([&](const std::string& name, const AttrValue& v) {
        if (edited.insert({node->GetType(), name}).second) targets.emplace_back(name, v);
      });
      for (const auto& [name, value] : targets) {
        for (const AttrValue& hostile : HostileValues(value)) {
          SCOPED_TRACE(c.name + ": node '" + node->GetName() + "' (" + node->GetType() + ") " +
                       name + " = " + Describe(hostile));
          // Edit a fresh copy through the file: what a crafted .om holds.
          auto copy = CompiledModel::Deserialize(c.bytes);
          ASSERT_TRUE(copy.ok());
          NodePtr target = copy->graph->FindNode(node->GetName());
          if (target == nullptr) {
            for (const NodePtr& n : copy->graph->GetAllNodes()) {
              if (n->GetName() == node->GetName()) target = n;
            }
          }
          ASSERT_NE(target, nullptr);
          target->GetOpDesc()->MutableAttrMap().Set(name, hostile);
          auto bytes = copy->Serialize();
          if (!bytes.ok()) continue;  // refused at write: nothing to load
          auto read = CompiledModel::Deserialize(*bytes);
          ++edits;
          if (!read.ok()) {
            ++refused;
            continue;
          }
          auto model = LoadedModel::Load(std::move(read).value(), options);
          Status status = model.ok() ? Status::Ok() : model.status();
          if (model.ok()) {
            auto run = (*model)->Run(ZeroInputs(**model));
            if (!run.ok()) status = run.status();
          }
          if (status.ok()) continue;
          ++refused;
          EXPECT_NE(status.message().find(node->GetName()), std::string::npos)
              << "the error does not name the edited node: " << status.message();
        }
      }
    }
  }
  std::cout << cases.size() << " cases, " << edited.size() << " attributes, " << edits << " edits, "
            << refused << " refused\n";
  EXPECT_GT(edits, 1000);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace ge
