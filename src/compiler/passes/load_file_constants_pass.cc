// LoadFileConstants: every FileConstant (GE's constant whose bytes live in a file) becomes a
// Const holding those bytes, so the rest of the compiler and the .om see an ordinary weight. The
// file is mapped, not read: a weight at a 64-byte boundary is shared with the mapping.
//
// The attributes are checked before a byte is read, as ONNX external data is: file_path names a
// regular file (relative to the working directory), `offset` and `length` are non-negative and
// lie inside it, and `length` (0: the shape's size) is the byte size of `shape` and `dtype`.
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "ge/compiler/passes.h"
#include "ge/graph/file_bytes.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

std::string Who(const Node& node) { return "FileConstant '" + node.GetName() + "'"; }

Result<GeTensor> LoadValue(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  std::string path;
  std::string file_id;
  (void)AttrUtils::GetStr(op, "file_path", path);
  (void)AttrUtils::GetStr(op, "file_id", file_id);
  if (path.empty()) {
    return ParamInvalid(Who(node) + " has no file_path" +
                        (file_id.empty() ? std::string()
                                         : " (file_id '" + file_id +
                                               "' names a file of GE's file table, which this "
                                               "compiler does not have; give file_path)"));
  }
  std::vector<int64_t> dims;
  if (!AttrUtils::GetListInt(op, "shape", dims)) {
    return ParamInvalid(Who(node) + " has no 'shape' attribute");
  }
  DataType dtype = DT_UNDEFINED;
  if (!AttrUtils::GetDataType(op, "dtype", dtype) || dtype == DT_UNDEFINED) {
    return ParamInvalid(Who(node) + " has no 'dtype' attribute naming a data type");
  }
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  const int64_t bytes = TensorUtils::CalcTensorMemSize(desc);
  if (bytes < 0) {
    return ParamInvalid(Who(node) + ": shape " + desc.GetShape().ToString() +
                        " is not a known size");
  }
  int64_t offset = 0;
  int64_t length = 0;
  (void)AttrUtils::GetInt(op, "offset", offset);
  (void)AttrUtils::GetInt(op, "length", length);
  if (offset < 0 || length < 0) {
    return ParamInvalid(Who(node) + ": offset " + std::to_string(offset) + " and length " +
                        std::to_string(length) + " must not be negative");
  }
  if (length == 0) length = bytes;
  if (length != bytes) {
    return ParamInvalid(Who(node) + " reads " + std::to_string(length) + " bytes but shape " +
                        desc.GetShape().ToString() + " of " +
                        TypeUtils::DataTypeToSerialString(dtype) + " holds " +
                        std::to_string(bytes));
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return ParamInvalid(Who(node) + ": '" + path + "' is not a file" +
                        (ec ? " (" + ec.message() + ")" : std::string()));
  }
  GE_ASSIGN_OR_RETURN(FileBytes file, MapFile(path));
  if (static_cast<uint64_t>(offset) > file.size ||
      static_cast<uint64_t>(length) > file.size - static_cast<uint64_t>(offset)) {
    return ParamInvalid(Who(node) + ": bytes " + std::to_string(offset) + ".." +
                        std::to_string(offset + length) + " lie outside '" + path + "' (" +
                        std::to_string(file.size) + " bytes)");
  }
  desc.SetOriginShape(desc.GetShape());
  GeTensor value(desc);
  SetBytesFromFile(value, file, file.data.get() + offset, static_cast<size_t>(length));
  return value;
}

class LoadFileConstantsPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "LoadFileConstants"; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    bool changed = false;
    for (const NodePtr& node : graph.GetAllNodes()) {
      if (node->GetType() != kTypeFileConstant) continue;
      GE_ASSIGN_OR_RETURN(GeTensor value, LoadValue(*node));
      OpDesc& op = *node->GetOpDescBarePtr();
      GE_RETURN_IF_ERROR(op.UpdateOutputDesc(0, value.GetTensorDesc()));
      op.SetType(kTypeConst);
      for (const char* attr : {"file_path", "file_id", "shape", "dtype", "offset", "length"}) {
        op.DelAttr(attr);
      }
      AttrUtils::SetAttr(op, "value", AttrValue(std::move(value)));
      GE_RETURN_IF_ERROR(OpRegistry::Instance().AttachProto(op));
      context().CountRewrite();
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateLoadFileConstantsPass() {
  return std::make_unique<LoadFileConstantsPass>();
}

}  // namespace ge
