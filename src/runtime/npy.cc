// .npy reading and writing: the magic, a version, a little-endian header length, and a Python
// dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded to 64 bytes.
#include "ge/runtime/npy.h"

#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "ge/graph/utils/tensor_utils.h"

namespace ge {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

const std::map<std::string, DataType>& Descrs() {
  static const std::map<std::string, DataType> kDescrs = {
      {"|b1", DT_BOOL},   {"|i1", DT_INT8},    {"|u1", DT_UINT8},  {"<i2", DT_INT16},
      {"<u2", DT_UINT16}, {"<i4", DT_INT32},   {"<u4", DT_UINT32}, {"<i8", DT_INT64},
      {"<u8", DT_UINT64}, {"<f2", DT_FLOAT16}, {"<f4", DT_FLOAT},  {"<f8", DT_DOUBLE}};
  return kDescrs;
}

// The value of `key` in the header dict, as raw text up to the next top-level comma.
Result<std::string> Field(const std::string& header, const std::string& key,
                          const std::string& name) {
  const size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return ParamInvalid(name + ": the .npy header has no '" + key + "'");
  size_t pos = header.find(':', at);
  if (pos == std::string::npos) return ParamInvalid(name + ": malformed .npy header");
  ++pos;
  while (pos < header.size() && header[pos] == ' ') ++pos;
  size_t end = pos;
  if (pos < header.size() && header[pos] == '(') {
    end = header.find(')', pos);
    if (end == std::string::npos)
      return ParamInvalid(name + ": malformed shape in the .npy header");
    return header.substr(pos, end - pos + 1);
  }
  end = header.find_first_of(",}", pos);
  if (end == std::string::npos) return ParamInvalid(name + ": malformed .npy header");
  return header.substr(pos, end - pos);
}

// The comma-separated dims of a shape tuple, without its parentheses: "2, 3" or "5," or "".
Result<std::vector<int64_t>> ParseDims(const std::string& text, const std::string& name) {
  constexpr size_t kMaxRank = 64;
  std::vector<int64_t> dims;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;  // the trailing comma of a 1-tuple
    const size_t e = item.find_last_not_of(' ') + 1;
    int64_t v = -1;
    const auto [end, ec] = std::from_chars(item.data() + b, item.data() + e, v);
    if (ec != std::errc() || end != item.data() + e || v < 0) {
      return ParamInvalid(name + ": bad dimension '" + item + "' in the .npy shape (" + text + ")");
    }
    if (dims.size() == kMaxRank) {
      return ParamInvalid(name + ": the .npy shape has more than " + std::to_string(kMaxRank) +
                          " dimensions");
    }
    dims.push_back(v);
  }
  return dims;
}

}  // namespace

Result<GeTensor> ParseNpy(const std::string& bytes, const std::string& name) {
  return CatchExceptions("ParseNpy", [&]() -> Result<GeTensor> {
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) {
      return ParamInvalid(name + " is not an .npy file (no \\x93NUMPY magic)");
    }
    const auto major = static_cast<uint8_t>(bytes[6]);
    size_t header_len = 0;
    size_t header_start = 0;
    if (major == 1) {
      header_len = static_cast<uint8_t>(bytes[8]) |
                   (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
      header_start = 10;
    } else if (major == 2 || major == 3) {
      if (bytes.size() < 12) return ParamInvalid(name + ": truncated .npy header");
      for (int i = 3; i >= 0; --i)
        header_len = (header_len << 8) | static_cast<uint8_t>(bytes[8 + static_cast<size_t>(i)]);
      header_start = 12;
    } else {
      return ParamInvalid(name + ": .npy format version " + std::to_string(major) +
                          " is not supported");
    }
    if (header_start + header_len > bytes.size())
      return ParamInvalid(name + ": truncated .npy header");
    const std::string header = bytes.substr(header_start, header_len);
    GE_ASSIGN_OR_RETURN(std::string descr, Field(header, "descr", name));
    GE_ASSIGN_OR_RETURN(std::string fortran, Field(header, "fortran_order", name));
    GE_ASSIGN_OR_RETURN(std::string shape_text, Field(header, "shape", name));
    if (header.empty() || header.front() != '{') {
      return ParamInvalid(name + ": the .npy header is not a dict literal");
    }
    if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"') ||
        descr.back() != descr.front()) {
      return ParamInvalid(name + ": malformed descr " + descr + " in the .npy header");
    }
    descr = descr.substr(1, descr.size() - 2);  // strip quotes
    if (descr.size() == 3 && descr[0] == '=') descr[0] = '<';
    auto it = Descrs().find(descr);
    if (it == Descrs().end()) {
      return ParamInvalid(name + ": dtype '" + descr +
                          "' is not supported (little-endian bool, "
                          "integers and floats are)");
    }
    if (fortran.find("True") != std::string::npos) {
      return ParamInvalid(name +
                          ": Fortran-ordered arrays are not supported; save with "
                          "np.ascontiguousarray");
    }
    if (shape_text.size() < 2 || shape_text.front() != '(' || shape_text.back() != ')') {
      return ParamInvalid(name + ": the .npy shape '" + shape_text +
                          "' is not a tuple like (2, 3)");
    }
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                        ParseDims(shape_text.substr(1, shape_text.size() - 2), name));
    GeTensorDesc desc(GeShape(dims), FORMAT_ND, it->second);
    const int64_t size = TensorUtils::CalcTensorMemSize(desc);
    const size_t data_start = header_start + header_len;
    if (size < 0) {
      return ParamInvalid(name + ": the .npy shape " + GeShape(dims).ToString() +
                          " needs more bytes than int64 counts");
    }
    if (bytes.size() - data_start != static_cast<size_t>(size)) {
      return ParamInvalid(name + ": the .npy data holds " +
                          std::to_string(bytes.size() - data_start) + " bytes, its shape " +
                          GeShape(dims).ToString() + " needs " + std::to_string(size));
    }
    return GeTensor(desc, reinterpret_cast<const uint8_t*>(bytes.data()) + data_start,
                    static_cast<size_t>(size));
  });
}

Result<GeTensor> ReadNpy(const std::string& path) {
  return CatchExceptions("ReadNpy", [&]() -> Result<GeTensor> {
    std::ifstream in(path, std::ios::binary);
    if (!in) return ParamInvalid("cannot open '" + path + "'");
    std::stringstream buffer;
    buffer << in.rdbuf();
    return ParseNpy(buffer.str(), "'" + path + "'");
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
