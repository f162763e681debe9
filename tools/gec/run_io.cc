// gec run's inputs and outputs.
#include "run_io.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>

#include "ge/graph/types.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/runtime/npy.h"

namespace gec {
namespace {

// Deterministic inputs: floats uniform in [-1, 1], integers in [0, 10), booleans half true.
ge::GeTensor RandomInput(const ge::IoInfo& info, uint32_t seed) {
  ge::GeTensorDesc desc(ge::GeShape(info.dims), ge::FORMAT_ND, info.dtype);
  const int64_t bytes = ge::TensorUtils::CalcTensorMemSize(desc);
  std::vector<uint8_t> data(static_cast<size_t>(std::max<int64_t>(bytes, 0)));
  std::mt19937 rng(seed);
  const int64_t count = desc.GetShape().GetShapeSize();
  auto fill = [&](auto tag, auto make) {
    using T = decltype(tag);
    for (int64_t i = 0; i < count && static_cast<size_t>(i + 1) * sizeof(T) <= data.size(); ++i) {
      const T v = make();
      std::memcpy(data.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
    }
  };
  std::uniform_real_distribution<float> real(-1.0F, 1.0F);
  std::uniform_int_distribution<int> small(0, 9);
  switch (info.dtype) {
    case ge::DT_FLOAT:
      fill(float{}, [&] { return real(rng); });
      break;
    case ge::DT_DOUBLE:
      fill(double{}, [&] { return static_cast<double>(real(rng)); });
      break;
    case ge::DT_INT64:
      fill(int64_t{}, [&] { return static_cast<int64_t>(small(rng)); });
      break;
    case ge::DT_INT32:
      fill(int32_t{}, [&] { return static_cast<int32_t>(small(rng)); });
      break;
    case ge::DT_BOOL:
      fill(uint8_t{}, [&] { return static_cast<uint8_t>(small(rng) % 2); });
      break;
    default:
      fill(uint8_t{}, [&] { return static_cast<uint8_t>(small(rng)); });
      break;
  }
  return {desc, std::move(data)};
}

bool IsKnown(const std::vector<int64_t>& dims) {
  return std::none_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

// Dims given for an input fit the model's when each known dim is equal (-1 takes any size).
bool Fits(const std::vector<int64_t>& given, const std::vector<int64_t>& want) {
  if (want.size() == 1 && want[0] == ge::UNKNOWN_DIM_NUM) return true;
  if (given.size() != want.size()) return false;
  for (size_t i = 0; i < given.size(); ++i) {
    if (want[i] >= 0 && want[i] != given[i]) return false;
  }
  return true;
}

std::string FileName(std::string name) {
  for (char& c : name) {
    if (c == '/' || c == ':' || c == ' ' || c == '\\') c = '_';
  }
  return name;
}

}  // namespace

std::string Summary(const ge::GeTensor& t) {
  const ge::GeTensorDesc& d = t.GetTensorDesc();
  std::string text =
      ge::TypeUtils::DataTypeToSerialString(d.GetDataType()) + " " + d.GetShape().ToString();
  if (d.GetDataType() == ge::DT_FLOAT && t.GetSize() >= 4) {
    const size_t n = t.GetSize() / 4;
    std::vector<float> v(n);
    std::memcpy(v.data(), t.GetData().data(), n * 4);
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    double sum = 0;
    for (float f : v) sum += f;
    char buf[160];
    std::snprintf(buf, sizeof(buf), "  min %.6g  max %.6g  mean %.6g  argmax %zu", *lo, *hi,
                  sum / static_cast<double>(n), static_cast<size_t>(hi - v.begin()));
    text += buf;
  }
  return text;
}

ge::Result<std::vector<std::vector<ge::GeTensor>>> InputSets(const std::vector<ge::IoInfo>& inputs,
                                                             const std::vector<std::string>& items,
                                                             int64_t max_bytes) {
  std::map<std::string, std::vector<std::string>> files;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return ge::ParamInvalid("--input '" + item + "': expected NAME=FILE.npy");
    }
    files[item.substr(0, eq)].push_back(item.substr(eq + 1));
  }
  size_t sets = 1;
  for (const auto& [name, paths] : files) sets = std::max(sets, paths.size());
  std::string names;
  for (const ge::IoInfo& info : inputs) names += (names.empty() ? "" : ", ") + info.name;
  for (const auto& [given, paths] : files) {
    const std::string& name = given;  // clang 14 cannot capture a structured binding
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&name](const ge::IoInfo& i) { return i.name == name; })) {
      return ge::ParamInvalid("--input " + name +
                              ": the model has no such input (inputs: " + names + ")");
    }
    if (paths.size() != 1 && paths.size() != sets) {
      return ge::ParamInvalid("--input " + name + " is given " + std::to_string(paths.size()) +
                              " times and another input " + std::to_string(sets) +
                              ": give each input once (for every run) or once per input set");
    }
  }
  std::vector<std::vector<ge::GeTensor>> out(sets);
  int64_t used = 0;
  // What is left of max_bytes for `name`'s tensor (0: no limit), or an error once it is spent.
  auto left_for = [&](const std::string& name) -> ge::Result<int64_t> {
    if (max_bytes <= 0) return int64_t{0};
    if (used >= max_bytes) {
      return ge::ParamInvalid("input '" + name + "': the inputs before it take " +
                              std::to_string(used) + " bytes of the memory limit of " +
                              std::to_string(max_bytes) + " (--max-memory-mb)");
    }
    return max_bytes - used;
  };
  for (size_t k = 0; k < sets; ++k) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const ge::IoInfo& info = inputs[i];
      auto it = files.find(info.name);
      if (it == files.end()) {
        if (info.default_value != nullptr) {  // an initializer the caller may override
          out[k].push_back(*info.default_value);
          continue;
        }
        if (!IsKnown(info.dims)) {
          return ge::ParamInvalid(
              "input '" + info.name + "' has the shape " + ge::GeShape(info.dims).ToString() +
              " (-1: known only at run time), so no random input can be made; give it with "
              "--input " +
              info.name + "=FILE.npy, or fix its shape with --input-shape");
        }
        const int64_t bytes = ge::TensorUtils::CalcTensorMemSize(
            ge::GeTensorDesc(ge::GeShape(info.dims), ge::FORMAT_ND, info.dtype));
        GE_ASSIGN_OR_RETURN(const int64_t left, left_for(info.name));
        if (bytes < 0 || (left > 0 && bytes > left)) {
          return ge::ParamInvalid(
              "input '" + info.name + "' of " + ge::GeShape(info.dims).ToString() +
              (bytes < 0 ? std::string(" needs more bytes than int64 counts")
                         : " needs " + std::to_string(bytes) + " bytes, over the " +
                               std::to_string(left) + " left of the memory limit of " +
                               std::to_string(max_bytes) + " (--max-memory-mb)"));
        }
        out[k].push_back(RandomInput(info, static_cast<uint32_t>(i)));
        used += bytes;
        continue;
      }
      const std::string& path = it->second.size() == 1 ? it->second[0] : it->second[k];
      GE_ASSIGN_OR_RETURN(const int64_t left, left_for(info.name));
      ge::Result<ge::GeTensor> read = ge::ReadNpy(path, left);
      if (!read.ok()) return ge::Status(read.status()).Prefix("--input " + info.name);
      ge::GeTensor t = std::move(read).value();
      used += static_cast<int64_t>(t.GetSize());
      const ge::GeTensorDesc& d = t.GetTensorDesc();
      if (d.GetDataType() != info.dtype || !Fits(d.GetShape().GetDims(), info.dims)) {
        return ge::ParamInvalid("--input " + info.name + "=" + path + " is " +
                                ge::TypeUtils::DataTypeToSerialString(d.GetDataType()) + " " +
                                d.GetShape().ToString() + "; the model wants " +
                                ge::TypeUtils::DataTypeToSerialString(info.dtype) + " " +
                                ge::GeShape(info.dims).ToString());
      }
      out[k].push_back(std::move(t));
    }
  }
  return out;
}

ge::Status WriteOutputs(const std::string& dir, const std::string& suffix,
                        const std::vector<std::string>& names,
                        const std::vector<ge::GeTensor>& outputs) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (size_t i = 0; i < outputs.size() && i < names.size(); ++i) {
    GE_RETURN_IF_ERROR(ge::WriteNpy(dir + "/" + FileName(names[i]) + suffix + ".npy", outputs[i]));
  }
  return ge::Status::Ok();
}

}  // namespace gec
