// What an ge::Operator handle refers to: its OpDesc, the producers of its inputs (by input name,
// which stays right when dynamic inputs are inserted in front), its control inputs, its subgraph
// builders, and the mistakes made building it, reported when a graph is made from it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ge/api/operator.h"
#include "ge/graph/op_desc.h"

namespace ge {

/// GE's API takes names as C strings; a null one reads as "".
inline std::string StrOrEmpty(const char* s) { return s == nullptr ? std::string() : s; }

class OperatorImpl {
 public:
  struct Link {
    OperatorImplPtr src;
    int32_t src_index = 0;
  };

  OpDescPtr desc;
  std::map<std::string, Link> inputs;  ///< input name → producer output
  std::vector<OperatorImplPtr> control_inputs;
  std::map<std::string, std::vector<SubgraphBuilder>> subgraphs;  ///< IR name → one per instance
  std::set<std::string> updated_inputs;   ///< inputs whose desc the caller set
  std::set<std::string> updated_outputs;  ///< outputs whose desc the caller set
  std::vector<std::string> errors;

  /// "operator 'conv1' (Conv2D)".
  std::string Where() const;
  /// Records a mistake made building this operator and makes it the thread's last error.
  void Fail(const std::string& what);
};

}  // namespace ge
