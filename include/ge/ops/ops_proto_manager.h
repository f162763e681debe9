// OpsProtoManager: finds operator prototype libraries (shared objects), loads them with dlopen and
// calls the entry point each exports to fill the operator registry.
//
// Search path, in load order (a library already loaded is skipped, by canonical path):
//   1. the built-in directory (DefaultDirectory()): the first existing of
//        <dir of the module holding ge_ops>/ops            (a libge_ops.so next to ops/)
//        <dir of the module holding ge_ops>/openge/ops     (module in <libdir>)
//        <dir of the module holding ge_ops>/../lib/openge/ops  and ../<libdir>/openge/ops
//                                                          (an executable in <prefix>/bin)
//        the build tree's lib/ops                          (only when it exists)
//      The module is found with dladdr, so it is the executable when ge_ops is linked statically.
//   2. the directories of the environment variable GE_OPS_PROTO_LIB_PATH (colon-separated);
//   3. the directories of the option ge.opsProtoLibPath (colon-separated).
// In each directory every regular file whose name ends in ".so" is loaded, in sorted name order.
// Later libraries may replace earlier prototypes only when loaded with overriding on (option
// ge.opsProtoLibOverride = "1"/"true" turns it on for the libraries of 2 and 3, one load at a
// time); otherwise a second registration of a type fails the load, naming both libraries.
// Libraries are never unloaded: prototypes hold functions that live in them.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/ops/op_registry.h"

namespace ge {

inline constexpr char kOptionOpsProtoLibPath[] = "ge.opsProtoLibPath";
inline constexpr char kOptionOpsProtoLibOverride[] = "ge.opsProtoLibOverride";
inline constexpr char kEnvOpsProtoLibPath[] = "GE_OPS_PROTO_LIB_PATH";

class GE_API OpsProtoManager {
 public:
  /// A manager feeding `registry` (the process registry by default).
  explicit OpsProtoManager(OpRegistry& registry = OpRegistry::Instance());
  ~OpsProtoManager();
  OpsProtoManager(const OpsProtoManager&) = delete;
  OpsProtoManager& operator=(const OpsProtoManager&) = delete;

  /// The manager of the process registry.
  static OpsProtoManager& Instance();

  /// Loads every library of the search path (see the file comment). Every library is tried; the
  /// Status lists each one that failed. Calling it again loads only libraries not yet loaded.
  Status Initialize(const std::map<std::string, std::string>& options);
  /// Loads every "*.so" of `dir`, sorted by name.
  Status LoadDirectory(const std::string& dir, bool allow_override = false);
  /// Loads one library and registers its prototypes (all or nothing). The override window is
  /// open during this load only.
  Status LoadLibrary(const std::string& path, bool allow_override = false);

  /// Canonical paths of the libraries loaded so far, in load order.
  std::vector<std::string> LoadedLibraries() const;

  /// The built-in prototype directory, or "" when none of the candidates exists.
  static std::string DefaultDirectory();
  /// The candidates DefaultDirectory() tries, in order (for messages and tests).
  static std::vector<std::string> DefaultDirectoryCandidates();
  /// The directories Initialize would load, in order.
  static std::vector<std::string> SearchPath(const std::map<std::string, std::string>& options);

 private:
  OpRegistry& registry_;
  mutable std::mutex mutex_;
  std::vector<std::string> loaded_;
};

}  // namespace ge
