// SymExpr: integer polynomials over dim names, their text form, and symbolic shapes of descs.
#include "ge/graph/sym_expr.h"

#include <algorithm>
#include <cctype>

#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool IsNameChar(char c) {
  return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool IsPlainName(const std::string& name) {
  return !name.empty() && IsNameStart(name[0]) && std::all_of(name.begin(), name.end(), IsNameChar);
}

std::string QuotedName(const std::string& name) {
  if (IsPlainName(name)) return name;
  std::string out = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Recursive descent over the grammar ToString writes:
//   sum := ['-'] product (('+' | '-') product)*;  product := factor ('*' factor)*;
//   factor := integer | name | '"' text '"' | '(' sum ')'.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<SymExpr> ParseAll() {
    GE_ASSIGN_OR_RETURN(SymExpr e, Sum(0));
    SkipSpace();
    if (at_ != text_.size()) return Fail("unexpected '" + std::string(1, text_[at_]) + "'");
    return e;
  }

 private:
  static constexpr int kMaxDepth = 64;

  Status Fail(const std::string& why) const {
    return ParamInvalid("dim expression '" + std::string(text_) + "' at character " +
                        std::to_string(at_) + ": " + why);
  }
  void SkipSpace() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  bool Take(char c) {
    SkipSpace();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  Result<SymExpr> Sum(int depth) {
    if (depth > kMaxDepth) return Fail("nested too deeply");
    const bool negate = Take('-');
    GE_ASSIGN_OR_RETURN(SymExpr total, Product(depth));
    if (negate) {
      GE_ASSIGN_OR_RETURN(total, Checked(total.Times(SymExpr::Constant(-1))));
    }
    for (;;) {
      int sign = 0;
      if (Take('+')) {
        sign = 1;
      } else if (Take('-')) {
        sign = -1;
      } else {
        return total;
      }
      GE_ASSIGN_OR_RETURN(SymExpr term, Product(depth));
      if (sign < 0) {
        GE_ASSIGN_OR_RETURN(term, Checked(term.Times(SymExpr::Constant(-1))));
      }
      GE_ASSIGN_OR_RETURN(total, Checked(total.Plus(term)));
    }
  }

  Result<SymExpr> Product(int depth) {
    GE_ASSIGN_OR_RETURN(SymExpr total, Factor(depth));
    while (Take('*')) {
      GE_ASSIGN_OR_RETURN(SymExpr factor, Factor(depth));
      GE_ASSIGN_OR_RETURN(total, Checked(total.Times(factor)));
    }
    return total;
  }

  Result<SymExpr> Factor(int depth) {
    SkipSpace();
    if (at_ >= text_.size()) return Fail("an operand is missing");
    const char c = text_[at_];
    if (c == '(') {
      ++at_;
      GE_ASSIGN_OR_RETURN(SymExpr inner, Sum(depth + 1));
      if (!Take(')')) return Fail("')' expected");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      int64_t value = 0;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])) != 0) {
        if (__builtin_mul_overflow(value, 10, &value) ||
            __builtin_add_overflow(value, text_[at_] - '0', &value)) {
          return Fail("the number is too large");
        }
        ++at_;
      }
      return SymExpr::Constant(value);
    }
    if (c == '"') {
      std::string name;
      for (++at_; at_ < text_.size() && text_[at_] != '"'; ++at_) {
        if (text_[at_] == '\\' && at_ + 1 < text_.size()) ++at_;
        name += text_[at_];
      }
      if (at_ >= text_.size()) return Fail("the quoted name is not closed");
      ++at_;
      return SymExpr::Symbol(name);
    }
    if (IsNameStart(c)) {
      const size_t start = at_;
      while (at_ < text_.size() && IsNameChar(text_[at_])) ++at_;
      return SymExpr::Symbol(std::string(text_.substr(start, at_ - start)));
    }
    return Fail("unexpected '" + std::string(1, c) + "'");
  }

  Result<SymExpr> Checked(std::optional<SymExpr> e) const {
    if (!e) return Fail("a coefficient overflows");
    return std::move(*e);
  }

  std::string_view text_;
  size_t at_ = 0;
};

}  // namespace

SymExpr SymExpr::Constant(int64_t value) {
  SymExpr e;
  if (value != 0) e.terms_[{}] = value;
  return e;
}

SymExpr SymExpr::Symbol(const std::string& name) {
  SymExpr e;
  e.terms_[{name}] = 1;
  return e;
}

Result<SymExpr> SymExpr::Parse(std::string_view text) { return Parser(text).ParseAll(); }

SymExpr SymExpr::FromDimName(const std::string& name) {
  // "batch-size" is one name, "seq-1" and "batch*seq" are expressions.
  const size_t minus = name.rfind('-');
  const bool offset =
      minus != std::string::npos && minus + 1 < name.size() &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(minus) + 1, name.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  const bool number = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (name.find_first_of("*+()\"") != std::string::npos || offset || number) {
    Result<SymExpr> parsed = Parse(name);
    if (parsed.ok()) return std::move(parsed).value();
  }
  return Symbol(name);
}

std::optional<SymExpr> SymExpr::Plus(const SymExpr& other) const {
  SymExpr sum = *this;
  for (const auto& [monomial, coefficient] : other.terms_) {
    int64_t& c = sum.terms_[monomial];
    if (__builtin_add_overflow(c, coefficient, &c)) return std::nullopt;
    if (c == 0) sum.terms_.erase(monomial);
  }
  return sum;
}

std::optional<SymExpr> SymExpr::Times(const SymExpr& other) const {
  SymExpr product;
  for (const auto& [ma, ca] : terms_) {
    for (const auto& [mb, cb] : other.terms_) {
      std::vector<std::string> monomial = ma;
      monomial.insert(monomial.end(), mb.begin(), mb.end());
      std::sort(monomial.begin(), monomial.end());
      int64_t c = 0;
      if (__builtin_mul_overflow(ca, cb, &c)) return std::nullopt;
      int64_t& sum = product.terms_[monomial];
      if (__builtin_add_overflow(sum, c, &sum)) return std::nullopt;
      if (sum == 0) product.terms_.erase(monomial);
    }
  }
  return product;
}

bool SymExpr::IsConstant() const {
  return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty());
}

std::optional<int64_t> SymExpr::ConstantValue() const {
  if (!IsConstant()) return std::nullopt;
  return terms_.empty() ? 0 : terms_.begin()->second;
}

std::optional<std::string> SymExpr::SymbolName() const {
  if (terms_.size() != 1) return std::nullopt;
  const auto& [monomial, coefficient] = *terms_.begin();
  if (monomial.size() != 1 || coefficient != 1) return std::nullopt;
  return monomial[0];
}

std::set<std::string> SymExpr::Symbols() const {
  std::set<std::string> out;
  for (const auto& term : terms_) out.insert(term.first.begin(), term.first.end());
  return out;
}

std::optional<int64_t> SymExpr::Evaluate(const std::map<std::string, int64_t>& values) const {
  int64_t total = 0;
  for (const auto& [monomial, coefficient] : terms_) {
    int64_t term = coefficient;
    for (const std::string& symbol : monomial) {
      auto it = values.find(symbol);
      if (it == values.end() || __builtin_mul_overflow(term, it->second, &term)) {
        return std::nullopt;
      }
    }
    if (__builtin_add_overflow(total, term, &total)) return std::nullopt;
  }
  return total;
}

std::string SymExpr::ToString() const {
  if (terms_.empty()) return "0";
  // Higher degree first, the constant last: "batch*seq*12+seq+1".
  std::vector<const std::pair<const std::vector<std::string>, int64_t>*> order;
  for (const auto& term : terms_) order.push_back(&term);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto* a, const auto* b) { return a->first.size() > b->first.size(); });
  std::string out;
  for (const auto* term : order) {
    const auto& [monomial, coefficient] = *term;
    const bool negative = coefficient < 0;
    if (!out.empty()) out += negative ? "-" : "+";
    if (out.empty() && negative) out += "-";
    // The magnitude, written without negating (INT64_MIN has no positive counterpart).
    std::string magnitude = std::to_string(coefficient);
    if (negative) magnitude.erase(0, 1);
    std::string text;
    for (const std::string& symbol : monomial) {
      if (!text.empty()) text += '*';
      text += QuotedName(symbol);
    }
    if (monomial.empty()) {
      text = magnitude;
    } else if (magnitude != "1") {
      text += "*" + magnitude;
    }
    out += text;
  }
  return out;
}

std::optional<std::vector<std::optional<SymExpr>>> SymbolicDims(const GeTensorDesc& desc) {
  const GeShape& shape = desc.GetShape();
  if (shape.IsUnknownDimNum()) return std::nullopt;
  std::vector<std::string> names;
  (void)AttrUtils::GetListStr(desc, kAttrSymbolicDims, names);
  std::vector<std::optional<SymExpr>> dims;
  dims.reserve(shape.GetDimNum());
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    const int64_t d = shape.GetDim(i);
    if (d >= 0) {
      dims.emplace_back(SymExpr::Constant(d));
    } else if (i < names.size() && !names[i].empty()) {
      dims.emplace_back(SymExpr::FromDimName(names[i]));
    } else {
      dims.emplace_back(std::nullopt);
    }
  }
  return dims;
}

void SetSymbolicDims(GeTensorDesc& desc, const std::vector<std::optional<SymExpr>>& dims) {
  const GeShape& shape = desc.GetShape();
  std::vector<std::string> names;
  bool any = false;
  for (size_t i = 0; !shape.IsUnknownDimNum() && i < shape.GetDimNum(); ++i) {
    std::string name;
    if (shape.GetDim(i) < 0 && i < dims.size() && dims[i]) {
      name = dims[i]->ToString();
      any = true;
    }
    names.push_back(std::move(name));
  }
  if (any) {
    (void)AttrUtils::SetListStr(desc, kAttrSymbolicDims, names);
  } else {
    (void)desc.DelAttr(kAttrSymbolicDims);
  }
}

void SetShapeKeepingDimNames(GeTensorDesc& desc, const std::vector<int64_t>& dims) {
  const auto named = SymbolicDims(desc);
  desc.SetShape(GeShape(dims));
  desc.SetOriginShape(GeShape(dims));
  if (named.has_value() && named->size() == dims.size()) {
    SetSymbolicDims(desc, *named);
  } else {
    (void)desc.DelAttr(kAttrSymbolicDims);
  }
}

bool SameSymbolicShape(const GeTensorDesc& a, const GeTensorDesc& b) {
  const auto da = SymbolicDims(a);
  const auto db = SymbolicDims(b);
  if (!da || !db || da->size() != db->size()) return false;
  for (size_t i = 0; i < da->size(); ++i) {
    if (!(*da)[i] || !(*db)[i] || *(*da)[i] != *(*db)[i]) return false;
  }
  return true;
}

std::string SymbolicShapeString(const GeTensorDesc& desc) {
  const auto dims = SymbolicDims(desc);
  if (!dims) return desc.GetShape().ToString();
  std::string out = "[";
  for (size_t i = 0; i < dims->size(); ++i) {
    if (i != 0) out += ",";
    out += (*dims)[i] ? (*dims)[i]->ToString() : std::to_string(desc.GetShape().GetDim(i));
  }
  return out + "]";
}

}  // namespace ge
