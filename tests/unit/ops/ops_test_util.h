// Test helpers: the built-in prototype library loaded into a registry of its own, and OpHarness,
// which places one op in a small graph built with GraphBuilder (Data / Const producers) and runs
// its inference.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../graph/status_test_util.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge::testing {

/// A registry holding the built-in library (loaded once from the build tree).
inline const OpRegistry& Builtins() {
  static OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    OpsProtoManager manager(*r);
    Status s = manager.LoadDirectory(GE_TEST_BUILTIN_OPS_DIR);
    if (!s.ok()) ADD_FAILURE() << "loading the built-in library failed: " << s.ToString();
    return r;
  }();
  return *registry;
}

template <typename T>
GeTensor MakeTensor(const std::vector<T>& values, DataType dt, std::vector<int64_t> shape) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return {GeTensorDesc(GeShape(std::move(shape)), FORMAT_ND, dt), std::move(bytes)};
}

/// One op of `type` in a graph; inputs are fed by Data nodes (In) or Const nodes (Const*).
class OpHarness {
 public:
  explicit OpHarness(const std::string& type, const DynamicPortCounts& counts = {})
      : builder_("g") {
    auto op = Builtins().CreateOpDesc(type, "op", counts);
    if (!op.ok()) {
      ADD_FAILURE() << op.status().ToString();
      op_ = std::make_shared<OpDesc>("op", type);
    } else {
      op_ = op.value();
    }
    node_ = Must(builder_.AddNode(op_));
  }

  /// Feeds input `index` from a Data node with this shape and dtype.
  OpHarness& In(size_t index, std::vector<int64_t> shape, DataType dt = DT_FLOAT) {
    Feed(builder_.AddData("in" + std::to_string(index),
                          GeTensorDesc(GeShape(std::move(shape)), FORMAT_ND, dt)),
         index);
    return *this;
  }
  OpHarness& Const(size_t index, const GeTensor& value) {
    Feed(builder_.AddConst("const" + std::to_string(index), value), index);
    return *this;
  }
  OpHarness& ConstInts(size_t index, const std::vector<int64_t>& v, std::vector<int64_t> shape) {
    return Const(index, MakeTensor(v, DT_INT64, std::move(shape)));
  }
  /// A 1-D int64 const.
  OpHarness& ConstInts(size_t index, const std::vector<int64_t>& v) {
    return ConstInts(index, v, {static_cast<int64_t>(v.size())});
  }
  OpHarness& ConstFloats(size_t index, const std::vector<float>& v, std::vector<int64_t> shape) {
    return Const(index, MakeTensor(v, DT_FLOAT, std::move(shape)));
  }
  OpHarness& Attr(const std::string& name, AttrValue value) {
    AttrUtils::SetAttr(op_, name, std::move(value));
    return *this;
  }

  Status Infer() { return Builtins().InferShape(node_); }
  Status Verify() { return Builtins().Verify(node_); }
  GeShape Out(size_t i = 0) const {
    return op_->GetOutputDesc(static_cast<uint32_t>(i)).GetShape();
  }
  std::vector<int64_t> Dims(size_t i = 0) const { return Out(i).GetDims(); }
  DataType OutType(size_t i = 0) const {
    return op_->GetOutputDesc(static_cast<uint32_t>(i)).GetDataType();
  }
  const OpDescPtr& op() const { return op_; }
  const NodePtr& node() const { return node_; }

 private:
  void Feed(const Result<NodePtr>& producer, size_t index) {
    if (!producer.ok()) {
      ADD_FAILURE() << producer.status().ToString();
      return;
    }
    Status s = builder_.AddDataEdge(*producer, node_, static_cast<int32_t>(index));
    if (!s.ok()) ADD_FAILURE() << s.ToString();
  }

  GraphBuilder builder_;
  OpDescPtr op_;
  NodePtr node_;
};

using Dims = std::vector<int64_t>;

/// Expects `s` to fail with a message containing every fragment.
inline void ExpectError(const Status& s, std::initializer_list<const char*> fragments) {
  EXPECT_FALSE(s.ok()) << "unexpected success";
  for (const char* f : fragments) {
    EXPECT_NE(s.message().find(f), std::string::npos) << "'" << f << "' not in: " << s.message();
  }
}

}  // namespace ge::testing
