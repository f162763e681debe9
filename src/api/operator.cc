// ge::Operator over an OpDesc made from the operator's prototype.
#include "ge/api/operator.h"

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "ge/api/graph.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"
#include "operator_impl.h"

namespace ge {
namespace {

// Loads the prototype libraries once per process (the compiler loads them again, which finds
// them loaded); the Status says why when that failed.
const Status& LoadPrototypes() {
  static std::once_flag once;
  static Status loaded;
  std::call_once(once, [] { loaded = OpsProtoManager::Instance().Initialize({}); });
  return loaded;
}

std::string JoinNames(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::vector<std::string> OutputNames(const OpDesc& desc) {
  std::vector<std::string> names;
  for (uint32_t i = 0; i < desc.GetOutputsSize(); ++i)
    names.push_back(desc.GetOutputNameByIndex(i));
  return names;
}

Status NoSuch(const OperatorImpl& impl, const char* what, const std::string& name,
              const std::vector<std::string>& have) {
  return ParamInvalid(impl.Where() + " has no " + what + " named '" + name + "' (its " + what +
                      "s: " + JoinNames(have) + ")");
}

}  // namespace

std::string OperatorImpl::Where() const {
  return "operator '" + desc->GetName() + "' (" + desc->GetType() + ")";
}

void OperatorImpl::Fail(const std::string& what) {
  errors.push_back(what);
  (void)ReportStatus(ParamInvalid(Where() + ": " + what));
}

Operator::Operator(const char* type) {
  static std::atomic<uint64_t> unnamed{0};
  const std::string t = StrOrEmpty(type);
  *this = Operator((t + "_" + std::to_string(unnamed.fetch_add(1))).c_str(), t.c_str());
}

Operator::Operator(const char* name, const char* type) : impl_(std::make_shared<OperatorImpl>()) {
  const std::string n = StrOrEmpty(name);
  const std::string t = StrOrEmpty(type);
  const Status& loaded = LoadPrototypes();
  auto desc = OpRegistry::Instance().CreateOpDesc(t, n);
  if (desc.ok()) {
    impl_->desc = std::move(desc).value();
    return;
  }
  impl_->desc = std::make_shared<OpDesc>(n, t);
  std::string why = desc.status().message();
  if (!loaded.ok()) why += " (loading the operator libraries failed: " + loaded.message() + ")";
  impl_->Fail(why);
}

Operator Operator::FromOpDesc(const OpDescPtr& op_desc) {
  if (op_desc == nullptr) return {};
  auto impl = std::make_shared<OperatorImpl>();
  impl->desc = op_desc;
  return Operator(std::move(impl));
}

OpDescPtr Operator::GetOpDesc() const { return impl_ == nullptr ? nullptr : impl_->desc; }

std::string Operator::GetName() const { return impl_ == nullptr ? "" : impl_->desc->GetName(); }

graphStatus Operator::GetName(AscendString& name) const {
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("GetName of an empty Operator"));
  name = AscendString(impl_->desc->GetName().c_str());
  return GRAPH_SUCCESS;
}

std::string Operator::GetOpType() const { return impl_ == nullptr ? "" : impl_->desc->GetType(); }

graphStatus Operator::GetOpType(AscendString& type) const {
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("GetOpType of an empty Operator"));
  type = AscendString(impl_->desc->GetType().c_str());
  return GRAPH_SUCCESS;
}

// ---- inputs ----

Operator& Operator::SetInput(const char* dst_name, const Operator& src_oprt) {
  return SetInput(dst_name, src_oprt, 0u);
}

Operator& Operator::SetInput(const char* dst_name, const Operator& src_oprt, const char* name) {
  if (impl_ == nullptr) {
    (void)ReportStatus(ParamInvalid("SetInput on an empty Operator"));
    return *this;
  }
  if (src_oprt.impl_ == nullptr) {
    impl_->Fail("input '" + StrOrEmpty(dst_name) + "' is set from an empty Operator");
    return *this;
  }
  const int32_t index = src_oprt.impl_->desc->GetOutputIndexByName(StrOrEmpty(name));
  if (index < 0) {
    Status s =
        NoSuch(*src_oprt.impl_, "output", StrOrEmpty(name), OutputNames(*src_oprt.impl_->desc));
    impl_->Fail("input '" + StrOrEmpty(dst_name) + "': " + s.message());
    return *this;
  }
  return SetInput(dst_name, src_oprt, static_cast<uint32_t>(index));
}

Operator& Operator::SetInput(const char* dst_name, const Operator& src_oprt, uint32_t index) {
  if (impl_ == nullptr) {
    (void)ReportStatus(ParamInvalid("SetInput on an empty Operator"));
    return *this;
  }
  const std::string dst = StrOrEmpty(dst_name);
  if (src_oprt.impl_ == nullptr) {
    impl_->Fail("input '" + dst + "' is set from an empty Operator");
    return *this;
  }
  OpDesc& desc = *impl_->desc;
  const int32_t dst_index = desc.GetInputIndexByName(dst);
  if (dst_index < 0) {
    impl_->Fail("has no input named '" + dst +
                "' (its inputs: " + JoinNames(desc.GetAllInputNames()) + ")");
    return *this;
  }
  const OpDesc& src = *src_oprt.impl_->desc;
  if (index >= src.GetOutputsSize()) {
    impl_->Fail("input '" + dst + "' reads output " + std::to_string(index) + " of " +
                src_oprt.impl_->Where() + ", which has " + std::to_string(src.GetOutputsSize()) +
                " outputs");
    return *this;
  }
  impl_->inputs[dst] = {src_oprt.impl_, static_cast<int32_t>(index)};
  (void)desc.UpdateInputDesc(static_cast<uint32_t>(dst_index), src.GetOutputDesc(index));
  return *this;
}

Operator& Operator::SetInput(const char* dst_name, uint32_t dst_index, const Operator& src_oprt,
                             uint32_t index) {
  return SetInput((StrOrEmpty(dst_name) + std::to_string(dst_index)).c_str(), src_oprt, index);
}

Operator& Operator::SetInput(const char* dst_name, uint32_t dst_index, const Operator& src_oprt,
                             const char* name) {
  return SetInput((StrOrEmpty(dst_name) + std::to_string(dst_index)).c_str(), src_oprt, name);
}

Operator& Operator::AddControlInput(const Operator& src_oprt) {
  if (impl_ == nullptr) {
    (void)ReportStatus(ParamInvalid("AddControlInput on an empty Operator"));
  } else if (src_oprt.impl_ == nullptr) {
    impl_->Fail("a control input from an empty Operator");
  } else {
    impl_->control_inputs.push_back(src_oprt.impl_);
  }
  return *this;
}

graphStatus Operator::GetInputConstData(const char* dst_name, Tensor& data) const {
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("GetInputConstData of an empty Operator"));
  auto it = impl_->inputs.find(StrOrEmpty(dst_name));
  if (it == impl_->inputs.end()) {
    return ReportStatus(
        ParamInvalid(impl_->Where() + ": input '" + StrOrEmpty(dst_name) + "' is not linked"));
  }
  const OpDesc& src = *it->second.src->desc;
  const auto* value =
      IsConstType(src.GetType()) ? AttrUtils::GetPtr<GeTensor>(src, "value") : nullptr;
  if (value == nullptr) {
    return ReportStatus(ParamInvalid(impl_->Where() + ": input '" + StrOrEmpty(dst_name) +
                                     "' is fed by " + it->second.src->Where() +
                                     ", not by a Const with a value"));
  }
  data = TensorAdapter::AsTensor(*value);
  return GRAPH_SUCCESS;
}

void Operator::BreakConnect() const {
  if (impl_ == nullptr) return;
  impl_->inputs.clear();
  impl_->control_inputs.clear();
}

// ---- descs ----

TensorDesc Operator::GetInputDesc(uint32_t index) const {
  if (impl_ == nullptr || index >= impl_->desc->GetAllInputsSize()) {
    (void)ReportStatus(ParamInvalid("GetInputDesc: no input " + std::to_string(index)));
    return {};
  }
  return TensorAdapter::GeTensorDesc2TensorDesc(impl_->desc->GetInputDesc(index));
}

TensorDesc Operator::GetInputDescByName(const char* name) const {
  TensorDesc desc;
  (void)TryGetInputDesc(name, desc);
  return desc;
}

graphStatus Operator::TryGetInputDesc(const char* name, TensorDesc& tensor_desc) const {
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("TryGetInputDesc of an empty Operator"));
  const int32_t index = impl_->desc->GetInputIndexByName(StrOrEmpty(name));
  if (index < 0) {
    return ReportStatus(NoSuch(*impl_, "input", StrOrEmpty(name), impl_->desc->GetAllInputNames()));
  }
  tensor_desc = TensorAdapter::GeTensorDesc2TensorDesc(
      impl_->desc->GetInputDesc(static_cast<uint32_t>(index)));
  return GRAPH_SUCCESS;
}

graphStatus Operator::UpdateInputDesc(const char* name, const TensorDesc& tensor_desc) {
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("UpdateInputDesc of an empty Operator"));
  const int32_t index = impl_->desc->GetInputIndexByName(StrOrEmpty(name));
  if (index < 0) {
    return ReportStatus(NoSuch(*impl_, "input", StrOrEmpty(name), impl_->desc->GetAllInputNames()));
  }
  impl_->updated_inputs.insert(StrOrEmpty(name));
  return ReportStatus(impl_->desc->UpdateInputDesc(
      static_cast<uint32_t>(index), TensorAdapter::TensorDesc2GeTensorDesc(tensor_desc)));
}

TensorDesc Operator::GetOutputDesc(uint32_t index) const {
  if (impl_ == nullptr || index >= impl_->desc->GetOutputsSize()) {
    (void)ReportStatus(ParamInvalid("GetOutputDesc: no output " + std::to_string(index)));
    return {};
  }
  return TensorAdapter::GeTensorDesc2TensorDesc(impl_->desc->GetOutputDesc(index));
}

TensorDesc Operator::GetOutputDescByName(const char* name) const {
  if (impl_ == nullptr) return {};
  const int32_t index = impl_->desc->GetOutputIndexByName(StrOrEmpty(name));
  if (index < 0) {
    (void)ReportStatus(NoSuch(*impl_, "output", StrOrEmpty(name), OutputNames(*impl_->desc)));
    return {};
  }
  return GetOutputDesc(static_cast<uint32_t>(index));
}

graphStatus Operator::UpdateOutputDesc(const char* name, const TensorDesc& tensor_desc) {
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("UpdateOutputDesc of an empty Operator"));
  const int32_t index = impl_->desc->GetOutputIndexByName(StrOrEmpty(name));
  if (index < 0) {
    return ReportStatus(NoSuch(*impl_, "output", StrOrEmpty(name), OutputNames(*impl_->desc)));
  }
  impl_->updated_outputs.insert(StrOrEmpty(name));
  return ReportStatus(impl_->desc->UpdateOutputDesc(
      static_cast<uint32_t>(index), TensorAdapter::TensorDesc2GeTensorDesc(tensor_desc)));
}

TensorDesc Operator::GetDynamicInputDesc(const char* name, uint32_t index) const {
  return GetInputDescByName((StrOrEmpty(name) + std::to_string(index)).c_str());
}

graphStatus Operator::UpdateDynamicInputDesc(const char* name, uint32_t index,
                                             const TensorDesc& tensor_desc) {
  return UpdateInputDesc((StrOrEmpty(name) + std::to_string(index)).c_str(), tensor_desc);
}

TensorDesc Operator::GetDynamicOutputDesc(const char* name, uint32_t index) const {
  return GetOutputDescByName((StrOrEmpty(name) + std::to_string(index)).c_str());
}

graphStatus Operator::UpdateDynamicOutputDesc(const char* name, uint32_t index,
                                              const TensorDesc& tensor_desc) {
  return UpdateOutputDesc((StrOrEmpty(name) + std::to_string(index)).c_str(), tensor_desc);
}

int Operator::GetDynamicInputNum(const char* name) const {
  if (impl_ == nullptr) return 0;
  int n = 0;
  while (impl_->desc->GetInputIndexByName(StrOrEmpty(name) + std::to_string(n)) >= 0) ++n;
  return n;
}

int Operator::GetDynamicOutputNum(const char* name) const {
  if (impl_ == nullptr) return 0;
  int n = 0;
  while (impl_->desc->GetOutputIndexByName(StrOrEmpty(name) + std::to_string(n)) >= 0) ++n;
  return n;
}

Operator& Operator::DynamicInputRegister(const char* name, uint32_t num, bool is_push_back) {
  if (impl_ == nullptr) return *this;
  bool declared = false;
  for (const auto& [ir, kind] : impl_->desc->GetIrInputs()) {
    declared = declared || (ir == StrOrEmpty(name) && kind == kIrInputDynamic);
  }
  if (!declared) {
    impl_->Fail("has no dynamic input named '" + StrOrEmpty(name) + "'");
    return *this;
  }
  // More instances after the ones there are: numbered on from them, right after the last.
  const int have = GetDynamicInputNum(name);
  if (have > 0 && !is_push_back) {
    impl_->Fail("dynamic input '" + StrOrEmpty(name) + "' has " + std::to_string(have) +
                " instances already; more can only be added at its end");
    return *this;
  }
  Status added = Status::Ok();
  if (have == 0) {
    added = impl_->desc->AddDynamicInputDesc(StrOrEmpty(name), num, is_push_back);
  } else {
    auto at = static_cast<uint32_t>(
        impl_->desc->GetInputIndexByName(StrOrEmpty(name) + std::to_string(have - 1)));
    for (uint32_t i = 0; i < num && added.ok(); ++i) {
      added = impl_->desc->AddInputDesc(
          at + 1 + i, StrOrEmpty(name) + std::to_string(have + static_cast<int>(i)),
          GeTensorDesc());
    }
  }
  if (!added.ok()) impl_->Fail(added.message());
  return *this;
}

Operator& Operator::DynamicOutputRegister(const char* name, uint32_t num, bool is_push_back) {
  if (impl_ == nullptr) return *this;
  bool declared = false;
  for (const auto& [ir, kind] : impl_->desc->GetIrOutputs()) {
    declared = declared || (ir == StrOrEmpty(name) && kind == kIrOutputDynamic);
  }
  if (!declared) {
    impl_->Fail("has no dynamic output named '" + StrOrEmpty(name) + "'");
    return *this;
  }
  const int have = GetDynamicOutputNum(name);
  Status added = Status::Ok();
  if (have == 0) {
    added = impl_->desc->AddDynamicOutputDesc(StrOrEmpty(name), num, is_push_back);
  } else if (!is_push_back) {
    added = ParamInvalid("dynamic output '" + StrOrEmpty(name) + "' has " + std::to_string(have) +
                         " instances already; more can only be added at its end");
  } else {
    for (uint32_t i = 0; i < num && added.ok(); ++i) {
      added = impl_->desc->AddOutputDesc(
          StrOrEmpty(name) + std::to_string(have + static_cast<int>(i)), GeTensorDesc());
    }
  }
  if (!added.ok()) impl_->Fail(added.message());
  return *this;
}

Operator& Operator::DynamicInputRegisterByIndex(const char* name, uint32_t num, size_t index) {
  if (impl_ == nullptr) return *this;
  Status added = impl_->desc->AddDynamicInputDescByIndex(StrOrEmpty(name), num, index);
  if (!added.ok()) impl_->Fail(added.message());
  return *this;
}

size_t Operator::GetInputsSize() const {
  return impl_ == nullptr ? 0 : impl_->desc->GetInputsSize();
}

size_t Operator::GetOutputsSize() const {
  return impl_ == nullptr ? 0 : impl_->desc->GetOutputsSize();
}

graphStatus Operator::InferShapeAndType() {
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("InferShapeAndType of an empty Operator"));
  return ReportStatus(OpRegistry::Instance().InferShape(*impl_->desc));
}

graphStatus Operator::VerifyAllAttr(bool disable_common_verifier) {
  (void)disable_common_verifier;  // the generic checks are part of every verification here
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("VerifyAllAttr of an empty Operator"));
  return ReportStatus(OpRegistry::Instance().Verify(*impl_->desc));
}

// ---- subgraphs ----

size_t Operator::GetSubgraphNamesCount() const {
  return impl_ == nullptr ? 0 : impl_->desc->GetSubgraphIrNames().size();
}

graphStatus Operator::GetSubgraphNames(std::vector<AscendString>& names) const {
  names.clear();
  if (impl_ == nullptr) return ReportStatus(ParamInvalid("GetSubgraphNames of an empty Operator"));
  for (const auto& [name, kind] : impl_->desc->GetSubgraphIrNames()) {
    names.emplace_back(name.c_str());
  }
  return GRAPH_SUCCESS;
}

SubgraphBuilder Operator::GetSubgraphBuilder(const char* name) const {
  return GetDynamicSubgraphBuilder(name, 0);
}

SubgraphBuilder Operator::GetDynamicSubgraphBuilder(const char* name, uint32_t index) const {
  if (impl_ == nullptr) return nullptr;
  auto it = impl_->subgraphs.find(StrOrEmpty(name));
  if (it == impl_->subgraphs.end() || index >= it->second.size()) return nullptr;
  return it->second[index];
}

Graph Operator::GetSubgraph(const char* name) const { return GetDynamicSubgraph(name, 0); }

Graph Operator::GetDynamicSubgraph(const char* name, uint32_t index) const {
  SubgraphBuilder builder = GetDynamicSubgraphBuilder(name, index);
  if (!builder) {
    (void)ReportStatus(ParamInvalid(
        (impl_ == nullptr ? std::string("an empty Operator") : impl_->Where()) + ": subgraph '" +
        StrOrEmpty(name) + "' " + std::to_string(index) + " has no builder"));
    return {};
  }
  return builder();
}

Operator& Operator::SubgraphCountRegister(const char* ir_name, uint32_t count) {
  if (impl_ == nullptr) return *this;
  const auto& irs = impl_->desc->GetSubgraphIrNames();
  auto it = irs.find(StrOrEmpty(ir_name));
  if (it == irs.end() || it->second != kDynamic) {
    impl_->Fail("has no dynamic subgraph named '" + StrOrEmpty(ir_name) + "'");
    return *this;
  }
  auto& builders = impl_->subgraphs[StrOrEmpty(ir_name)];
  while (builders.size() < count) {
    builders.emplace_back();
    impl_->desc->AddSubgraphInstanceName("");
  }
  return *this;
}

Operator& Operator::SetSubgraphBuilder(const char* ir_name, uint32_t index,
                                       const SubgraphBuilder& builder) {
  if (impl_ == nullptr) return *this;
  const auto& irs = impl_->desc->GetSubgraphIrNames();
  auto it = irs.find(StrOrEmpty(ir_name));
  if (it == irs.end()) {
    impl_->Fail("has no subgraph named '" + StrOrEmpty(ir_name) + "'");
    return *this;
  }
  auto& builders = impl_->subgraphs[StrOrEmpty(ir_name)];
  if (it->second == kStatic) {
    if (index != 0) {
      impl_->Fail("subgraph '" + StrOrEmpty(ir_name) + "' has one instance, not " +
                  std::to_string(index + 1));
      return *this;
    }
    builders.resize(1);
  } else if (index >= builders.size()) {
    impl_->Fail("dynamic subgraph '" + StrOrEmpty(ir_name) + "' has " +
                std::to_string(builders.size()) + " instances (create_dynamic_subgraph_" +
                StrOrEmpty(ir_name) + " makes more), not " + std::to_string(index + 1));
    return *this;
  }
  builders[index] = builder;
  return *this;
}

}  // namespace ge
