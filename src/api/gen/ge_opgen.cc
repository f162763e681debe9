// ge_opgen: writes the typed operator classes of GE's graph construction API (ge::op::Conv2D with
// set_input_x, set_attr_strides, update_output_desc_y, create_dynamic_input_x, …) for every
// prototype the given libraries register, as one header. The build runs it on the built-in
// library, so the classes always match the registry.
//
//   ge_opgen --out all_ops.h LIBRARY...
#include <cctype>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge {
namespace {

bool IsIdentifier(const std::string& s) {
  if (s.empty() || (std::isalpha(static_cast<unsigned char>(s[0])) == 0 && s[0] != '_')) {
    return false;
  }
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

// The C++ type an attribute of `type` is set and read as (Operator's Op* aliases); the kinds
// without an alias go through AttrValue.
std::string AttrCppType(AttrValue::Type type) {
  using T = AttrValue::Type;
  switch (type) {
    case T::kInt:
      return "OpInt";
    case T::kFloat:
      return "OpFloat";
    case T::kBool:
      return "OpBool";
    case T::kString:
      return "OpString";
    case T::kBytes:
      return "OpBytes";
    case T::kDataType:
      return "OpType";
    case T::kTensor:
      return "OpTensor";
    case T::kNamedAttrs:
      return "OpNamedAttrs";
    case T::kListInt:
      return "OpListInt";
    case T::kListFloat:
      return "OpListFloat";
    case T::kListBool:
      return "OpListBool";
    case T::kListString:
      return "OpListString";
    case T::kListDataType:
      return "OpListType";
    case T::kListTensor:
      return "OpListTensor";
    case T::kListListInt:
      return "OpListListInt";
    case T::kListNamedAttrs:
      return "OpListNamedAttrs";
    default:
      return "::ge::AttrValue";
  }
}

// Passed by value when small, by const reference otherwise.
std::string ParamType(AttrValue::Type type) {
  using T = AttrValue::Type;
  const std::string cpp = AttrCppType(type);
  if (type == T::kInt || type == T::kFloat || type == T::kBool || type == T::kDataType) return cpp;
  return "const " + cpp + "&";
}

void WriteInput(std::ostream& o, const std::string& cls, const OpInputDef& in) {
  const std::string& x = in.name;
  const std::string q = "\"" + x + "\"";
  o << "  static std::string name_in_" << x << "() { return " << q << "; }\n";
  if (in.kind == kIrInputDynamic) {
    o << "  " << cls << "& create_dynamic_input_" << x
      << "(uint32_t num, bool is_push_back = true) {\n"
      << "    DynamicInputRegister(" << q << ", num, is_push_back);\n    return *this;\n  }\n"
      << "  " << cls << "& create_dynamic_input_byindex_" << x << "(uint32_t num, size_t index) {\n"
      << "    DynamicInputRegisterByIndex(" << q << ", num, index);\n    return *this;\n  }\n"
      << "  " << cls << "& set_dynamic_input_" << x
      << "(uint32_t dst_index, const ::ge::Operator& v, uint32_t index = 0) {\n"
      << "    SetInput(" << q << ", dst_index, v, index);\n    return *this;\n  }\n"
      << "  " << cls << "& set_dynamic_input_" << x
      << "(uint32_t dst_index, const ::ge::Operator& v, const std::string& src_name) {\n"
      << "    SetInput(" << q << ", dst_index, v, src_name.c_str());\n    return *this;\n  }\n"
      << "  ::ge::TensorDesc get_dynamic_input_desc_" << x << "(uint32_t index) const {\n"
      << "    return GetDynamicInputDesc(" << q << ", index);\n  }\n"
      << "  ::ge::graphStatus update_dynamic_input_desc_" << x
      << "(uint32_t index, const ::ge::TensorDesc& desc) {\n"
      << "    return UpdateDynamicInputDesc(" << q << ", index, desc);\n  }\n";
    return;
  }
  o << "  " << cls << "& set_input_" << x << "(const ::ge::Operator& v) {\n"
    << "    SetInput(" << q << ", v);\n    return *this;\n  }\n"
    << "  " << cls << "& set_input_" << x << "(const ::ge::Operator& v, uint32_t index) {\n"
    << "    SetInput(" << q << ", v, index);\n    return *this;\n  }\n"
    << "  " << cls << "& set_input_" << x
    << "(const ::ge::Operator& v, const std::string& src_name) {\n"
    << "    SetInput(" << q << ", v, src_name.c_str());\n    return *this;\n  }\n"
    << "  " << cls << "& set_input_" << x
    << "_by_name(const ::ge::Operator& v, const char* src_name) {\n"
    << "    SetInput(" << q << ", v, src_name);\n    return *this;\n  }\n"
    << "  ::ge::TensorDesc get_input_desc_" << x << "() const { return GetInputDescByName(" << q
    << "); }\n"
    << "  ::ge::graphStatus update_input_desc_" << x << "(const ::ge::TensorDesc& desc) {\n"
    << "    return UpdateInputDesc(" << q << ", desc);\n  }\n";
}

void WriteOutput(std::ostream& o, const std::string& cls, const OpOutputDef& out) {
  const std::string& y = out.name;
  const std::string q = "\"" + y + "\"";
  o << "  static std::string name_out_" << y << "() { return " << q << "; }\n";
  if (out.kind == kIrOutputDynamic) {
    o << "  " << cls << "& create_dynamic_output_" << y
      << "(uint32_t num, bool is_push_back = true) {\n"
      << "    DynamicOutputRegister(" << q << ", num, is_push_back);\n    return *this;\n  }\n"
      << "  ::ge::TensorDesc get_dynamic_output_desc_" << y << "(uint32_t index) const {\n"
      << "    return GetDynamicOutputDesc(" << q << ", index);\n  }\n"
      << "  ::ge::graphStatus update_dynamic_output_desc_" << y
      << "(uint32_t index, const ::ge::TensorDesc& desc) {\n"
      << "    return UpdateDynamicOutputDesc(" << q << ", index, desc);\n  }\n";
    return;
  }
  o << "  ::ge::TensorDesc get_output_desc_" << y << "() const { return GetOutputDescByName(" << q
    << "); }\n"
    << "  ::ge::graphStatus update_output_desc_" << y << "(const ::ge::TensorDesc& desc) {\n"
    << "    return UpdateOutputDesc(" << q << ", desc);\n  }\n";
}

void WriteAttr(std::ostream& o, const std::string& cls, const OpAttrDef& attr) {
  const std::string& a = attr.name;
  const std::string q = "\"" + a + "\"";
  const std::string cpp = AttrCppType(attr.type);
  o << "  static std::string name_attr_" << a << "() { return " << q << "; }\n"
    << "  " << cls << "& set_attr_" << a << "(" << ParamType(attr.type) << " v) {\n"
    << "    SetAttr(" << q << ", v);\n    return *this;\n  }\n";
  if (attr.type == AttrValue::Type::kString) {
    o << "  " << cls << "& set_attr_" << a << "(const char* v) {\n"
      << "    SetAttr(" << q << ", v);\n    return *this;\n  }\n";
  }
  if (cpp == "::ge::AttrValue") {
    o << "  " << cpp << " get_attr_" << a << "() const {\n    " << cpp << " v;\n"
      << "    (void)GetAttr(" << q << ", v);\n    return v;\n  }\n";
  } else {
    o << "  " << cpp << " get_attr_" << a << "() const {\n    " << cpp << " v{};\n"
      << "    (void)GetAttr(" << q << ", v);\n    return v;\n  }\n";
  }
}

void WriteSubgraph(std::ostream& o, const std::string& cls, const OpSubgraphDef& sg) {
  const std::string& g = sg.name;
  const std::string q = "\"" + g + "\"";
  o << "  static std::string name_graph_" << g << "() { return " << q << "; }\n";
  if (sg.kind == kDynamic) {
    o << "  " << cls << "& create_dynamic_subgraph_" << g << "(uint32_t num) {\n"
      << "    SubgraphCountRegister(" << q << ", num);\n    return *this;\n  }\n"
      << "  ::ge::SubgraphBuilder get_dynamic_subgraph_builder_" << g
      << "(uint32_t index) const {\n"
      << "    return GetDynamicSubgraphBuilder(" << q << ", index);\n  }\n"
      << "  " << cls << "& set_dynamic_subgraph_builder_" << g
      << "(uint32_t index, const ::ge::SubgraphBuilder& v) {\n"
      << "    SetSubgraphBuilder(" << q << ", index, v);\n    return *this;\n  }\n"
      << "  ::ge::Graph get_dynamic_subgraph_" << g << "(uint32_t index) const {\n"
      << "    return GetDynamicSubgraph(" << q << ", index);\n  }\n";
    return;
  }
  o << "  ::ge::SubgraphBuilder get_subgraph_builder_" << g << "() const {\n"
    << "    return GetSubgraphBuilder(" << q << ");\n  }\n"
    << "  " << cls << "& set_subgraph_builder_" << g << "(const ::ge::SubgraphBuilder& v) {\n"
    << "    SetSubgraphBuilder(" << q << ", 0, v);\n    return *this;\n  }\n"
    << "  ::ge::Graph get_subgraph_" << g << "() const { return GetSubgraph(" << q << "); }\n";
}

// One class; members whose names are not C++ identifiers are left out (and listed), as are
// prototypes whose type is not one.
void WriteClass(std::ostream& o, const OpProto& proto, std::vector<std::string>& skipped) {
  const std::string& cls = proto.type();
  const std::string q = "\"" + cls + "\"";
  o << "/// " << cls << " (" << proto.inputs().size() << " inputs, " << proto.outputs().size()
    << " outputs, " << proto.attrs().size() << " attributes).\n"
    << "class " << cls
    << " : public ::ge::Operator {"
    // GE's own names for these (_If, _While, _Retval) begin with an underscore and a capital.
    << (cls[0] == '_' ? "  // NOLINT(bugprone-reserved-identifier)" : "") << "\n public:\n"
    << "  " << cls << "() : ::ge::Operator(" << q << ") {}\n"
    << "  explicit " << cls << "(const char* name) : ::ge::Operator(name, " << q << ") {}\n"
    << "  explicit " << cls << "(const std::string& name) : ::ge::Operator(name.c_str(), " << q
    << ") {}\n"
    << "  explicit " << cls << "(const ::ge::AscendString& name)\n"
    << "      : ::ge::Operator(name.GetString(), " << q << ") {}\n"
    << "  static std::string op_type() { return " << q << "; }\n";
  for (const auto& in : proto.inputs()) {
    if (IsIdentifier(in.name))
      WriteInput(o, cls, in);
    else
      skipped.push_back(cls + "." + in.name);
  }
  for (const auto& out : proto.outputs()) {
    if (IsIdentifier(out.name))
      WriteOutput(o, cls, out);
    else
      skipped.push_back(cls + "." + out.name);
  }
  for (const auto& attr : proto.attrs()) {
    if (IsIdentifier(attr.name))
      WriteAttr(o, cls, attr);
    else
      skipped.push_back(cls + "." + attr.name);
  }
  for (const auto& sg : proto.subgraphs()) {
    if (IsIdentifier(sg.name))
      WriteSubgraph(o, cls, sg);
    else
      skipped.push_back(cls + "." + sg.name);
  }
  o << "};\n\n";
}

int Main(int argc, char** argv) {
  std::string out_path;
  std::vector<std::string> libraries;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else {
      libraries.push_back(arg);
    }
  }
  if (out_path.empty() || libraries.empty()) {
    std::fprintf(stderr, "usage: ge_opgen --out HEADER LIBRARY...\n");
    return 2;
  }
  for (const std::string& lib : libraries) {
    Status loaded = OpsProtoManager::Instance().LoadLibrary(lib);
    if (!loaded.ok()) {
      std::fprintf(stderr, "ge_opgen: %s\n", loaded.message().c_str());
      return 1;
    }
  }
  std::ostringstream body;
  std::vector<std::string> skipped;
  size_t classes = 0;
  for (const std::string& type : OpRegistry::Instance().GetAllTypes()) {
    auto proto = OpRegistry::Instance().Find(type);
    if (!IsIdentifier(type)) {
      skipped.push_back(type);
      continue;
    }
    WriteClass(body, *proto, skipped);
    ++classes;
  }
  std::ostringstream o;
  o << "// Generated by ge_opgen from the operator prototype registry: do not edit.\n"
    << "// One ge::op class per registered operator type (" << classes << "), in the spelling of "
    << "GE's REG_OP classes.\n";
  if (!skipped.empty()) {
    o << "// Left out (not C++ identifiers):";
    for (const auto& s : skipped) o << " " << s;
    o << "\n";
  }
  o << "#pragma once\n\n#include <cstddef>\n#include <cstdint>\n#include <string>\n\n"
    << "#include \"ge/api/graph.h\"\n#include \"ge/api/operator.h\"\n#include "
       "\"ge/api/tensor.h\"\n\n"
    << "namespace ge::op {\n\n"
    << body.str() << "}  // namespace ge::op\n";
  std::ofstream file(out_path, std::ios::binary | std::ios::trunc);
  file << o.str();
  if (!file) {
    std::fprintf(stderr, "ge_opgen: cannot write %s\n", out_path.c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) { return ge::Main(argc, argv); }
