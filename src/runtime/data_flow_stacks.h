// The runtime's DataFlowResource: stacks by handle, behind one mutex.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ge/engine/data_flow.h"

namespace ge::runtime_internal {

class DataFlowStacks final : public DataFlowResource {
 public:
  /// At most this many stacks are open at once: a graph that makes stacks and never closes them
  /// fails instead of growing without end.
  static constexpr size_t kMaxOpenStacks = 4096;

  Result<int64_t> CreateStack(DataType dtype, int64_t max_size, const std::string& who) override;
  Status Push(int64_t handle, const GeTensor& element, const std::string& who) override;
  Result<std::vector<int64_t>> TopDims(int64_t handle, const std::string& who) const override;
  Result<GeTensor> Pop(int64_t handle, const std::string& who) override;
  Status Close(int64_t handle, const std::string& who) override;

 private:
  struct Stack {
    DataType dtype = DT_UNDEFINED;
    int64_t max_size = 0;
    std::vector<GeTensor> elements;
  };
  // The open stack of `handle` (callers hold mutex_).
  Result<Stack*> Find(int64_t handle, const std::string& who) const;

  mutable std::mutex mutex_;
  mutable std::map<int64_t, Stack> stacks_;
  int64_t next_handle_ = 1;
};

}  // namespace ge::runtime_internal
