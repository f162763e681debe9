// Dims known only at run time, as expressions over the names a model gives them: "batch", "seq*12",
// "batch*seq", "seq+1". What kAttrSymbolicDims holds, read and written.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// A polynomial with integer coefficients over named symbols. A value type; equal expressions
/// compare equal whatever order they were built in, so `SymExpr::Parse("seq*batch") ==
/// SymExpr::Parse("batch*seq")`.
class GE_API SymExpr {
 public:
  /// The constant 0.
  SymExpr() = default;
  static SymExpr Constant(int64_t value);
  static SymExpr Symbol(const std::string& name);
  /// Reads what ToString writes: integers, names, `+`, `-`, `*` and parentheses. A name is
  /// `[A-Za-z_][A-Za-z0-9_]*` or any text in double quotes (`\"` and `\\` escaped).
  static Result<SymExpr> Parse(std::string_view text);
  /// A dim name as a model gives it (ONNX dim_param) or as SetSymbolicDims wrote it: an
  /// expression when it has `*`, `+`, parentheses or quotes, or ends in `-` and a number, and
  /// parses ("batch*seq", "seq-1"); otherwise the whole text is one name ("batch-size").
  static SymExpr FromDimName(const std::string& name);

  /// nullopt where a coefficient would overflow.
  std::optional<SymExpr> Plus(const SymExpr& other) const;
  std::optional<SymExpr> Times(const SymExpr& other) const;

  bool IsConstant() const;
  /// The value when the expression has no symbol.
  std::optional<int64_t> ConstantValue() const;
  /// The name when the expression is exactly one symbol (coefficient 1, nothing added).
  std::optional<std::string> SymbolName() const;
  std::set<std::string> Symbols() const;
  /// The value with every symbol given in `values`; nullopt when one is missing or on overflow.
  std::optional<int64_t> Evaluate(const std::map<std::string, int64_t>& values) const;

  /// Symbols first, then the coefficient: "seq*12", "batch*seq", "seq+1", "2" for a constant.
  std::string ToString() const;
  bool operator==(const SymExpr& other) const { return terms_ == other.terms_; }
  bool operator!=(const SymExpr& other) const { return !(*this == other); }

 private:
  // One term per monomial: its symbols, sorted, repeated for powers ({} is the constant term),
  // and a coefficient that is never 0.
  std::map<std::vector<std::string>, int64_t> terms_;
};

/// The dims of `desc` as expressions: a known dim is its constant, a dim known only at run time is
/// what kAttrSymbolicDims says of it, nullopt where it says nothing. nullopt for an unknown rank.
GE_API std::optional<std::vector<std::optional<SymExpr>>> SymbolicDims(const GeTensorDesc& desc);
/// Writes kAttrSymbolicDims for the dims of `desc` known only at run time ("" where `dims` has
/// nothing for one); removes it when no such dim has an expression.
GE_API void SetSymbolicDims(GeTensorDesc& desc, const std::vector<std::optional<SymExpr>>& dims);
/// Gives `desc` the shape (and origin shape) `dims`, as an input shape the user gives: a dim it
/// leaves open (-1) keeps the name the model gave it ("batch"), a dim it sizes drops its name.
/// Every name goes when the rank was unknown before.
GE_API void SetShapeKeepingDimNames(GeTensorDesc& desc, const std::vector<int64_t>& dims);
/// True when the two shapes are the same for every value of the symbols: equal ranks, and per dim
/// equal constants or equal expressions. A dim known only at run time without an expression is
/// equal to nothing.
GE_API bool SameSymbolicShape(const GeTensorDesc& a, const GeTensorDesc& b);
/// "[batch,seq,768]": the shape with the expression of each dim known only at run time, -1 where
/// there is none; "[-2]" for an unknown rank.
GE_API std::string SymbolicShapeString(const GeTensorDesc& desc);

}  // namespace ge
