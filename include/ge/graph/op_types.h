// Names of the operator types the graph itself gives meaning to: its inputs, its weights and
// its output. Everything else about an operator type (views, identities, purity, which pass
// removes it) is a trait of its prototype: ask the operator registry (ge/ops/op_registry.h).
#pragma once

#include <string_view>

namespace ge {

inline constexpr char kTypeData[] = "Data";
inline constexpr char kTypeRefData[] = "RefData";
inline constexpr char kTypeAippData[] = "AippData";
inline constexpr char kTypeAnnData[] = "AnnData";
inline constexpr char kTypeConst[] = "Const";
inline constexpr char kTypeConstant[] = "Constant";
inline constexpr char kTypeFileConstant[] = "FileConstant";
inline constexpr char kTypeVariable[] = "Variable";
inline constexpr char kTypeNetOutput[] = "NetOutput";

/// On a Data node: its position among the graph's inputs (GE's "index").
inline constexpr char kAttrDataIndex[] = "index";

/// Const and Constant: a node whose one output is the tensor in its "value" attribute.
inline bool IsConstType(std::string_view type) {
  return type == kTypeConst || type == kTypeConstant;
}

/// A graph input: Data, RefData, AippData or AnnData.
inline bool IsDataType(std::string_view type) {
  return type == kTypeData || type == kTypeRefData || type == kTypeAippData || type == kTypeAnnData;
}

/// Nodes whose output is memory the graph does not own: inputs, weights, variables.
inline bool IsInputOrWeightType(std::string_view type) {
  return IsDataType(type) || IsConstType(type) || type == kTypeFileConstant ||
         type == kTypeVariable;
}

/// The graph's inputs and its output node: passes never remove or merge them.
inline bool IsGraphBoundaryType(std::string_view type) {
  return type == kTypeData || type == kTypeRefData || type == kTypeNetOutput;
}

}  // namespace ge
