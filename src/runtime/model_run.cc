// Running a loaded ge::LoadedModel: checking the inputs, taking a run context (or making or waiting
// for one), running it and giving its outputs and profile; and the loaded model's accessors.
//
// Concurrent runs: what a run writes (the arena, the workspaces, the kernels with their bound
// memory and scratch, the input slots, the profile) lives in a RunState; the compiled model,
// the weights and the input/output descriptions are shared and read-only. A run takes an idle
// context, or makes one more when every context is busy (up to RuntimeOptions::
// max_concurrent_runs and within the memory cap), or waits for one; contexts are kept for the
// next runs.
#include <algorithm>
#include <map>
#include <mutex>

#include "ge/graph/file_bytes.h"
#include "ge/runtime/loaded_model.h"
#include "model_impl.h"

namespace ge {

using runtime_internal::Place;
using runtime_internal::RunState;

Result<RunState*> LoadedModel::Impl::Acquire() {
  std::unique_lock<std::mutex> lock(contexts_mutex);
  for (;;) {
    if (!idle.empty()) {
      RunState* context = idle.back();
      idle.pop_back();
      return context;
    }
    // Every context's arena counts against the memory cap.
    const auto count = static_cast<int64_t>(contexts.size());
    const bool fits = arena_bytes == 0 || options.max_memory_bytes / arena_bytes > count;
    if (!growing && contexts.size() < max_contexts && fits) {
      growing = true;
      lock.unlock();
      Result<std::unique_ptr<RunState>> made = NewContext();
      lock.lock();
      growing = false;
      context_idle.notify_all();  // waiters may grow once more, or keep waiting
      if (made.ok()) {
        contexts.push_back(std::move(made).value());
        return contexts.back().get();
      }
      max_contexts = contexts.size();  // this machine cannot hold another: share the ones made
      continue;
    }
    context_idle.wait(lock);
  }
}

void LoadedModel::Impl::Release(RunState* context) {
  {
    std::lock_guard<std::mutex> lock(contexts_mutex);
    idle.push_back(context);
  }
  context_idle.notify_one();
}

const std::vector<IoInfo>& LoadedModel::inputs() const { return impl_->inputs; }
const std::vector<IoInfo>& LoadedModel::outputs() const { return impl_->outputs; }
int64_t LoadedModel::arena_bytes() const { return impl_->arena_bytes; }
void LoadedModel::EnableProfiling(bool on) { impl_->profiling.store(on); }
const std::vector<TaskTiming>& LoadedModel::LastProfile() const { return impl_->profile; }
int64_t LoadedModel::weight_bytes() const { return impl_->weight_bytes; }

int64_t LoadedModel::workspace_bytes() const { return impl_->workspace_bytes; }
int64_t LoadedModel::loaded_weight_bytes() const { return impl_->loaded_weight_bytes; }
const CompiledModel& LoadedModel::compiled() const { return impl_->model; }
const ExecutionInfo& LoadedModel::execution() const { return impl_->execution; }

bool LoadedModel::runs_dynamically() const { return impl_->dynamic; }

int LoadedModel::run_contexts() const {
  std::lock_guard<std::mutex> lock(impl_->contexts_mutex);
  return static_cast<int>(impl_->contexts.size());
}

KernelCacheStats LoadedModel::kernel_cache() const {
  KernelCacheStats stats;
  std::lock_guard<std::mutex> lock(impl_->contexts_mutex);
  for (const std::unique_ptr<RunState>& context : impl_->contexts) {
    if (context->dynamic == nullptr) continue;
    int64_t prepared = 0;
    int64_t reused = 0;
    context->dynamic->KernelStats(&prepared, &reused);
    stats.prepared += prepared;
    stats.reused += reused;
  }
  return stats;
}

RunBufferStats LoadedModel::run_buffers() const {
  RunBufferStats stats;
  std::lock_guard<std::mutex> lock(impl_->contexts_mutex);
  for (const std::unique_ptr<RunState>& context : impl_->contexts) {
    if (context->dynamic == nullptr) continue;
    const runtime_internal::BufferPool::Stats s = context->dynamic->BufferStats();
    stats.allocated += s.allocated;
    stats.reused += s.reused;
    stats.cached_bytes += s.cached_bytes;
  }
  return stats;
}

Result<std::vector<GeTensor>> LoadedModel::Run(const std::vector<GeTensor>& inputs) {
  return CatchExceptions("LoadedModel::Run", [&]() -> Result<std::vector<GeTensor>> {
    Result<std::vector<GeTensor>> outputs = impl_->Run(inputs);
    // Weights read in place from a .om file truncated during the run read as zeros (file_bytes.h):
    // the outputs are not the model's.
    Status file = CheckMappedFile(impl_->model.mapped_file.get());
    if (!file.ok()) return std::move(file).Prefix("LoadedModel::Run");
    return outputs;
  });
}

Result<std::vector<GeTensor>> LoadedModel::Impl::Run(const std::vector<GeTensor>& given) {
  if (!dynamic) {
    if (given.size() != inputs.size()) {
      return ParamInvalid("Run: the model takes " + std::to_string(inputs.size()) + " input(s), " +
                          std::to_string(given.size()) + " given");
    }
    for (size_t i = 0; i < given.size(); ++i) {
      const GeTensorDesc& desc = given[i].GetTensorDesc();
      const IoInfo& want = inputs[i];
      if (desc.GetDataType() != want.dtype || desc.GetShape().GetDims() != want.dims) {
        return ParamInvalid("Run: input '" + want.name + "' must be " +
                            TypeUtils::DataTypeToSerialString(want.dtype) + " " +
                            GeShape(want.dims).ToString() + ", given " +
                            TypeUtils::DataTypeToSerialString(desc.GetDataType()) + " " +
                            desc.GetShape().ToString());
      }
      if (static_cast<int64_t>(given[i].GetSize()) != input_bytes[i]) {
        return ParamInvalid("Run: input '" + want.name + "' holds " +
                            std::to_string(given[i].GetSize()) + " bytes, its shape needs " +
                            std::to_string(input_bytes[i]));
      }
    }
  }
  GE_ASSIGN_OR_RETURN(RunState * context, Acquire());
  struct Lease {
    Impl* impl;
    RunState* context;
    ~Lease() {
      std::fill(context->input_data.begin(), context->input_data.end(), nullptr);
      impl->Release(context);
    }
  } lease{this, context};
  context->profiling = profiling.load();
  Result<std::vector<GeTensor>> result = std::vector<GeTensor>{};
  if (dynamic) {
    result = context->dynamic->Run(given, context->profiling ? &context->profile : nullptr);
  } else {
    for (size_t i = 0; i < given.size(); ++i) context->input_data[i] = given[i].GetData().data();
    Status status = context->RunSteps();
    if (status.ok()) {
      std::vector<GeTensor> outs;
      outs.reserve(outputs.size());
      for (const Place& place : output_places) {
        GeTensorDesc desc(GeShape(place.dims), FORMAT_ND, place.dtype);
        outs.emplace_back(desc, context->Resolve(place), static_cast<size_t>(place.bytes));
      }
      result = std::move(outs);
    } else {
      result = std::move(status);
    }
  }
  if (context->profiling) {
    std::lock_guard<std::mutex> lock(profile_mutex);
    profile = context->profile;
  }
  return result;
}

Result<std::map<std::string, GeTensor>> LoadedModel::Run(
    const std::map<std::string, GeTensor>& inputs) {
  return CatchExceptions("LoadedModel::Run", [&]() -> Result<std::map<std::string, GeTensor>> {
    std::vector<GeTensor> ordered;
    size_t found = 0;
    for (const IoInfo& info : impl_->inputs) {
      auto it = inputs.find(info.name);
      if (it != inputs.end()) {
        ordered.push_back(it->second);
        ++found;
      } else if (info.default_value != nullptr) {
        ordered.push_back(*info.default_value);  // shares the default's bytes
      } else {
        return ParamInvalid("Run: input '" + info.name +
                            "' is not given (it has no default value)");
      }
    }
    if (found != inputs.size()) {
      for (const auto& input : inputs) {
        const std::string& name = input.first;
        if (std::none_of(impl_->inputs.begin(), impl_->inputs.end(),
                         [&](const IoInfo& info) { return info.name == name; })) {
          return ParamInvalid("Run: the model has no input named '" + name + "'");
        }
      }
    }
    GE_ASSIGN_OR_RETURN(std::vector<GeTensor> outputs, Run(ordered));
    std::map<std::string, GeTensor> named;
    for (size_t i = 0; i < outputs.size(); ++i)
      named.emplace(impl_->outputs[i].name, std::move(outputs[i]));
    return named;
  });
}

}  // namespace ge
