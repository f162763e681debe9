// The host kernel table: the folds that need no compute kernel.
#include "host_kernels.h"

#include <map>

#include "ge/ops/op_registry.h"

namespace ge::folding {
namespace {

const std::map<std::string, HostKernel>& Table() {
  static const std::map<std::string, HostKernel> kTable = [] {
    std::vector<std::pair<std::string, HostKernel>> entries;
    AddShapeKernels(entries);
    return std::map<std::string, HostKernel>(entries.begin(), entries.end());
  }();
  return kTable;
}

}  // namespace

const HostKernel* FindHostKernel(const std::string& type) {
  auto it = Table().find(type);
  if (it != Table().end()) return &it->second;
  static const HostKernel kView{ViewKernel, false};
  const OpTraits traits = OpRegistry::Instance().TraitsOf(type);
  return traits.view_of_input == 0 || traits.pass_through ? &kView : nullptr;
}

std::vector<std::string> HostKernelTypes() {
  std::vector<std::string> types;
  for (const auto& [type, kernel] : Table()) types.push_back(type);
  return types;
}

}  // namespace ge::folding
