// The operator registry (type → prototype, with the library each came from), the registrar a
// prototype library fills, and OperatorFactory, which makes OpDescs from registered types.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "ge/graph/fwd.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/ops/op_proto.h"

namespace ge {

/// The one symbol a prototype library exports:
///   extern "C" int OpenGeRegisterOpProtos(ge::OpProtoRegistrar* registrar);
/// It registers its prototypes through `registrar` and returns 0 on success.
inline constexpr char kOpProtoEntryPoint[] = "OpenGeRegisterOpProtos";
using OpProtoEntryPointFn = int (*)(class OpProtoRegistrar*);

/// Bumped whenever OpProto, InferContext or the registrar change layout. A library built against
/// another version must refuse to register (return non-zero).
inline constexpr uint32_t kOpProtoAbiVersion = 3;

/// Marks the entry point of a prototype library: `OPENGE_OP_PROTO_ENTRY int
/// OpenGeRegisterOpProtos(ge::OpProtoRegistrar* r) { ... }`.
#define OPENGE_OP_PROTO_ENTRY extern "C" __attribute__((visibility("default")))

/// What a prototype library registers through during one load. Calls cross the library boundary
/// through the vtable, so the registering code always runs in the host.
class GE_API OpProtoRegistrar {
 public:
  virtual ~OpProtoRegistrar() = default;
  virtual uint32_t AbiVersion() const = 0;
  /// Queues a prototype (or records the build error it carries). Duplicates, within the library
  /// or against what is registered, are recorded as errors; the load then registers nothing.
  virtual void Register(Result<OpProto> proto) = 0;
  /// The library being loaded (its path).
  virtual const std::string& library() const = 0;
  /// Whether this load may replace prototypes registered before it.
  virtual bool override_allowed() const = 0;
  /// True when nothing went wrong so far in this load.
  virtual bool ok() const = 0;
};

/// How many instances of each dynamic input / output / subgraph an OpDesc gets, by IR name.
using DynamicPortCounts = std::map<std::string, uint32_t>;

/// Type → prototype, with the source (library path) of each.
class GE_API OpRegistry {
 public:
  OpRegistry();
  ~OpRegistry();
  OpRegistry(const OpRegistry&) = delete;
  OpRegistry& operator=(const OpRegistry&) = delete;

  /// The registry of the process: OperatorFactory and OpsProtoManager::Instance() use it.
  static OpRegistry& Instance();

  /// Adds one prototype recorded as coming from `source`. A type already registered is refused
  /// (naming both sources) unless `allow_override`.
  Status Register(OpProto proto, const std::string& source, bool allow_override = false);
  /// All or nothing: either every prototype is added or none (the first problem is returned,
  /// listing every duplicate).
  Status RegisterAll(std::vector<OpProto> protos, const std::string& source, bool allow_override);

  /// The prototype of `type`, or nullptr. Stays valid while the process runs (shared ownership).
  std::shared_ptr<const OpProto> Find(const std::string& type) const;
  bool Has(const std::string& type) const;
  /// The traits of `type`'s prototype; none set (a plain, pure operator) when it is unknown.
  OpTraits TraitsOf(const std::string& type) const;
  /// The library (or source name) `type` was registered from; "" when unknown.
  std::string SourceOf(const std::string& type) const;
  /// Every registered type, sorted.
  std::vector<std::string> GetAllTypes() const;
  size_t size() const;
  /// Forgets everything (tests).
  void Clear();

  /// A new OpDesc of `type` with its IR metadata, declared inputs/outputs (dynamic ones
  /// `counts[name]` times, default 0; optional inputs present but DT_UNDEFINED), default
  /// attributes, subgraph names, and infer/verify functions installed.
  Result<OpDescPtr> CreateOpDesc(const std::string& type, const std::string& name,
                                 const DynamicPortCounts& counts = {}) const;
  /// Installs the prototype's functions (and the IR metadata when the OpDesc has none) on an
  /// existing OpDesc, e.g. one read from a file.
  Status AttachProto(OpDesc& op) const;
  /// Names the ports of an OpDesc that has none of its own (every input "__input<i>", or every
  /// output "__output<i>", as a graph file without port names gives them) after the prototype's,
  /// by position and as CreateOpDesc names them: a dynamic input `x` takes the ports the others
  /// leave, as x0, x1, ...; trailing optional inputs may be absent. True when it renamed ports;
  /// an error naming the node, its type and the cause when the ports fit the prototype in no way
  /// or in more than one (too few, too many, two dynamic inputs sharing the extra ports).
  Result<bool> NameUnnamedPorts(OpDesc& op) const;

  /// Infers output shapes and dtypes of a graph node: copies each producer's output desc into
  /// the node's input desc, treats unlinked inputs as absent, and shows the values of inputs fed
  /// by Const/Constant nodes to the infer function.
  Status InferShape(const NodePtr& node) const;
  /// Infers outputs of a lone OpDesc (no constant inputs known).
  Status InferShape(OpDesc& op) const;
  /// Infers outputs of a lone OpDesc whose input descs hold the actual shapes, knowing the value
  /// of each input where `input_values[i]` is not null (the runtime knows them all) and which
  /// inputs are absent (`input_absent[i]`; both vectors may be shorter than the inputs).
  Status InferShape(OpDesc& op, const std::vector<const GeTensor*>& input_values,
                    const std::vector<bool>& input_absent) const;
  /// Runs the prototype's infer-format function (optional; GE's INFER_FORMAT_FUNC) on a graph
  /// node: it sets the formats of the outputs from the inputs' (e.g. an NHWC-preserving op).
  /// Without one the formats stay as they are. Like InferShape, it first copies each producer's
  /// output desc into the node's input desc.
  Status InferFormat(const NodePtr& node) const;
  /// Generic checks (input count, presence of required inputs and attributes, attribute kinds,
  /// allowed dtypes, shared type symbols) followed by the op's verify function. The node form,
  /// like InferShape, first copies each producer's output desc into the node's input desc.
  Status Verify(const NodePtr& node) const;
  Status Verify(const OpDesc& op) const;

 private:
  /// Gives a graph node its prototype's functions if it has none, and its producers' descs.
  Status FunctionsFor(const NodePtr& node, const char* what) const;
  struct Entry {
    std::shared_ptr<const OpProto> proto;
    std::string source;
  };
  mutable std::shared_mutex mutex_;
  std::map<std::string, Entry> entries_;
};

/// GE's name for making ops from registered types, on the process registry.
class GE_API OperatorFactory {
 public:
  OperatorFactory() = delete;
  static Result<OpDescPtr> CreateOperator(const std::string& name, const std::string& type,
                                          const DynamicPortCounts& counts = {});
  static bool IsExistOp(const std::string& type);
  static std::vector<std::string> GetOpsTypeList();
};

}  // namespace ge
