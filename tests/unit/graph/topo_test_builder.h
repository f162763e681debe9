// A small graph builder for the topological-sorting tests: nodes with a type, a number of inputs
// and outputs of chosen byte sizes, linked by data and control edges named by node.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/anchor.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"

namespace ge::topo_test {

/// An output of `bytes` bytes: a DT_UINT8 tensor of shape [bytes].
inline GeTensorDesc TensorOfBytes(int64_t bytes) {
  return GeTensorDesc(GeShape({bytes}), FORMAT_ND, DT_UINT8);
}

/// Builds one graph. Failures to build are reported as test failures (the builder is only used
/// with inputs that must work).
class TopoTestBuilder {
 public:
  explicit TopoTestBuilder(const std::string& graph_name)
      : graph_(std::make_shared<ComputeGraph>(graph_name)) {}

  /// Appends a node with `num_inputs` inputs and one output per entry of `output_bytes`.
  NodePtr AddNode(const std::string& name, const std::string& type, size_t num_inputs = 1,
                  const std::vector<int64_t>& output_bytes = {4}) {
    auto op_desc = std::make_shared<OpDesc>(name, type);
    for (size_t i = 0; i < num_inputs; ++i) Check(op_desc->AddInputDesc(TensorOfBytes(4)));
    for (int64_t bytes : output_bytes) Check(op_desc->AddOutputDesc(TensorOfBytes(bytes)));
    auto node = graph_->AddNode(op_desc);
    Check(node.status());
    return node.ok() ? node.value() : nullptr;
  }

  /// A source: no inputs, one output of `bytes` bytes.
  NodePtr AddSource(const std::string& name, const std::string& type, int64_t bytes = 4) {
    return AddNode(name, type, /*num_inputs=*/0, {bytes});
  }

  /// Data edge src:out → dst:in.
  void Data(const std::string& src, int out, const std::string& dst, int in) {
    NodePtr s = Get(src);
    NodePtr d = Get(dst);
    if (s == nullptr || d == nullptr) return;
    Check(Anchor::Link(s->GetOutDataAnchor(out), d->GetInDataAnchor(in)));
  }

  /// Data edge src:0 → the first unlinked input of dst.
  void Data(const std::string& src, const std::string& dst) {
    NodePtr d = Get(dst);
    if (d == nullptr) return;
    for (const auto& in : d->GetAllInDataAnchors()) {
      if (in->GetPeerAnchorsSize() == 0) {
        Data(src, 0, dst, in->GetIdx());
        return;
      }
    }
    ADD_FAILURE() << "node '" << dst << "' has no free input for an edge from '" << src << "'";
  }

  /// Data chain a:0 → b → c → … (each into the first free input).
  void Chain(const std::vector<std::string>& names) {
    for (size_t i = 1; i < names.size(); ++i) Data(names[i - 1], names[i]);
  }

  /// Control edge src → dst.
  void Ctrl(const std::string& src, const std::string& dst) {
    NodePtr s = Get(src);
    NodePtr d = Get(dst);
    if (s == nullptr || d == nullptr) return;
    Check(Anchor::Link(s->GetOutControlAnchor(), d->GetInControlAnchor()));
  }

  /// Edge from src's output `out` into dst's in-control anchor (a data-to-control edge).
  void DataToCtrl(const std::string& src, int out, const std::string& dst) {
    NodePtr s = Get(src);
    NodePtr d = Get(dst);
    if (s == nullptr || d == nullptr) return;
    Check(Anchor::Link(s->GetOutDataAnchor(out), d->GetInControlAnchor()));
  }

  NodePtr Get(const std::string& name) const {
    NodePtr node = graph_->FindNode(name);
    if (node == nullptr) ADD_FAILURE() << "no node '" << name << "' in " << graph_->DebugString();
    return node;
  }

  const ComputeGraphPtr& graph() const { return graph_; }

 private:
  static void Check(const Status& status) { EXPECT_TRUE(status.ok()) << status.ToString(); }

  ComputeGraphPtr graph_;
};

}  // namespace ge::topo_test
