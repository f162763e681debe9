// ONNX parser on the ONNX backend node test suite (tests/conformance/generate_onnx_suite.py):
// prints "N of M parse" and the operators still missing, and fails when N drops below the
// recorded count.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "ge/parser/onnx_parser.h"
#include "onnx_test_data.h"

namespace ge {
namespace {

const std::string kSuiteDir = GE_ONNX_CONFORMANCE_DIR;
/// Models of the suite known to parse; raise it when operators are added.
constexpr int kRecordedParseCount = 914;

void CollectMissing(const onnx::GraphProto& graph, const std::map<std::string, int64_t>& opsets,
                    std::set<std::string>& missing) {
  for (const auto& node : graph.node()) {
    std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
    auto it = opsets.find(domain);
    int64_t opset = it == opsets.end() ? -1 : it->second;
    if (!OnnxOpToIrType(node.op_type(), opset, domain)) {
      missing.insert((domain.empty() ? "" : domain + "::") + node.op_type());
    }
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) CollectMissing(attr.g(), opsets, missing);
    }
  }
}

TEST(OnnxConformance, NodeSuiteParses) {
  ASSERT_EQ(testing::ReadStatus(kSuiteDir + "/generate_status.txt"), "ok")
      << "the ONNX conformance suite was not generated; see target ge_onnx_test_data";
  std::vector<std::filesystem::path> models;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kSuiteDir)) {
    if (entry.path().filename() == "model.onnx") models.push_back(entry.path());
  }
  std::sort(models.begin(), models.end());
  ASSERT_GT(models.size(), 100U);
  int parsed = 0;
  std::map<std::string, std::vector<std::string>> missing_ops;  // op → cases
  std::map<std::string, std::string> other_failures;            // case → first message line
  for (const auto& path : models) {
    std::string name = path.parent_path().filename().string();
    auto result = ParseOnnxFile(path.string());
    if (result.ok()) {
      ++parsed;
      continue;
    }
    onnx::ModelProto model;
    std::set<std::string> missing;
    if (testing::ReadProto(path.string(), model)) {
      std::map<std::string, int64_t> opsets;
      for (const auto& imp : model.opset_import()) {
        opsets[imp.domain() == "ai.onnx" ? "" : imp.domain()] = imp.version();
      }
      CollectMissing(model.graph(), opsets, missing);
    }
    for (const auto& op : missing) missing_ops[op].push_back(name);
    if (missing.empty()) {
      const std::string& msg = result.status().message();
      other_failures[name] = msg.substr(0, msg.find('\n'));
    }
  }
  std::cout << parsed << " of " << models.size() << " parse\n";
  std::cout << "missing operators (" << missing_ops.size() << "):";
  for (const auto& [op, cases] : missing_ops) std::cout << " " << op << "(" << cases.size() << ")";
  std::cout << "\nother failures (" << other_failures.size() << "):\n";
  for (const auto& [name, msg] : other_failures) std::cout << "  " << name << ": " << msg << "\n";
  EXPECT_GE(parsed, kRecordedParseCount);
}

}  // namespace
}  // namespace ge
