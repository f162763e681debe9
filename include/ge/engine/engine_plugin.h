// The C entry points an engine plugin library exports, found with dlsym after dlopen.
//
// An engine plugin is a shared library that exports these five functions with C linkage (the
// first four are GE's; GE keeps kernel builders in a separate manager, here they are a fifth
// export). Nothing registers itself at load time: EngineManager loads the library, calls
// Initialize, collects the objects, and calls Finalize before unloading it. The objects a plugin
// hands out are valid until its Finalize returns and the library is unloaded.
//
// Plugins pass C++ types (std::map, std::shared_ptr, ge::Status) across this boundary, so a
// plugin must be built with the same compiler and standard library as the program loading it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ge/engine/engine_options.h"
#include "ge/engine/graph_optimizer.h"
#include "ge/engine/ops_kernel_builder.h"
#include "ge/engine/ops_kernel_info_store.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/status.h"
#include "ge/ops/op_traits.h"

namespace ge {

/// Symbol names, in the order EngineManager looks them up.
inline constexpr char kEngineInitializeSymbol[] = "Initialize";
inline constexpr char kEngineGetOpsKernelInfoStoresSymbol[] = "GetOpsKernelInfoStores";
inline constexpr char kEngineGetGraphOptimizerObjsSymbol[] = "GetGraphOptimizerObjs";
inline constexpr char kEngineGetOpsKernelBuilderObjsSymbol[] = "GetOpsKernelBuilderObjs";
inline constexpr char kEngineFinalizeSymbol[] = "Finalize";
/// Optional: engines whose tasks run (GE Local's do not) export their task executors.
inline constexpr char kEngineGetTaskExecutorObjsSymbol[] = "GetTaskExecutorObjs";

/// Optional: the options the engine reads, declared so the host lists and checks them. Called
/// before Initialize, which then sees only values that fit.
inline constexpr char kEngineGetOptionsSymbol[] = "GetEngineOptions";
/// Optional: receives, before Initialize, the host's operator traits (the plugin's own copy of the
/// IR has no registry of its own).
inline constexpr char kEngineSetOpTraitsLookupSymbol[] = "SetOpTraitsLookup";

/// Starts the engine with the session options; a failure stops EngineManager::Initialize.
using EngineInitializeFunc = Status (*)(const std::map<std::string, std::string>& options);
/// Adds the engine's stores, keyed by kernel library name.
using EngineGetOpsKernelInfoStoresFunc = void (*)(std::map<std::string, OpsKernelInfoStorePtr>&);
/// Adds the engine's graph optimizers, keyed by optimizer name.
using EngineGetGraphOptimizerObjsFunc = void (*)(std::map<std::string, GraphOptimizerPtr>&);
/// Adds the engine's kernel builders, keyed by kernel library name.
using EngineGetOpsKernelBuilderObjsFunc = void (*)(std::map<std::string, OpsKernelBuilderPtr>&);
/// Adds the engine's task executors, keyed by kernel library name (optional entry point).
using EngineGetTaskExecutorObjsFunc = void (*)(std::map<std::string, TaskExecutorPtr>&);
/// Adds the options the engine declares (optional entry point).
using EngineGetOptionsFunc = void (*)(std::vector<EngineOptionDef>&);
/// Hands the engine the host's operator traits (optional entry point).
using EngineSetOpTraitsLookupFunc = void (*)(OpTraitsLookup);
/// Releases what Initialize created.
using EngineFinalizeFunc = Status (*)();

}  // namespace ge

// Declarations for plugin sources (define them in exactly one file of the plugin, and mark them
// GE_ENGINE_PLUGIN_EXPORT so they stay visible when the plugin hides its other symbols).
#define GE_ENGINE_PLUGIN_EXPORT __attribute__((visibility("default")))

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreturn-type-c-linkage"
#endif
extern "C" {
GE_ENGINE_PLUGIN_EXPORT ge::Status Initialize(const std::map<std::string, std::string>& options);
GE_ENGINE_PLUGIN_EXPORT void GetOpsKernelInfoStores(
    std::map<std::string, ge::OpsKernelInfoStorePtr>& stores);
GE_ENGINE_PLUGIN_EXPORT void GetGraphOptimizerObjs(
    std::map<std::string, ge::GraphOptimizerPtr>& optimizers);
GE_ENGINE_PLUGIN_EXPORT void GetOpsKernelBuilderObjs(
    std::map<std::string, ge::OpsKernelBuilderPtr>& builders);
GE_ENGINE_PLUGIN_EXPORT ge::Status Finalize();
GE_ENGINE_PLUGIN_EXPORT void GetTaskExecutorObjs(
    std::map<std::string, ge::TaskExecutorPtr>& executors);
GE_ENGINE_PLUGIN_EXPORT void GetEngineOptions(std::vector<ge::EngineOptionDef>& options);
GE_ENGINE_PLUGIN_EXPORT void SetOpTraitsLookup(ge::OpTraitsLookup lookup);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
