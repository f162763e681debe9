// PluginLibrary: one engine plugin opened with dlopen (RTLD_LOCAL), with its five entry points.
#pragma once

#include <memory>
#include <string>

#include "ge/engine/engine_plugin.h"
#include "ge/graph/status.h"

namespace ge {

class PluginLibrary {
 public:
  /// Opens `path` with RTLD_NOW | RTLD_LOCAL (several engines export the same symbol names, so
  /// each is looked up on its own handle) and resolves every entry point. Errors name the path
  /// and, for a missing entry point, the symbol.
  static Result<std::unique_ptr<PluginLibrary>> Open(const std::string& path);

  ~PluginLibrary();  ///< dlclose
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const std::string& path() const { return path_; }
  EngineInitializeFunc initialize() const { return initialize_; }
  EngineGetOpsKernelInfoStoresFunc get_stores() const { return get_stores_; }
  EngineGetGraphOptimizerObjsFunc get_optimizers() const { return get_optimizers_; }
  EngineGetOpsKernelBuilderObjsFunc get_builders() const { return get_builders_; }
  EngineFinalizeFunc finalize() const { return finalize_; }
  /// Null when the plugin does not export the optional GetTaskExecutorObjs.
  EngineGetTaskExecutorObjsFunc get_executors() const { return get_executors_; }
  /// Null when the plugin declares no options.
  EngineGetOptionsFunc get_options() const { return get_options_; }
  /// Null when the plugin does not read operator traits.
  EngineSetOpTraitsLookupFunc set_traits_lookup() const { return set_traits_lookup_; }

 private:
  PluginLibrary(std::string path, void* handle) : path_(std::move(path)), handle_(handle) {}

  std::string path_;
  void* handle_ = nullptr;
  EngineInitializeFunc initialize_ = nullptr;
  EngineGetOpsKernelInfoStoresFunc get_stores_ = nullptr;
  EngineGetGraphOptimizerObjsFunc get_optimizers_ = nullptr;
  EngineGetOpsKernelBuilderObjsFunc get_builders_ = nullptr;
  EngineFinalizeFunc finalize_ = nullptr;
  EngineGetTaskExecutorObjsFunc get_executors_ = nullptr;
  EngineGetOptionsFunc get_options_ = nullptr;
  EngineSetOpTraitsLookupFunc set_traits_lookup_ = nullptr;
};

}  // namespace ge
