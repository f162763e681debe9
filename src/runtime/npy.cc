// .npy reading and writing: the magic, a version, a little-endian header length, and a Python
// dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded to 64 bytes.
//
// The dict is parsed as strictly as numpy's own reader does: exactly those three keys, each once,
// a quoted descr, fortran_order True or False, and a tuple of whole numbers. A file is read only
// when it is a regular file, and its data only once the header says how many bytes to expect and
// the file holds exactly that many.
#include "ge/runtime/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <string_view>

#include "ge/graph/utils/tensor_utils.h"

namespace ge {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
// The longest header read. numpy writes a few hundred bytes for the dtypes read here (a shape
// of 64 dims included); its own reader refuses more than 10,000 by default.
constexpr size_t kMaxHeaderBytes = 65536;
// The magic, the version and a format 2.0 / 3.0 header length.
constexpr size_t kLongestPreamble = 12;

const std::map<std::string, DataType>& Descrs() {
  static const std::map<std::string, DataType> kDescrs = {
      {"|b1", DT_BOOL},   {"|i1", DT_INT8},    {"|u1", DT_UINT8},  {"<i2", DT_INT16},
      {"<u2", DT_UINT16}, {"<i4", DT_INT32},   {"<u4", DT_UINT32}, {"<i8", DT_INT64},
      {"<u8", DT_UINT64}, {"<f2", DT_FLOAT16}, {"<f4", DT_FLOAT},  {"<f8", DT_DOUBLE}};
  return kDescrs;
}

// Where the header starts and how long it is, from the first bytes of a file (all of them when
// it is shorter than kLongestPreamble).
struct Preamble {
  size_t header_start = 0;
  size_t header_len = 0;
};

Result<Preamble> ParsePreamble(std::string_view bytes, const std::string& name) {
  if (bytes.size() < 10 || bytes.compare(0, 6, std::string_view(kMagic, 6)) != 0) {
    return ParamInvalid(name + " is not an .npy file (no \\x93NUMPY magic)");
  }
  const auto major = static_cast<uint8_t>(bytes[6]);
  const auto minor = static_cast<uint8_t>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0) {
    return ParamInvalid(name + ": .npy format version " + std::to_string(major) + "." +
                        std::to_string(minor) + " is not supported (1.0, 2.0 and 3.0 are)");
  }
  Preamble p;
  if (major == 1) {
    p.header_len =
        static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    p.header_start = 10;
  } else {
    if (bytes.size() < 12) return ParamInvalid(name + ": truncated .npy header");
    for (int i = 3; i >= 0; --i)
      p.header_len = (p.header_len << 8) | static_cast<uint8_t>(bytes[8 + static_cast<size_t>(i)]);
    p.header_start = 12;
  }
  if (p.header_len > kMaxHeaderBytes) {
    return ParamInvalid(name + ": the .npy header is " + std::to_string(p.header_len) +
                        " bytes long; more than " + std::to_string(kMaxHeaderBytes) +
                        " is not a header of the dtypes read here");
  }
  return p;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The header's dict literal, read left to right.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  // The three values as written: descr without its quotes, fortran_order's word, shape's tuple.
  Result<std::map<std::string, std::string>> Parse() {
    SkipSpace();
    if (!Eat('{')) return ParamInvalid(name_ + ": the .npy header is not a dict literal");
    std::map<std::string, std::string> fields;
    while (true) {
      SkipSpace();
      if (Eat('}')) break;
      GE_ASSIGN_OR_RETURN(std::string key, Key());
      if (key != "descr" && key != "fortran_order" && key != "shape") {
        return ParamInvalid(name_ + ": the .npy header has the key '" + key +
                            "'; only 'descr', 'fortran_order' and 'shape' belong there");
      }
      if (fields.count(key) != 0) {
        return ParamInvalid(name_ + ": the .npy header gives '" + key + "' twice");
      }
      SkipSpace();
      GE_ASSIGN_OR_RETURN(fields[key], key == "descr" ? Quoted(key) : Value(key));
      SkipSpace();
      if (Eat('}')) break;
      if (!Eat(',')) {
        return ParamInvalid(name_ + ": malformed " + key + " in the .npy header (at '" +
                            std::string(Rest()) + "')");
      }
    }
    SkipSpace();
    if (pos_ != text_.size()) {
      return ParamInvalid(name_ + ": the .npy header has '" + std::string(Rest()) +
                          "' after its dict");
    }
    for (const char* key : {"descr", "fortran_order", "shape"}) {
      if (fields.count(key) == 0) {
        return ParamInvalid(name_ + ": the .npy header has no '" + key + "'");
      }
    }
    return fields;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }
  bool Eat(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // What is left, shortened for a message.
  std::string_view Rest() const { return text_.substr(pos_, 32); }

  // A quoted string without escapes, or nothing.
  std::optional<std::string> String() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return std::nullopt;
    const char quote = text_[pos_];
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) return std::nullopt;
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    if (s.find('\\') != std::string::npos) return std::nullopt;
    pos_ = end + 1;
    return s;
  }

  Result<std::string> Key() {
    std::optional<std::string> key = String();
    SkipSpace();
    if (!key.has_value() || !Eat(':')) {
      return ParamInvalid(name_ + ": malformed .npy header (expected a quoted key and ':' at '" +
                          std::string(Rest()) + "')");
    }
    return *key;
  }

  Result<std::string> Quoted(const std::string& key) {
    const size_t start = pos_;
    std::optional<std::string> s = String();
    if (!s.has_value()) {
      const size_t end = std::min(text_.find_first_of(",}", start), text_.size());
      return ParamInvalid(name_ + ": malformed " + key + " " +
                          std::string(text_.substr(start, end - start)) + " in the .npy header");
    }
    return *s;
  }

  // A tuple up to its parenthesis, or a bare word up to the next ',' or '}', as written.
  Result<std::string> Value(const std::string& key) {
    const size_t start = pos_;
    size_t end = 0;
    if (Eat('(')) {
      end = text_.find(')', pos_);
      if (end == std::string_view::npos) {
        return ParamInvalid(name_ + ": malformed " + key + " in the .npy header");
      }
      ++end;
    } else {
      end = std::min(text_.find_first_of(",}", pos_), text_.size());
      while (end > start && IsSpace(text_[end - 1])) --end;
    }
    pos_ = end;
    return std::string(text_.substr(start, end - start));
  }

  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
};

// The dims of a shape tuple "(2, 3)", "(5,)" or "()", as Python reads it: "(5)" is a number,
// not a tuple, and every item but a trailing one is a whole number.
Result<std::vector<int64_t>> ParseShape(const std::string& text, const std::string& name) {
  constexpr size_t kMaxRank = 64;
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    return ParamInvalid(name + ": the .npy shape '" + text + "' is not a tuple like (2, 3)");
  }
  const std::string_view inner = std::string_view(text).substr(1, text.size() - 2);
  std::vector<int64_t> dims;
  size_t at = 0;
  while (true) {
    const size_t comma = std::min(inner.find(',', at), inner.size());
    std::string_view item = inner.substr(at, comma - at);
    while (!item.empty() && IsSpace(item.front())) item.remove_prefix(1);
    while (!item.empty() && IsSpace(item.back())) item.remove_suffix(1);
    const bool last = comma == inner.size();
    if (item.empty()) {
      // Only "()" and the comma that ends a tuple, "(5,)", leave nothing after them.
      if (!last) {
        return ParamInvalid(name + ": the .npy shape " + text + " has an empty dimension");
      }
      break;
    }
    int64_t v = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    const bool digits = item.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits || ec != std::errc() || end != item.data() + item.size()) {
      return ParamInvalid(name + ": bad dimension '" + std::string(item) + "' in the .npy shape " +
                          text);
    }
    if (dims.size() == kMaxRank) {
      return ParamInvalid(name + ": the .npy shape has more than " + std::to_string(kMaxRank) +
                          " dimensions");
    }
    dims.push_back(v);
    if (last) {
      if (dims.size() == 1) {
        return ParamInvalid(name + ": the .npy shape " + text +
                            " is a number, not a tuple (a 1-tuple is written (" +
                            std::string(item) + ",))");
      }
      break;
    }
    at = comma + 1;
  }
  return dims;
}

// What the header says: the tensor's desc and its data's byte count.
struct Layout {
  GeTensorDesc desc;
  int64_t bytes = 0;
};

Result<Layout> ParseHeader(std::string_view header, const std::string& name) {
  GE_ASSIGN_OR_RETURN(auto fields, HeaderParser(header, name).Parse());
  std::string descr = fields["descr"];
  if (descr.size() == 3 && descr[0] == '=') descr[0] = '<';
  auto it = Descrs().find(descr);
  if (it == Descrs().end()) {
    return ParamInvalid(name + ": dtype '" + descr +
                        "' is not supported (little-endian bool, integers and floats are)");
  }
  const std::string& fortran = fields["fortran_order"];
  if (fortran == "True") {
    return ParamInvalid(name +
                        ": Fortran-ordered arrays are not supported; save with "
                        "np.ascontiguousarray");
  }
  if (fortran != "False") {
    return ParamInvalid(name + ": 'fortran_order' must be True or False, not '" + fortran + "'");
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ParseShape(fields["shape"], name));
  Layout layout;
  layout.desc = GeTensorDesc(GeShape(dims), FORMAT_ND, it->second);
  layout.bytes = TensorUtils::CalcTensorMemSize(layout.desc);
  if (layout.bytes < 0) {
    return ParamInvalid(name + ": the .npy shape " + GeShape(dims).ToString() +
                        " needs more bytes than int64 counts");
  }
  return layout;
}

Status CheckDataBytes(uint64_t held, const Layout& layout, const std::string& name) {
  if (held != static_cast<uint64_t>(layout.bytes)) {
    return ParamInvalid(name + ": the .npy data holds " + std::to_string(held) +
                        " bytes, its shape " + layout.desc.GetShape().ToString() + " needs " +
                        std::to_string(layout.bytes));
  }
  return Status::Ok();
}

std::string FileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// `size` bytes at `offset` of `fd` into `out`, or an error when the file ends first.
Status ReadAt(int fd, uint8_t* out, size_t size, uint64_t offset, const std::string& name) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Failed("reading " + name + " failed: " + std::strerror(errno));
    if (n == 0) return ParamInvalid(name + " became shorter while it was read");
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { ::close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

}  // namespace

Result<GeTensor> ParseNpy(const std::string& bytes, const std::string& name) {
  return CatchExceptions("ParseNpy", [&]() -> Result<GeTensor> {
    GE_ASSIGN_OR_RETURN(Preamble p, ParsePreamble(bytes, name));
    if (p.header_start + p.header_len > bytes.size()) {
      return ParamInvalid(name + ": truncated .npy header");
    }
    GE_ASSIGN_OR_RETURN(
        Layout layout,
        ParseHeader(std::string_view(bytes).substr(p.header_start, p.header_len), name));
    const size_t data_start = p.header_start + p.header_len;
    GE_RETURN_IF_ERROR(CheckDataBytes(bytes.size() - data_start, layout, name));
    return GeTensor(layout.desc, reinterpret_cast<const uint8_t*>(bytes.data()) + data_start,
                    static_cast<size_t>(layout.bytes));
  });
}

Result<GeTensor> ReadNpy(const std::string& path, int64_t max_bytes) {
  return CatchExceptions("ReadNpy", [&]() -> Result<GeTensor> {
    const std::string name = "'" + path + "'";
    // A FIFO, a device or a directory is refused before it is opened: opening a FIFO waits for
    // a writer, and a device such as /dev/zero never ends.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      return ParamInvalid("cannot open " + name + ": " + std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) {
      return ParamInvalid(name + " is " + FileKind(st.st_mode) +
                          ", not a regular file: an .npy input is read from a file");
    }
    // Opened without waiting, and checked again: the path may have changed in between.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return ParamInvalid("cannot open " + name + ": " + std::strerror(errno));
    const FdCloser closer(fd);
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      return ParamInvalid(name + " is " + FileKind(st.st_mode) +
                          ", not a regular file: an .npy input is read from a file");
    }
    const auto file_size = static_cast<uint64_t>(st.st_size);
    // The preamble, then the header, then (its size checked against the file's) the data.
    std::string head(static_cast<size_t>(std::min<uint64_t>(file_size, kLongestPreamble)), '\0');
    GE_RETURN_IF_ERROR(
        ReadAt(fd, reinterpret_cast<uint8_t*>(head.data()), head.size(), /*offset=*/0, name));
    GE_ASSIGN_OR_RETURN(Preamble p, ParsePreamble(head, name));
    const uint64_t data_start = p.header_start + p.header_len;
    if (data_start > file_size) return ParamInvalid(name + ": truncated .npy header");
    std::string header(p.header_len, '\0');
    GE_RETURN_IF_ERROR(
        ReadAt(fd, reinterpret_cast<uint8_t*>(header.data()), header.size(), p.header_start, name));
    GE_ASSIGN_OR_RETURN(Layout layout, ParseHeader(header, name));
    GE_RETURN_IF_ERROR(CheckDataBytes(file_size - data_start, layout, name));
    if (max_bytes > 0 && layout.bytes > max_bytes) {
      return ParamInvalid(name + ": the .npy data is " + std::to_string(layout.bytes) +
                          " bytes, over the memory limit of " + std::to_string(max_bytes));
    }
    std::vector<uint8_t> data(static_cast<size_t>(layout.bytes));
    GE_RETURN_IF_ERROR(ReadAt(fd, data.data(), data.size(), data_start, name));
    return GeTensor(layout.desc, std::move(data));
  });
}
Result<std::string> SerializeNpy(const GeTensor& tensor) {
  return CatchExceptions("SerializeNpy", [&]() -> Result<std::string> {
    const DataType dtype = tensor.GetTensorDesc().GetDataType();
    std::string descr;
    for (const auto& [d, t] : Descrs()) {
      if (t == dtype) descr = d;
    }
    if (descr.empty()) {
      return ParamInvalid("dtype " + TypeUtils::DataTypeToSerialString(dtype) +
                          " cannot be written as .npy");
    }
    std::string shape = "(";
    for (int64_t d : tensor.GetTensorDesc().GetShape().GetDims()) shape += std::to_string(d) + ", ";
    if (tensor.GetTensorDesc().GetShape().GetDimNum() > 1)
      shape.resize(shape.size() - 2);
    else if (tensor.GetTensorDesc().GetShape().GetDimNum() == 1)
      shape.resize(shape.size() - 1);
    shape += ")";
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::string out(kMagic, 6);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xFF);
    out += static_cast<char>((header.size() >> 8) & 0xFF);
    out += header;
    out.append(reinterpret_cast<const char*>(tensor.GetData().data()), tensor.GetSize());
    return out;
  });
}

Status WriteNpy(const std::string& path, const GeTensor& tensor) {
  return CatchExceptions("WriteNpy", [&]() -> Status {
    GE_ASSIGN_OR_RETURN(std::string bytes, SerializeNpy(tensor));
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Failed("cannot open '" + path + "' for writing");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return out ? Status::Ok() : Failed("writing '" + path + "' failed");
  });
}

}  // namespace ge
