// Writes the fuzzer's seed corpus: small graphs in binary and text form, covering edges of every
// kind, subgraphs, graph attributes and each attribute encoding, plus the handwritten GE fixture
// as text and binary. Usage: make_fuzz_seeds <fixture.pbtxt> <output directory>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "ge/graph/serialize/model_serialize.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge {
namespace {

NodePtr Add(const ComputeGraphPtr& graph, const std::string& name, const std::string& type,
            int n_in, int n_out) {
  auto op = std::make_shared<OpDesc>(name, type);
  for (int i = 0; i < n_in; ++i) (void)op->AddInputDesc(GeTensorDesc(GeShape({2, 2})));
  for (int i = 0; i < n_out; ++i) (void)op->AddOutputDesc(GeTensorDesc(GeShape({2, 2})));
  return graph->AddNode(op).value();
}

void Link(const NodePtr& src, int out, const NodePtr& dst, int in) {
  (void)Anchor::Link(src->GetOutDataAnchor(out), dst->GetInDataAnchor(in));
}

ComputeGraphPtr Chain() {
  auto graph = std::make_shared<ComputeGraph>("chain");
  NodePtr data = Add(graph, "data", "Data", 0, 1);
  NodePtr weight = graph
                       ->AddNode(OpDescUtils::CreateConstOp(
                           "w", GeTensor(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_INT32),
                                         std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0})))
                       .value();
  NodePtr add = Add(graph, "add", "Add", 3, 1);
  NodePtr out = Add(graph, "out", "NetOutput", 1, 0);
  Link(data, 0, add, 0);
  Link(weight, 0, add, 1);
  Link(add, 0, out, 0);
  (void)Anchor::Link(weight->GetOutControlAnchor(), out->GetInControlAnchor());
  (void)Anchor::Link(data->GetOutDataAnchor(0), out->GetInControlAnchor());
  graph->SetGraphOutNodesInfo({{add, 0}});
  return graph;
}

ComputeGraphPtr WithSubgraphs() {
  auto graph = std::make_shared<ComputeGraph>("main");
  NodePtr data = Add(graph, "data", "Data", 0, 1);
  NodePtr if_node = Add(graph, "if", "If", 1, 1);
  Link(data, 0, if_node, 0);
  (void)if_node->GetOpDescBarePtr()->AddSubgraphName("then_branch");
  auto then_graph = std::make_shared<ComputeGraph>("then");
  NodePtr arg = Add(then_graph, "arg", "Data", 0, 1);
  AttrUtils::SetInt(arg->GetOpDesc(), "_parent_node_index", 0);
  NodePtr ret = Add(then_graph, "ret", "NetOutput", 1, 0);
  Link(arg, 0, ret, 0);
  (void)NodeUtils::SetSubgraph(if_node, 0, then_graph);
  return graph;
}

ComputeGraphPtr WithAttributes() {
  auto graph = std::make_shared<ComputeGraph>("attrs");
  NodePtr node = Add(graph, "n", "Foo", 1, 1);
  const OpDescPtr op = node->GetOpDesc();
  NamedAttrs named("fn");
  AttrUtils::SetInt(named, "i", 3);
  AttrUtils::SetInt(op, "i", -5);
  AttrUtils::SetFloat(op, "f", 1.5f);
  AttrUtils::SetBool(op, "b", true);
  AttrUtils::SetStr(op, "s", "text");
  AttrUtils::SetBytes(op, "bt", Buffer{{1, 2, 3}});
  AttrUtils::SetDataType(op, "dt", DT_FLOAT16);
  AttrUtils::SetNamedAttrs(op, "func", named);
  AttrUtils::SetListInt(op, "li", std::vector<int64_t>{1, 2});
  AttrUtils::SetListStr(op, "ls", {});
  AttrUtils::SetListListInt(op, "lli", {{1}, {2, 3}});
  AttrUtils::SetListListFloat(op, "llf", {{1.0f}});
  AttrUtils::SetListDataType(op, "ldt", {DT_INT8});
  AttrUtils::SetTensorDesc(op, "td", GeTensorDesc(GeShape({1, 16, 4, 4, 16}), FORMAT_NC1HWC0));
  AttrUtils::SetGraph(op, "g", Chain());
  AttrUtils::SetListNamedAttrs(op, "lna", {named});
  op->SetStreamId(2);
  op->SetWorkspace({64});
  (void)op->UpdateInputName({{"__input0", "x"}});
  return graph;
}

bool Write(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(file);
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <fixture.pbtxt> <output directory>\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[2];
  int failures = 0;
  const std::pair<const char*, ge::ComputeGraphPtr> graphs[] = {
      {"chain", ge::Chain()}, {"subgraphs", ge::WithSubgraphs()}, {"attrs", ge::WithAttributes()}};
  for (const auto& [name, graph] : graphs) {
    for (auto format : {ge::SerializeFormat::kBinary, ge::SerializeFormat::kText}) {
      const bool text = format == ge::SerializeFormat::kText;
      ge::Result<std::string> bytes = ge::ModelSerialize::Serialize(*graph, format);
      if (!bytes.ok() || !ge::Write(dir + "/" + name + (text ? ".pbtxt" : ".pb"), bytes.value())) {
        ++failures;
      }
    }
  }
  std::ifstream fixture(argv[1], std::ios::binary);
  std::stringstream text;
  text << fixture.rdbuf();
  ge::Result<ge::ComputeGraphPtr> loaded =
      ge::ModelSerialize::Deserialize(text.str(), ge::SerializeFormat::kText);
  ge::Result<std::string> bytes =
      loaded.ok() ? ge::ModelSerialize::Serialize(*loaded.value()) : loaded.status();
  if (!bytes.ok() || !ge::Write(dir + "/ge_fixture.pb", bytes.value())) ++failures;
  if (!ge::Write(dir + "/ge_fixture.pbtxt", text.str())) ++failures;
  if (failures != 0) std::fprintf(stderr, "make_fuzz_seeds: %d seeds not written\n", failures);
  return failures == 0 ? 0 : 1;
}
