// OpsProtoManager: search path, dlopen of prototype libraries and the per-load registrar.
#include "ge/ops/ops_proto_manager.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace ge {

namespace fs = std::filesystem;

namespace {

// Collects what one library registers; committed to the registry all at once after the entry
// point returns, so a failing library leaves the registry as it was.
class LoadRegistrar final : public OpProtoRegistrar {
 public:
  LoadRegistrar(std::string library, bool allow_override)
      : library_(std::move(library)), allow_override_(allow_override) {}

  uint32_t AbiVersion() const override { return kOpProtoAbiVersion; }
  void Register(Result<OpProto> proto) override {
    if (!proto.ok()) {
      errors_.push_back(proto.status().message());
      return;
    }
    protos_.push_back(std::move(proto).value());
  }
  const std::string& library() const override { return library_; }
  bool override_allowed() const override { return allow_override_; }
  bool ok() const override { return errors_.empty(); }

  std::vector<OpProto>& protos() { return protos_; }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string library_;
  bool allow_override_;
  std::vector<OpProto> protos_;
  std::vector<std::string> errors_;
};

std::vector<std::string> SplitPathList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(':', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::string JoinErrors(const std::vector<std::string>& errors) {
  std::string out;
  for (const auto& e : errors) out += (out.empty() ? "" : "; ") + e;
  return out;
}

bool IsTrue(const std::string& v) { return v == "1" || v == "true" || v == "True" || v == "TRUE"; }

// Where this code lives: the executable or the shared library ge_ops was linked into.
std::string ModuleDirectory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ModuleDirectory), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  std::error_code ec;
  fs::path module = fs::canonical(info.dli_fname, ec);
  if (ec) return {};
  return module.parent_path().string();
}

}  // namespace

OpsProtoManager::OpsProtoManager(OpRegistry& registry) : registry_(registry) {}
OpsProtoManager::~OpsProtoManager() = default;

OpsProtoManager& OpsProtoManager::Instance() {
  static auto* manager = new OpsProtoManager(OpRegistry::Instance());
  return *manager;
}

std::vector<std::string> OpsProtoManager::DefaultDirectoryCandidates() {
  std::vector<std::string> out;
  const std::string dir = ModuleDirectory();
  if (!dir.empty()) {
    const fs::path d(dir);
    out.push_back((d / "ops").string());
    out.push_back((d / "openge" / "ops").string());
    out.push_back((d.parent_path() / OPENGE_INSTALL_LIBDIR / "openge" / "ops").string());
    out.push_back((d.parent_path() / "lib" / "openge" / "ops").string());
  }
  out.push_back(OPENGE_BUILD_OPS_DIR);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string OpsProtoManager::DefaultDirectory() {
  for (const auto& c : DefaultDirectoryCandidates()) {
    if (IsDirectory(c)) return c;
  }
  return {};
}

std::vector<std::string> OpsProtoManager::SearchPath(
    const std::map<std::string, std::string>& options) {
  std::vector<std::string> out;
  const std::string def = DefaultDirectory();
  if (!def.empty()) out.push_back(def);
  if (const char* env = std::getenv(kEnvOpsProtoLibPath); env != nullptr) {
    for (auto& d : SplitPathList(env)) out.push_back(std::move(d));
  }
  if (auto it = options.find(kOptionOpsProtoLibPath); it != options.end()) {
    for (auto& d : SplitPathList(it->second)) out.push_back(std::move(d));
  }
  return out;
}

Status OpsProtoManager::Initialize(const std::map<std::string, std::string>& options) {
  std::vector<std::string> errors;
  bool override_user = false;
  if (auto it = options.find(kOptionOpsProtoLibOverride); it != options.end()) {
    override_user = IsTrue(it->second);
  }
  std::vector<std::pair<std::string, std::string>> user_dirs;  // dir, where it was named
  if (const char* env = std::getenv(kEnvOpsProtoLibPath); env != nullptr) {
    for (auto& d : SplitPathList(env)) user_dirs.emplace_back(d, kEnvOpsProtoLibPath);
  }
  if (auto it = options.find(kOptionOpsProtoLibPath); it != options.end()) {
    for (auto& d : SplitPathList(it->second)) user_dirs.emplace_back(d, kOptionOpsProtoLibPath);
  }

  const std::string def = DefaultDirectory();
  if (!def.empty()) {
    if (Status s = LoadDirectory(def, /*allow_override=*/false); !s.ok()) {
      errors.push_back(s.message());
    }
  } else if (user_dirs.empty()) {
    std::string tried;
    for (const auto& c : DefaultDirectoryCandidates()) tried += (tried.empty() ? "" : ", ") + c;
    errors.push_back("the built-in operator prototype directory was not found (tried " + tried +
                     "); name it with option " + kOptionOpsProtoLibPath + " or " +
                     kEnvOpsProtoLibPath);
  }
  for (const auto& [dir, origin] : user_dirs) {
    if (!IsDirectory(dir)) {
      errors.push_back("'" + dir + "' named by " + origin + " is not a directory");
      continue;
    }
    if (Status s = LoadDirectory(dir, override_user); !s.ok()) errors.push_back(s.message());
  }
  if (!errors.empty()) return ParamInvalid(JoinErrors(errors));
  return Status::Ok();
}

Status OpsProtoManager::LoadDirectory(const std::string& dir, bool allow_override) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    return ParamInvalid("cannot read operator prototype directory '" + dir + "': " + ec.message());
  }
  std::vector<fs::path> libraries;
  for (const auto& entry : it) {
    std::error_code entry_ec;
    if (!entry.is_regular_file(entry_ec)) continue;
    const std::string file = entry.path().filename().string();
    if (file.size() > 3 && file.compare(file.size() - 3, 3, ".so") == 0) {
      libraries.push_back(entry.path());
    }
  }
  std::sort(libraries.begin(), libraries.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  std::vector<std::string> errors;
  for (const auto& lib : libraries) {
    if (Status s = LoadLibrary(lib.string(), allow_override); !s.ok()) {
      errors.push_back(s.message());
    }
  }
  if (!errors.empty()) return ParamInvalid(JoinErrors(errors));
  return Status::Ok();
}

Status OpsProtoManager::LoadLibrary(const std::string& path, bool allow_override) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  if (ec) {
    return ParamInvalid("operator prototype library '" + path +
                        "' cannot be opened: " + ec.message());
  }
  const std::string lib = canonical.string();
  std::lock_guard lock(mutex_);
  if (std::find(loaded_.begin(), loaded_.end(), lib) != loaded_.end()) return Status::Ok();

  dlerror();
  void* handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return ParamInvalid("cannot load operator prototype library '" + lib +
                        "': " + (why == nullptr ? "unknown dlopen error" : why));
  }
  void* symbol = dlsym(handle, kOpProtoEntryPoint);
  if (symbol == nullptr) {
    dlclose(handle);
    return ParamInvalid("library '" + lib + "' is not an operator prototype library: symbol " +
                        kOpProtoEntryPoint + " not found");
  }
  Status result;
  {
    LoadRegistrar registrar(lib, allow_override);
    auto entry = reinterpret_cast<OpProtoEntryPointFn>(symbol);
    const int rc = entry(&registrar);
    if (rc != 0 || !registrar.ok()) {
      std::string why = registrar.errors().empty()
                            ? "its entry point " + std::string(kOpProtoEntryPoint) + " returned " +
                                  std::to_string(rc) +
                                  " (is it built for this OpenGE version? ABI " +
                                  std::to_string(kOpProtoAbiVersion) + ")"
                            : JoinErrors(registrar.errors());
      result = ParamInvalid("operator prototype library '" + lib + "' failed to register: " + why);
    } else {
      result = registry_.RegisterAll(std::move(registrar.protos()), lib, allow_override);
    }
  }  // prototypes (whose functions live in the library) are gone before a dlclose
  if (!result.ok()) {
    dlclose(handle);
    return result;
  }
  loaded_.push_back(lib);  // never dlclose'd: registered prototypes call into it
  return Status::Ok();
}

std::vector<std::string> OpsProtoManager::LoadedLibraries() const {
  std::lock_guard lock(mutex_);
  return loaded_;
}

}  // namespace ge
