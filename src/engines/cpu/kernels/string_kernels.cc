// CPU kernels of the operators over DT_STRING tensors (ONNX names): StringConcat, StringSplit,
// RegexFullMatch and StringNormalizer.
//
// A tensor in a run holds one StringHead per element (ge/graph/string_tensor.h): a kernel reads
// element i with ReadString and points output element i at bytes that live until the run ends.
// Substrings of an input and strings the kernel holds itself need no copy; bytes a kernel makes
// (a concatenation, a lowercased word) go to the run's StringStore (KernelSpec::strings).
// The kernels run on one thread: the store is not thread-safe.
#include <limits>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ge/graph/utils/attr_utils.h"
#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

// An empty string whose bytes are somewhere (a head with address 0 is empty too, but copying
// from a null address is not allowed even for no bytes).
constexpr std::string_view kEmpty = "";

// What the string kernels share: the store, and checks of dtypes.
class StringKernel : public KernelBase {
 protected:
  // Takes the run's store, which a kernel that makes strings needs.
  Status NeedStore(const KernelSpec& spec) {
    strings_ = spec.strings;
    if (strings_ == nullptr) {
      return Error("no string store to keep the strings it makes in (KernelSpec::strings)");
    }
    return Status::Ok();
  }
  // `value` kept until the run ends.
  Result<std::string_view> Keep(std::string_view value) const {
    Result<std::string_view> kept = strings_->Keep(value);
    if (!kept.ok()) return Error(kept.status().message());
    return kept;
  }
  Status RequireType(const TensorSpec& spec, DataType dtype, const std::string& what) const {
    if (spec.dtype == dtype) return Status::Ok();
    return Error(what + " is " + DtypeName(spec.dtype) + ", not " + DtypeName(dtype));
  }

  StringStore* strings_ = nullptr;
};

// ONNX StringConcat: Z = X + Y per element, NumPy broadcasting.
class StringConcatKernel final : public StringKernel {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelTensor& y = args.inputs[1];
    const KernelOutput& z = args.outputs[0];
    GE_RETURN_IF_ERROR(RequireType(x.spec, DT_STRING, "input X"));
    GE_RETURN_IF_ERROR(RequireType(y.spec, DT_STRING, "input Y"));
    GE_RETURN_IF_ERROR(RequireType(z.spec, DT_STRING, "output Z"));
    std::vector<int64_t> dims;
    if (!BroadcastDims(x.spec.dims, y.spec.dims, &dims)) {
      return Error("inputs X " + DimsToString(x.spec.dims) + " and Y " + DimsToString(y.spec.dims) +
                   " do not broadcast");
    }
    if (z.spec.dims != dims) {
      return Error("output Z is " + DimsToString(z.spec.dims) + ", not " + DimsToString(dims));
    }
    std::vector<int64_t> xs;
    std::vector<int64_t> ys;
    (void)BroadcastStrides(x.spec.dims, dims, &xs);
    (void)BroadcastStrides(y.spec.dims, dims, &ys);
    const int64_t n = NumElements(dims);
    std::vector<int64_t> index(dims.size(), 0);
    int64_t xo = 0;
    int64_t yo = 0;
    std::string joined;
    for (int64_t i = 0; i < n; ++i) {
      const std::string_view a = ReadString(x.data, xo);
      const std::string_view b = ReadString(y.data, yo);
      std::string_view out = a.empty() ? b : a;  // one side empty: the other's bytes as they are
      if (!a.empty() && !b.empty()) {
        joined.assign(a).append(b);
        GE_ASSIGN_OR_RETURN(out, Keep(joined));
      }
      WriteString(z.data, i, out.empty() ? kEmpty : out);
      for (size_t d = dims.size(); d-- > 0;) {  // the next output index, and the inputs' offsets
        xo += xs[d];
        yo += ys[d];
        if (++index[d] < dims[d]) break;
        xo -= xs[d] * dims[d];
        yo -= ys[d] * dims[d];
        index[d] = 0;
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec& spec) override { return NeedStore(spec); }
};

// The bytes of the whitespace character at s[i], or 0: what Python's str.split() splits on (ASCII
// \t \n \v \f \r, the separators \x1c to \x1f and space, and Unicode's spaces in UTF-8).
size_t SpaceAt(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F)) return 1;
  const auto at = [&](size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0U;
  };
  if (c == 0xC2 && (at(1) == 0x85 || at(1) == 0xA0)) return 2;  // U+0085, U+00A0
  if (c == 0xE1 && at(1) == 0x9A && at(2) == 0x80) return 3;    // U+1680
  if (c == 0xE2 && at(1) == 0x80 &&
      ((at(2) >= 0x80 && at(2) <= 0x8A) || at(2) == 0xA8 || at(2) == 0xA9 || at(2) == 0xAF)) {
    return 3;  // U+2000 to U+200A, U+2028, U+2029, U+202F
  }
  if (c == 0xE2 && at(1) == 0x81 && at(2) == 0x9F) return 3;  // U+205F
  if (c == 0xE3 && at(1) == 0x80 && at(2) == 0x80) return 3;  // U+3000
  return 0;
}

// ONNX StringSplit: each element split as Python's str.split(delimiter or None, maxsplit) splits
// it. Y [..., K] holds the substrings (K the most of any element; "" after an element's last),
// which point into X; Z the counts. K is known only from X's values: the runtime asks
// MaxOutputDimsOfValues, which gives it exactly.
class StringSplitKernel final : public StringKernel {
 public:
  bool OutputDimsDependOnData(size_t index) const override { return index == 0; }
  // Without the values there is no bound.
  std::vector<int64_t> MaxOutputDims(size_t /*index*/,
                                     const std::vector<TensorSpec>& /*inputs*/) const override {
    return {};
  }
  std::vector<int64_t> MaxOutputDimsOfValues(
      size_t index, const std::vector<KernelTensor>& inputs) const override {
    if (index != 0 || inputs.empty() || inputs[0].spec.dtype != DT_STRING ||
        (inputs[0].data == nullptr && NumElements(inputs[0].spec.dims) > 0)) {
      return {};
    }
    std::vector<int64_t> dims = inputs[0].spec.dims;
    dims.push_back(MostParts(inputs[0]));
    return dims;
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    return index == 0 ? actual_ : std::vector<int64_t>{};
  }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 2));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    const KernelOutput& z = args.outputs[1];
    GE_RETURN_IF_ERROR(RequireType(x.spec, DT_STRING, "input X"));
    GE_RETURN_IF_ERROR(RequireType(y.spec, DT_STRING, "output Y"));
    GE_RETURN_IF_ERROR(RequireType(z.spec, DT_INT64, "output Z"));
    if (z.spec.dims != x.spec.dims) {
      return Error("output Z is " + DimsToString(z.spec.dims) + ", not X's " +
                   DimsToString(x.spec.dims));
    }
    const int64_t n = NumElements(x.spec.dims);
    const int64_t most = MostParts(x);
    int64_t room = 0;
    if (!checked::Mul(n, most, &room) || NumElements(y.spec.dims) < room) {
      return Error("output Y " + DimsToString(y.spec.dims) + " has no room for " +
                   std::to_string(n) + " x " + std::to_string(most) + " substrings");
    }
    auto* counts = static_cast<int64_t*>(z.data);
    std::vector<std::string_view> parts;
    for (int64_t i = 0; i < n; ++i) {
      parts.clear();
      Split(ReadString(x.data, i), parts);
      counts[i] = static_cast<int64_t>(parts.size());
      for (int64_t j = 0; j < most; ++j) {
        const std::string_view part = j < counts[i] ? parts[static_cast<size_t>(j)] : kEmpty;
        WriteString(y.data, i * most + j, part.empty() ? kEmpty : part);
      }
    }
    actual_ = x.spec.dims;
    actual_.push_back(most);
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    delimiter_ = AttrStr("delimiter", "");
    if (HasAttr("maxsplit")) {
      maxsplit_ = AttrInt("maxsplit", 0);
      if (maxsplit_ < 0) {
        return Error("attribute 'maxsplit' must not be negative, got " + std::to_string(maxsplit_));
      }
    }
    return Status::Ok();
  }

  // Appends the substrings of `s` to `parts`.
  void Split(std::string_view s, std::vector<std::string_view>& parts) const {
    int64_t splits = 0;
    if (!delimiter_.empty()) {
      size_t start = 0;
      for (size_t at = s.find(delimiter_); at != std::string_view::npos && splits < maxsplit_;
           at = s.find(delimiter_, start), ++splits) {
        parts.push_back(s.substr(start, at - start));
        start = at + delimiter_.size();
      }
      parts.push_back(s.substr(start));
      return;
    }
    // On runs of whitespace: none at either end; after maxsplit words, the rest as it is.
    const auto skip = [&](size_t i) {
      for (size_t w = 0; i < s.size() && (w = SpaceAt(s, i)) > 0;) i += w;
      return i;
    };
    for (size_t i = skip(0); i < s.size();) {
      if (splits == maxsplit_) {
        parts.push_back(s.substr(i));
        return;
      }
      size_t end = i;
      while (end < s.size() && SpaceAt(s, end) == 0) ++end;
      parts.push_back(s.substr(i, end - i));
      ++splits;
      i = skip(end);
    }
  }

  // The most substrings an element of `x` splits into (0 when it has none).
  int64_t MostParts(const KernelTensor& x) const {
    const int64_t n = NumElements(x.spec.dims);
    int64_t most = 0;
    std::vector<std::string_view> parts;
    for (int64_t i = 0; i < n; ++i) {
      parts.clear();
      Split(ReadString(x.data, i), parts);
      most = std::max(most, static_cast<int64_t>(parts.size()));
    }
    return most;
  }

  std::string delimiter_;
  int64_t maxsplit_ = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> actual_;
};

// RE2's syntax (ONNX's) as ECMAScript, the syntax of std::regex: named groups lose their names, a
// leading (?i) becomes the icase flag, \A and \z become ^ and $. What RE2 does not have is refused
// (back-references, lookaround), and so is what std::regex cannot do (other inline flags, Unicode
// classes \p, \Q...\E quoting, \C). Differences that remain: RE2 matches UTF-8 characters, where
// std::regex over char matches bytes (`.` and [^a] take one byte of a multi-byte character), and
// RE2's `.` matches \r, ECMAScript's does not. Returns the cause when the pattern is refused.
std::string FromRe2(std::string_view re2, std::string* ecma, bool* icase) {
  size_t i = 0;
  if (re2.substr(0, 4) == "(?i)") {
    *icase = true;
    i = 4;
  }
  bool in_class = false;
  for (; i < re2.size(); ++i) {
    const char c = re2[i];
    const char next = i + 1 < re2.size() ? re2[i + 1] : '\0';
    if (c == '\\') {
      if (next == 'p' || next == 'P') return "Unicode classes (\\p) are not supported";
      if (next == 'Q' || next == 'C') return std::string("\\") + next + " is not supported";
      if (!in_class && next >= '1' && next <= '9') return "back-references are not RE2 syntax";
      if (!in_class && (next == 'A' || next == 'z')) {
        *ecma += next == 'A' ? '^' : '$';
      } else {
        *ecma += c;
        if (next != '\0') *ecma += next;
      }
      ++i;
      continue;
    }
    if (in_class) {
      if (c == '[' && next == ':') {  // [:alpha:] as it is
        const size_t end = re2.find(":]", i + 2);
        if (end != std::string_view::npos) {
          *ecma += re2.substr(i, end + 2 - i);
          i = end + 1;
          continue;
        }
      }
      in_class = c != ']';
      *ecma += c;
      continue;
    }
    // A ] first in a class (after any ^) is a literal, where ECMAScript reads [] as the empty
    // class.
    if (c == '[') {
      in_class = true;
      const size_t first = next == '^' ? i + 2 : i + 1;
      *ecma += re2.substr(i, first - i);
      if (first < re2.size() && re2[first] == ']') {
        *ecma += "\\]";
        i = first;
      } else {
        i = first - 1;
      }
      continue;
    }
    if (c == '(' && next == '?') {
      const std::string_view rest = re2.substr(i + 2);
      if (rest.substr(0, 1) == ":") {
        *ecma += "(?:";
        i += 2;
        continue;
      }
      if (rest.substr(0, 2) == "P<" ||
          (rest.substr(0, 1) == "<" && rest.substr(1, 1) != "=" && rest.substr(1, 1) != "!")) {
        const size_t close = re2.find('>', i);
        if (close == std::string_view::npos) return "a group name is not closed with '>'";
        *ecma += '(';
        i = close;
        continue;
      }
      if (rest.substr(0, 1) == "=" || rest.substr(0, 1) == "!" || rest.substr(0, 2) == "<=" ||
          rest.substr(0, 2) == "<!") {
        return "lookaround assertions are not RE2 syntax";
      }
      return "inline flags other than a leading (?i) are not supported";
    }
    *ecma += c;
  }
  return "";
}

// ONNX RegexFullMatch: whether each element matches `pattern` as a whole.
class RegexFullMatchKernel final : public StringKernel {
 public:
  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    GE_RETURN_IF_ERROR(RequireType(x.spec, DT_STRING, "input X"));
    GE_RETURN_IF_ERROR(RequireType(y.spec, DT_BOOL, "output Y"));
    if (y.spec.dims != x.spec.dims) {
      return Error("output Y is " + DimsToString(y.spec.dims) + ", not X's " +
                   DimsToString(x.spec.dims));
    }
    auto* out = static_cast<bool*>(y.data);
    const int64_t n = NumElements(x.spec.dims);
    for (int64_t i = 0; i < n; ++i) {
      const std::string_view s = ReadString(x.data, i);
      try {
        out[i] = std::regex_match(s.begin(), s.end(), regex_);
      } catch (const std::exception& e) {  // std::regex_error: the match grew too complex
        return Error("matching element " + std::to_string(i) + " failed: " + e.what());
      }
    }
    return Status::Ok();
  }

 private:
  Status PrepareImpl(const KernelSpec&) override {
    const std::string pattern = AttrStr("pattern", "");
    std::string ecma;
    bool icase = false;
    const std::string refused = FromRe2(pattern, &ecma, &icase);
    if (!refused.empty()) return Error("attribute 'pattern' '" + pattern + "': " + refused);
    auto flags = std::regex::ECMAScript | std::regex::nosubs | std::regex::optimize;
    if (icase) flags |= std::regex::icase;
#ifdef __GLIBCXX__
    // libstdc++'s default matcher backtracks, one stack frame per character: a long string
    // would overflow the stack. Its polynomial mode walks all states at once, in time linear
    // in the string as RE2 does; it cannot take back-references, which RE2 has not either.
    flags |= std::regex_constants::__polynomial;
#endif
    try {
      regex_ = std::regex(ecma, flags);
    } catch (const std::exception& e) {
      return Error("attribute 'pattern' '" + pattern +
                   "' is not a valid regular expression: " + e.what());
    }
    return Status::Ok();
  }

  std::regex regex_;
};

// Unicode's simple (one-to-one) case mapping, for the letters of Latin-1, Latin Extended-A,
// Greek and Cyrillic; other characters, and the mappings to several characters (ß to SS), stay.
char32_t LowerOf(char32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 32 : c;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x130) return 'i';
    if (c == 0x178) return 0xFF;
    if (c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F) return c;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return c % 2 == 1 ? c + 1 : c;
    return c % 2 == 0 ? c + 1 : c;
  }
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}
char32_t UpperOf(char32_t c) {
  if (c < 0x80) return c >= 'a' && c <= 'z' ? c - 32 : c;
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;
  if (c == 0xFF) return 0x178;
  if (c == 0xB5) return 0x39C;  // micro sign: Greek capital mu
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x131) return 'I';
    if (c == 0x17F) return 'S';
    if (c == 0x130 || c == 0x138 || c == 0x149 || c == 0x178) return c;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return c % 2 == 0 ? c - 1 : c;
    return c % 2 == 1 ? c - 1 : c;
  }
  if (c == 0x3C2) return 0x3A3;  // final sigma
  if (c >= 0x3B1 && c <= 0x3CB) return c - 32;
  if (c == 0x3AC) return 0x386;
  if (c >= 0x3AD && c <= 0x3AF) return c - 37;
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 63;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  return c;
}

// `s` with its letters mapped by `map` into `out`. Every letter mapped lies below U+0800, so
// only one- and two-byte UTF-8 sequences change; other bytes (longer sequences, bytes that are
// not UTF-8) are copied as they are.
void MapCase(std::string_view s, char32_t (*map)(char32_t), std::string& out) {
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    const auto b1 = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0U;
    char32_t c = b;
    if (b >= 0xC2 && b <= 0xDF && (b1 & 0xC0U) == 0x80) {
      c = ((b & 0x1FU) << 6U) | (b1 & 0x3FU);
      ++i;
    } else if (b >= 0x80) {
      out += static_cast<char>(b);
      continue;
    }
    const char32_t m = map(c);
    if (m < 0x80) {
      out += static_cast<char>(m);
    } else {
      out += static_cast<char>(0xC0U | (m >> 6U));
      out += static_cast<char>(0x80U | (m & 0x3FU));
    }
  }
}

// ONNX StringNormalizer over X [C] or [1, C]: the elements equal to a stop word are removed
// (compared lowercased unless is_case_sensitive), the others lowercased, uppercased or kept.
// Y [C'] or [1, C'], C' known after the run; when no element is left, Y holds one "". The
// locale is checked when the model compiles: the mapping is the same for all it accepts.
class StringNormalizerKernel final : public StringKernel {
 public:
  bool OutputDimsDependOnData(size_t index) const override { return index == 0; }
  std::vector<int64_t> MaxOutputDims(size_t index,
                                     const std::vector<TensorSpec>& inputs) const override {
    if (index != 0 || inputs.empty() || inputs[0].dims.empty()) return {};
    std::vector<int64_t> dims = inputs[0].dims;
    dims.back() = std::max<int64_t>(dims.back(), 1);
    return dims;
  }
  std::vector<int64_t> ActualOutputDims(size_t index) const override {
    return index == 0 ? actual_ : std::vector<int64_t>{};
  }

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 1, 1));
    const KernelTensor& x = args.inputs[0];
    const KernelOutput& y = args.outputs[0];
    GE_RETURN_IF_ERROR(RequireType(x.spec, DT_STRING, "input X"));
    GE_RETURN_IF_ERROR(RequireType(y.spec, DT_STRING, "output Y"));
    const std::vector<int64_t>& d = x.spec.dims;
    if (d.size() != 1 && !(d.size() == 2 && d[0] == 1)) {
      return Error("input X must be [C] or [1, C], not " + DimsToString(d));
    }
    const int64_t n = d.back();
    if (NumElements(y.spec.dims) < std::max<int64_t>(n, 1)) {
      return Error("output Y " + DimsToString(y.spec.dims) + " has no room for " +
                   std::to_string(n) + " strings");
    }
    int64_t kept = 0;
    std::string mapped;
    for (int64_t i = 0; i < n; ++i) {
      const std::string_view s = ReadString(x.data, i);
      if (IsStopword(s, mapped)) continue;
      std::string_view out = s;
      if (action_ != Action::kNone) {
        MapCase(s, action_ == Action::kLower ? LowerOf : UpperOf, mapped);
        if (mapped != s) {
          GE_ASSIGN_OR_RETURN(out, Keep(mapped));
        }
      }
      WriteString(y.data, kept++, out.empty() ? kEmpty : out);
    }
    if (kept == 0) WriteString(y.data, kept++, kEmpty);
    actual_ = d;
    actual_.back() = kept;
    return Status::Ok();
  }

 private:
  enum class Action : uint8_t { kNone, kLower, kUpper };

  Status PrepareImpl(const KernelSpec& spec) override {
    const std::string action = AttrStr("case_change_action", "NONE");
    if (action == "LOWER") {
      action_ = Action::kLower;
    } else if (action == "UPPER") {
      action_ = Action::kUpper;
    } else if (action == "NONE") {
      action_ = Action::kNone;
    } else {
      return Error("attribute 'case_change_action' must be LOWER, UPPER or NONE, not '" + action +
                   "'");
    }
    case_sensitive_ = AttrInt("is_case_sensitive", 0) != 0;
    std::vector<std::string> words;
    if (op_ != nullptr) (void)AttrUtils::GetListStr(*op_, "stopwords", words);
    std::string folded;
    for (const std::string& w : words) {
      if (case_sensitive_) {
        stopwords_.insert(w);
      } else {
        MapCase(w, LowerOf, folded);
        stopwords_.insert(folded);
      }
    }
    return action_ == Action::kNone ? Status::Ok() : NeedStore(spec);
  }

  // `scratch`: a buffer for the lowercased word.
  bool IsStopword(std::string_view s, std::string& scratch) const {
    if (stopwords_.empty()) return false;
    if (case_sensitive_) return stopwords_.count(std::string(s)) > 0;
    MapCase(s, LowerOf, scratch);
    return stopwords_.count(scratch) > 0;
  }

  Action action_ = Action::kNone;
  bool case_sensitive_ = false;
  std::unordered_set<std::string> stopwords_;
  std::vector<int64_t> actual_;
};

}  // namespace

void RegisterStringKernels(KernelTable& t) {
  t.Add("StringConcat", MakeKernel<StringConcatKernel>);
  t.Add("StringSplit", MakeKernel<StringSplitKernel>);
  t.Add("RegexFullMatch", MakeKernel<RegexFullMatchKernel>);
  t.Add("StringNormalizer", MakeKernel<StringNormalizerKernel>);
}

}  // namespace ge::host_cpu
