// The GE Local operator factory: op types mapped to creators, filled by explicit registration.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/engine/task.h"
#include "ge/graph/node.h"
#include "ge/graph/status.h"

namespace ge::ge_local {

/// One GE Local operator at task generation. GE Local ops produce no tasks: Run either succeeds
/// (nothing to do at run time) or explains why the node should not be here.
class Op {
 public:
  Op(const Node& node, RunContext& context);
  virtual ~Op() = default;
  Op(const Op&) = delete;
  Op& operator=(const Op&) = delete;

  virtual Status Run() = 0;

 protected:
  const Node& node_;
  RunContext& context_;
  const std::string& name_;
  const std::string& type_;
};

using OpCreator = std::function<std::unique_ptr<Op>(const Node&, RunContext&)>;

/// Op type → creator. No static registration: the engine's Initialize fills it explicitly
/// (RegisterGeLocalOps), so the set of supported types is exactly what that function lists.
class OpFactory {
 public:
  /// Refuses an empty type, a null creator and a type registered twice.
  Status RegisterCreator(const std::string& type, OpCreator creator);
  bool IsRegistered(const std::string& type) const { return creators_.count(type) != 0; }
  /// Registered types, sorted.
  std::vector<std::string> GetAllOps() const;
  /// The op for `node`; an error names the node and type when the type is not registered.
  Result<std::unique_ptr<Op>> CreateOp(const Node& node, RunContext& context) const;

 private:
  std::map<std::string, OpCreator> creators_;
};

}  // namespace ge::ge_local
