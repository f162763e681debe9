// The host kernel table.
#include "host_kernels.h"

#include <map>

namespace ge::folding {
namespace {

const std::map<std::string, HostKernel>& Table() {
  static const std::map<std::string, HostKernel> kTable = [] {
    std::vector<std::pair<std::string, HostKernel>> entries;
    AddShapeKernels(entries);
    AddMathKernels(entries);
    return std::map<std::string, HostKernel>(entries.begin(), entries.end());
  }();
  return kTable;
}

}  // namespace

const HostKernel* FindHostKernel(const std::string& type) {
  auto it = Table().find(type);
  return it == Table().end() ? nullptr : &it->second;
}

std::vector<std::string> HostKernelTypes() {
  std::vector<std::string> types;
  for (const auto& [type, kernel] : Table()) types.push_back(type);
  return types;
}

}  // namespace ge::folding
