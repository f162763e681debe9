// Test helper: builds small ONNX ModelProtos in C++ and writes them to a temporary directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace ge::testing {

/// A model with opset `opset` of the default domain and an empty graph named "g".
inline onnx::ModelProto MakeModel(int64_t opset = 13) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("openge-test");
  auto* op = model.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  model.mutable_graph()->set_name("g");
  return model;
}

/// A float tensor value: dims with "" for known dims or a dim_param name (value -1).
inline void SetTensorType(onnx::ValueInfoProto* v, int32_t elem_type,
                          const std::vector<int64_t>& dims,
                          const std::vector<std::string>& params = {}) {
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem_type);
  auto* shape = t->mutable_shape();
  for (size_t i = 0; i < dims.size(); ++i) {
    auto* d = shape->add_dim();
    if (i < params.size() && !params[i].empty()) {
      d->set_dim_param(params[i]);
    } else {
      d->set_dim_value(dims[i]);
    }
  }
}

inline onnx::ValueInfoProto* AddInput(onnx::GraphProto* g, const std::string& name,
                                      const std::vector<int64_t>& dims,
                                      const std::vector<std::string>& params = {},
                                      int32_t elem_type = onnx::TensorProto::FLOAT) {
  auto* v = g->add_input();
  v->set_name(name);
  SetTensorType(v, elem_type, dims, params);
  return v;
}

inline onnx::ValueInfoProto* AddOutput(onnx::GraphProto* g, const std::string& name,
                                       const std::vector<int64_t>& dims = {1},
                                       int32_t elem_type = onnx::TensorProto::FLOAT) {
  auto* v = g->add_output();
  v->set_name(name);
  SetTensorType(v, elem_type, dims);
  return v;
}

inline onnx::NodeProto* AddNode(onnx::GraphProto* g, const std::string& op, const std::string& name,
                                std::initializer_list<std::string> in,
                                std::initializer_list<std::string> out) {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (const auto& s : in) n->add_input(s);
  for (const auto& s : out) n->add_output(s);
  return n;
}

inline void AddIntsAttr(onnx::NodeProto* n, const std::string& name, std::vector<int64_t> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
inline void AddIntAttr(onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
inline onnx::GraphProto* AddGraphAttr(onnx::NodeProto* n, const std::string& name) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  a->mutable_g()->set_name(name);
  return a->mutable_g();
}

/// A float initializer with raw data 0, 1, 2, … (one value per element).
inline onnx::TensorProto* AddInitializer(onnx::GraphProto* g, const std::string& name,
                                         const std::vector<int64_t>& dims) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  int64_t count = 1;
  for (int64_t d : dims) {
    t->add_dims(d);
    count *= d;
  }
  std::vector<float> values(static_cast<size_t>(count));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  t->set_raw_data(
      std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return t;
}

/// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() /
            ("openge_parser_" + tag + "_" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string File(const std::string& name) const { return (path_ / name).string(); }
  /// Writes `bytes` to `name` and returns the full path.
  std::string Write(const std::string& name, const std::string& bytes) const {
    std::ofstream out(File(name), std::ios::binary);
    out << bytes;
    return File(name);
  }
  std::string WriteModel(const std::string& name, const onnx::ModelProto& model) const {
    return Write(name, model.SerializeAsString());
  }

 private:
  std::filesystem::path path_;
};

}  // namespace ge::testing
