// The generated ge::op classes: one per registered prototype, with a member for every port,
// attribute and subgraph, checked against the registry the build generated them from.
#include "ge/api/all_ops.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>

#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge {
namespace {

static_assert(std::is_base_of_v<Operator, op::Conv2D>);
static_assert(std::is_base_of_v<Operator, op::NetOutput>);

std::string ReadHeader() {
  std::ifstream in(GE_TEST_ALL_OPS_HEADER);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The text of `type`'s class, or "" when the header has none.
std::string ClassText(const std::string& header, const std::string& type) {
  const std::string head = "\nclass " + type + " : public ::ge::Operator {";
  size_t begin = header.find(head);
  if (begin == std::string::npos) return "";
  size_t end = header.find("\n};", begin);
  return header.substr(begin, end - begin);
}

TEST(AllOps, EveryPrototypeHasAClassWithEveryMember) {
  ASSERT_TRUE(OpsProtoManager::Instance().Initialize({}).ok());
  const std::string header = ReadHeader();
  ASSERT_FALSE(header.empty()) << GE_TEST_ALL_OPS_HEADER;
  const std::vector<std::string> types = OpRegistry::Instance().GetAllTypes();
  ASSERT_GT(types.size(), 150u);
  for (const std::string& type : types) {
    SCOPED_TRACE(type);
    const std::string text = ClassText(header, type);
    ASSERT_FALSE(text.empty()) << "no class for " << type;
    auto proto = OpRegistry::Instance().Find(type);
    auto has = [&](const std::string& member) {
      EXPECT_NE(text.find(" " + member + "("), std::string::npos) << member;
    };
    for (const auto& in : proto->inputs()) {
      if (in.kind == kIrInputDynamic) {
        has("create_dynamic_input_" + in.name);
        has("set_dynamic_input_" + in.name);
      } else {
        has("set_input_" + in.name);
        has("update_input_desc_" + in.name);
      }
    }
    for (const auto& out : proto->outputs()) {
      if (out.kind == kIrOutputDynamic) {
        has("create_dynamic_output_" + out.name);
      } else {
        has("get_output_desc_" + out.name);
        has("update_output_desc_" + out.name);
      }
    }
    for (const auto& attr : proto->attrs()) {
      has("set_attr_" + attr.name);
      has("get_attr_" + attr.name);
    }
    for (const auto& sg : proto->subgraphs()) {
      has(sg.kind == kDynamic ? "set_dynamic_subgraph_builder_" + sg.name
                              : "set_subgraph_builder_" + sg.name);
    }
  }
}

TEST(AllOps, AttributeMembersHaveThePrototypesTypes) {
  op::Conv2D conv("conv");
  static_assert(std::is_same_v<decltype(conv.get_attr_strides()), std::vector<int64_t>>);
  static_assert(std::is_same_v<decltype(conv.get_attr_group()), int64_t>);
  static_assert(std::is_same_v<decltype(conv.get_attr_data_format()), std::string>);
  op::Const c("c");
  static_assert(std::is_same_v<decltype(c.get_attr_value()), Tensor>);
  EXPECT_EQ(op::Conv2D::op_type(), "Conv2D");
  EXPECT_EQ(op::Conv2D::name_in_filter(), "filter");
  EXPECT_EQ(op::Conv2D::name_attr_strides(), "strides");
}

}  // namespace
}  // namespace ge
