// PluginLibrary: dlopen / dlsym / dlclose of an engine plugin, with errors that say what to fix.
#include "plugin_library.h"

#include <dlfcn.h>

namespace ge {
namespace {

std::string LastDlError() {
  const char* error = dlerror();
  return error == nullptr ? "unknown error" : error;
}

// Resolves `symbol` on `handle` into `out` (a function pointer).
template <typename Func>
Status Resolve(void* handle, const std::string& path, const char* symbol, Func& out) {
  dlerror();  // clear any earlier error
  void* address = dlsym(handle, symbol);
  if (address == nullptr) {
    return Failed("engine plugin '" + path + "' does not export the entry point '" + symbol +
                  "' (" + LastDlError() +
                  "); an engine plugin must export Initialize, GetOpsKernelInfoStores, "
                  "GetGraphOptimizerObjs, GetOpsKernelBuilderObjs and Finalize with C linkage "
                  "(extern \"C\")");
  }
  out = reinterpret_cast<Func>(address);
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<PluginLibrary>> PluginLibrary::Open(const std::string& path) {
  dlerror();
  // RTLD_NODELETE: an engine's worker threads (the CPU engine's OpenMP pool) outlive its
  // Finalize and keep running code of the plugin and its libraries; unmapping that code at
  // dlclose crashes them at exit. The plugin stays mapped for the life of the process.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    return Failed("cannot load engine plugin '" + path + "': " + LastDlError());
  }
  std::unique_ptr<PluginLibrary> library(new PluginLibrary(path, handle));
  GE_RETURN_IF_ERROR(Resolve(handle, path, kEngineInitializeSymbol, library->initialize_));
  GE_RETURN_IF_ERROR(
      Resolve(handle, path, kEngineGetOpsKernelInfoStoresSymbol, library->get_stores_));
  GE_RETURN_IF_ERROR(
      Resolve(handle, path, kEngineGetGraphOptimizerObjsSymbol, library->get_optimizers_));
  GE_RETURN_IF_ERROR(
      Resolve(handle, path, kEngineGetOpsKernelBuilderObjsSymbol, library->get_builders_));
  GE_RETURN_IF_ERROR(Resolve(handle, path, kEngineFinalizeSymbol, library->finalize_));
  library->get_executors_ = reinterpret_cast<EngineGetTaskExecutorObjsFunc>(
      dlsym(handle, kEngineGetTaskExecutorObjsSymbol));
  library->get_options_ =
      reinterpret_cast<EngineGetOptionsFunc>(dlsym(handle, kEngineGetOptionsSymbol));
  library->set_traits_lookup_ =
      reinterpret_cast<EngineSetOpTraitsLookupFunc>(dlsym(handle, kEngineSetOpTraitsLookupSymbol));
  return library;
}

PluginLibrary::~PluginLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

}  // namespace ge
