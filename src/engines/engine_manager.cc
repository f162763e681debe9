// EngineManager: engine plugin loading, initialization, lookup and unloading.
#include "ge/engine/engine_manager.h"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include "ge/engine/engine_paths.h"
#include "ge/graph/log.h"
#include "ge/ops/op_registry.h"
#include "plugin_library.h"

#ifndef OPENGE_ENGINE_PLUGIN_DIR
#define OPENGE_ENGINE_PLUGIN_DIR "/usr/local/lib/openge/engines"
#endif
#ifndef OPENGE_INSTALL_LIBDIR
#define OPENGE_INSTALL_LIBDIR "lib"
#endif

namespace ge {

struct EngineManager::Impl {
  std::vector<EngineInfo> engines;
  // Parallel to `engines`: the library each engine came from (unloaded last).
  std::vector<std::unique_ptr<PluginLibrary>> libraries;
  std::vector<std::string> skipped_notes;
  bool initialized = false;

  Status LoadEngine(const EngineConfig& config, const std::string& path,
                    const std::map<std::string, std::string>& options);
  Status FinalizeAll();
};

namespace {

std::string OptionOr(const std::map<std::string, std::string>& options, const std::string& key,
                     const std::string& fallback) {
  const auto it = options.find(key);
  return it == options.end() || it->second.empty() ? fallback : it->second;
}

// Where this code lives: libopenge.so in <libdir>, or the executable ge_engine was linked into.
std::filesystem::path ModuleDirectory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ModuleDirectory), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  std::error_code ec;
  std::filesystem::path module = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path() : module.parent_path();
}

template <typename Map>
std::string KeysOf(const Map& map) {
  std::string keys;
  for (const auto& [key, value] : map) keys += (keys.empty() ? "'" : ", '") + key + "'";
  return keys.empty() ? "none" : keys;
}

}  // namespace

Status EngineManager::Impl::LoadEngine(const EngineConfig& config, const std::string& path,
                                       const std::map<std::string, std::string>& options) {
  const std::string who = "engine '" + config.name + "'";
  auto opened = PluginLibrary::Open(path);
  if (!opened.ok()) return Status(opened.status()).Prefix(who);
  std::unique_ptr<PluginLibrary> library = std::move(opened).value();

  // Before Initialize: the engine reads the host's operator traits, and sees only option values
  // that fit what it declares.
  if (library->set_traits_lookup() != nullptr) {
    library->set_traits_lookup()(
        [](const std::string& type) { return OpRegistry::Instance().TraitsOf(type); });
  }
  std::vector<EngineOptionDef> declared;
  if (library->get_options() != nullptr) library->get_options()(declared);
  for (const EngineOptionDef& def : declared) {
    const auto given = options.find(def.key);
    if (given != options.end())
      GE_RETURN_IF_ERROR(CheckEngineOption(def, given->second, config.name));
  }

  Status init = library->initialize()(options);
  if (!init.ok()) {
    return Failed(who + ": Initialize of engine plugin '" + path + "' failed: " + init.message());
  }
  // From here on the plugin is initialized: keep it so that FinalizeAll finalizes it on error.
  EngineInfo info;
  info.config = config;
  info.library_path = path;
  info.options = std::move(declared);
  std::map<std::string, OpsKernelInfoStorePtr> stores;
  std::map<std::string, OpsKernelBuilderPtr> builders;
  library->get_stores()(stores);
  library->get_optimizers()(info.optimizers);
  library->get_builders()(builders);
  std::map<std::string, TaskExecutorPtr> executors;
  if (library->get_executors() != nullptr) library->get_executors()(executors);
  engines.push_back(std::move(info));
  libraries.push_back(std::move(library));
  EngineInfo& loaded = engines.back();

  const auto store = stores.find(config.kernel_lib);
  if (store == stores.end() || store->second == nullptr) {
    return Failed(who + ": engine plugin '" + path + "' provides no ops kernel info store named '" +
                  config.kernel_lib + "' (the config's kernel_lib; it provides " + KeysOf(stores) +
                  ")");
  }
  const auto builder = builders.find(config.kernel_lib);
  if (builder == builders.end() || builder->second == nullptr) {
    return Failed(who + ": engine plugin '" + path + "' provides no ops kernel builder named '" +
                  config.kernel_lib + "' (the config's kernel_lib; it provides " +
                  KeysOf(builders) + ")");
  }
  loaded.store = store->second;
  loaded.builder = builder->second;
  if (auto executor = executors.find(config.kernel_lib); executor != executors.end()) {
    loaded.executor = executor->second;
  }
  for (const auto& [name, optimizer] : loaded.optimizers) {
    GraphOptimizerAttribute attrs;
    if (optimizer == nullptr) {
      return Failed(who + ": engine plugin '" + path + "' returned a null graph optimizer '" +
                    name + "'");
    }
    Status status = optimizer->GetAttributes(attrs);
    if (!status.ok()) return std::move(status).Prefix(who + ": graph optimizer '" + name + "'");
    if (attrs.engineName != config.name) {
      return Failed(who + ": graph optimizer '" + name + "' of engine plugin '" + path +
                    "' names engine '" + attrs.engineName + "' in GetAttributes");
    }
  }
  Log(LogLevel::kInfo, "[Load][Engine] " + config.name + " from " + path + " (" +
                           std::to_string(loaded.optimizers.size()) + " optimizers)");
  return Status::Ok();
}

Status EngineManager::Impl::FinalizeAll() {
  Status first;
  for (size_t i = libraries.size(); i-- > 0;) {
    Status status = libraries[i]->finalize()();
    if (!status.ok() && first.ok()) {
      first = Failed("engine '" + engines[i].config.name + "': Finalize of engine plugin '" +
                     libraries[i]->path() + "' failed: " + status.message());
    }
    // Drop every object the plugin handed out before its code is unloaded.
    engines[i] = EngineInfo{};
    libraries[i].reset();
  }
  engines.clear();
  libraries.clear();
  initialized = false;
  return first;
}

EngineManager::EngineManager() : impl_(std::make_unique<Impl>()) {}

EngineManager::~EngineManager() {
  if (impl_->initialized || !impl_->libraries.empty()) (void)impl_->FinalizeAll();
}

std::string DefaultEnginePluginDir() { return EngineManager::DefaultPluginDir(); }

std::string EngineManager::DefaultPluginDir() {
  // An install relative to this code first (so a prefix works wherever it was put), then the
  // install directory chosen at build time, then the build tree's (running from a build).
  std::vector<std::filesystem::path> candidates;
  if (const std::filesystem::path module = ModuleDirectory(); !module.empty()) {
    candidates.push_back(module / "openge" / "engines");
    candidates.push_back(module.parent_path() / OPENGE_INSTALL_LIBDIR / "openge" / "engines");
  }
  candidates.emplace_back(OPENGE_ENGINE_PLUGIN_DIR);
  candidates.emplace_back(OPENGE_ENGINE_BUILD_PLUGIN_DIR);
  for (const std::filesystem::path& dir : candidates) {
    std::error_code ec;
    if (std::filesystem::exists(dir / kEngineConfFileName, ec)) return dir.string();
  }
  return OPENGE_ENGINE_PLUGIN_DIR;
}

Status EngineManager::Initialize(const std::map<std::string, std::string>& options) {
  if (impl_->initialized) {
    return Failed("EngineManager::Initialize: already initialized; call Finalize first");
  }
  impl_->skipped_notes.clear();
  const std::string plugin_dir = OptionOr(options, kOptionEnginePluginPath, DefaultPluginDir());
  const std::string conf_path =
      OptionOr(options, kOptionEngineConfPath,
               (std::filesystem::path(plugin_dir) / kEngineConfFileName).string());
  GE_ASSIGN_OR_RETURN(std::vector<EngineConfig> configs, LoadEngineConfigFile(conf_path));

  for (const EngineConfig& config : configs) {
    const std::filesystem::path library(config.library);
    const std::string path =
        library.is_absolute() ? library.string() : (plugin_dir / library).string();
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
      if (config.required) {
        (void)impl_->FinalizeAll();
        return Failed("engine '" + config.name + "' is required (engine config '" + conf_path +
                      "') but its library '" + path + "' does not exist; set option " +
                      kOptionEnginePluginPath + " to the directory holding it");
      }
      std::string note = "engine '" + config.name + "' skipped: its library '" + path +
                         "' does not exist (not required by '" + conf_path + "')";
      Log(LogLevel::kInfo, "[Skip][Engine] " + note);
      impl_->skipped_notes.push_back(std::move(note));
      continue;
    }
    Status status = impl_->LoadEngine(config, path, options);
    if (!status.ok()) {
      (void)impl_->FinalizeAll();
      return status;
    }
  }
  impl_->initialized = true;
  return Status::Ok();
}

Status EngineManager::Finalize() { return impl_->FinalizeAll(); }

bool EngineManager::IsInitialized() const { return impl_->initialized; }

const std::vector<EngineInfo>& EngineManager::GetEngines() const { return impl_->engines; }

const std::vector<std::string>& EngineManager::GetSkippedEngineNotes() const {
  return impl_->skipped_notes;
}

const EngineInfo* EngineManager::GetEngine(const std::string& name) const {
  for (const EngineInfo& engine : impl_->engines) {
    if (engine.config.name == name) return &engine;
  }
  return nullptr;
}

OpsKernelInfoStorePtr EngineManager::GetOpsKernelInfoStore(const std::string& kernel_lib) const {
  for (const EngineInfo& engine : impl_->engines) {
    if (engine.config.kernel_lib == kernel_lib) return engine.store;
  }
  return nullptr;
}

OpsKernelBuilderPtr EngineManager::GetOpsKernelBuilder(const std::string& kernel_lib) const {
  for (const EngineInfo& engine : impl_->engines) {
    if (engine.config.kernel_lib == kernel_lib) return engine.builder;
  }
  return nullptr;
}

Result<OpsKernelBuilderPtr> EngineManager::GetOpsKernelBuilderFor(const OpDesc& op_desc) const {
  const std::string& kernel_lib = op_desc.GetOpKernelLibName();
  const std::string who = "node '" + op_desc.GetName() + "' (type " + op_desc.GetType() + ")";
  if (kernel_lib.empty()) {
    return ParamInvalid(who + " has no kernel library: run EngineManager::PlaceNodes first");
  }
  OpsKernelBuilderPtr builder = GetOpsKernelBuilder(kernel_lib);
  if (builder == nullptr) {
    return ParamInvalid(who + " is placed on kernel library '" + kernel_lib +
                        "', which no loaded engine provides");
  }
  return builder;
}

}  // namespace ge
