// gec onnx-test: ONNX's backend test cases (a model.onnx and test_data_set_*/ of input and
// expected output TensorProtos) compiled, run, and compared as ONNX's own runner compares.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>

#include "commands.h"
#include "ge/compiler/compile_options.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/narrow_types.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/loaded_model.h"
#include "tensor_proto.h"

namespace gec {
namespace {

namespace fs = std::filesystem;

bool IsCaseDir(const fs::path& dir) { return fs::exists(dir / "model.onnx"); }

// An IEEE binary16 value's bits as a double (exact).
double Float16Value(uint16_t h) {
  const int exp = (h >> 10) & 0x1F;
  const int mant = h & 0x3FF;
  const double sign = (h & 0x8000) != 0 ? -1.0 : 1.0;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 0x1F) return mant != 0 ? std::nan("") : sign * HUGE_VAL;
  return sign * std::ldexp(mant + 1024, exp - 25);
}

// ONNX's test data hold bfloat16 as uint16 arrays (numpy has no bfloat16): where the model says
// DT_BF16, such a tensor is read as DT_BF16.
void RetagBf16(ge::GeTensor& t, ge::DataType model_dtype) {
  if (model_dtype != ge::DT_BF16 || t.GetTensorDesc().GetDataType() != ge::DT_UINT16) return;
  ge::GeTensorDesc desc = t.GetTensorDesc();
  desc.SetDataType(ge::DT_BF16);
  t.SetTensorDesc(desc);
}

// Element-wise comparison as ONNX's backend runner does (rtol 1e-3, atol 1e-7; exact for ints).
// Its runner compares float16 as floats and bfloat16 as the uint16 arrays the data hold.
std::string Compare(const ge::GeTensor& got, const ge::GeTensor& want_given) {
  ge::GeTensor want = want_given;
  RetagBf16(want, got.GetTensorDesc().GetDataType());
  const ge::GeTensorDesc& g = got.GetTensorDesc();
  const ge::GeTensorDesc& w = want.GetTensorDesc();
  if (g.GetShape().GetDims() != w.GetShape().GetDims()) {
    return "shape " + g.GetShape().ToString() + ", expected " + w.GetShape().ToString();
  }
  if (g.GetDataType() != w.GetDataType()) {
    return "dtype " + ge::TypeUtils::DataTypeToSerialString(g.GetDataType()) + ", expected " +
           ge::TypeUtils::DataTypeToSerialString(w.GetDataType());
  }
  if (g.GetDataType() == ge::DT_VARIANT) {  // a sequence or optional: item by item
    ge::Result<ge::CompositeValue> a = ge::LoadComposite(got, "the output");
    ge::Result<ge::CompositeValue> b = ge::LoadComposite(want, "the expected output");
    if (!a.ok()) return a.status().message();
    if (!b.ok()) return b.status().message();
    if (a->kind != b->kind) return "a sequence where an optional is expected, or the reverse";
    if (a->items.size() != b->items.size()) {
      return std::to_string(a->items.size()) + " items, expected " +
             std::to_string(b->items.size());
    }
    for (size_t i = 0; i < a->items.size(); ++i) {
      const std::string diff = Compare(a->items[i], b->items[i]);
      if (!diff.empty()) return "item " + std::to_string(i) + ": " + diff;
    }
    return "";
  }
  if (g.GetDataType() == ge::DT_STRING) {
    ge::Result<std::vector<std::string_view>> a = ge::StringsOf(got, "the output");
    ge::Result<std::vector<std::string_view>> b = ge::StringsOf(want, "the expected output");
    if (!a.ok()) return a.status().message();
    if (!b.ok()) return b.status().message();
    for (size_t i = 0; i < a->size(); ++i) {
      if ((*a)[i] != (*b)[i]) {
        return "element " + std::to_string(i) + " is \"" + std::string((*a)[i]) +
               "\", expected \"" + std::string((*b)[i]) + "\"";
      }
    }
    return "";
  }
  if (got.GetSize() != want.GetSize()) return "byte size differs";
  if (got.GetSize() == 0) return "";  // empty tensors (their data pointers may be null)
  auto close = [](double da, double db) {
    if (std::isnan(db) && std::isnan(da)) return true;
    // An infinity matches only the same infinity (the tolerance below would take any value).
    if ((std::isinf(db) || std::isinf(da)) && da == db) return true;
    return !std::isinf(db) && std::fabs(da - db) <= 1e-7 + 1e-3 * std::fabs(db);
  };
  auto check = [&](auto tag, auto value) -> std::string {
    using T = decltype(tag);
    const size_t n = got.GetSize() / sizeof(T);
    for (size_t i = 0; i < n; ++i) {
      T a, b;
      std::memcpy(&a, got.GetData().data() + i * sizeof(T), sizeof(T));
      std::memcpy(&b, want.GetData().data() + i * sizeof(T), sizeof(T));
      const double da = value(a), db = value(b);
      if (!close(da, db)) {
        return "element " + std::to_string(i) + " is " + std::to_string(da) + ", expected " +
               std::to_string(db);
      }
    }
    return "";
  };
  // The narrow types compare element by element: the padding bits of a last packed byte do not
  // count, and the float codes compare by value (NaN matches NaN, as the floats above).
  const ge::DataType dtype = g.GetDataType();
  if (ge::IsNarrowType(dtype)) {
    const int bits = ge::NarrowBits(dtype);
    const int64_t n = g.GetShape().GetElementCount();
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t a = ge::ReadPackedCode(got.GetData().data(), i, bits);
      const uint32_t b = ge::ReadPackedCode(want.GetData().data(), i, bits);
      const double da = ge::NarrowFloatValue(dtype, a), db = ge::NarrowFloatValue(dtype, b);
      if (a != b && !close(da, db)) {
        return "element " + std::to_string(i) + " is " + std::to_string(da) + ", expected " +
               std::to_string(db);
      }
    }
    return "";
  }
  switch (g.GetDataType()) {
    case ge::DT_FLOAT:
      return check(float{}, [](float v) { return static_cast<double>(v); });
    case ge::DT_DOUBLE:
      return check(double{}, [](double v) { return v; });
    case ge::DT_FLOAT16:
      return check(uint16_t{}, Float16Value);
    case ge::DT_BF16:
      return check(uint16_t{}, [](uint16_t v) { return static_cast<double>(v); });
    default:
      return std::memcmp(got.GetData().data(), want.GetData().data(), got.GetSize()) == 0
                 ? ""
                 : "values differ";
  }
}

// The message on one line (its own lines joined), at most 400 characters.
std::string FirstLine(const std::string& text) {
  std::string line = text;
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  if (line.size() > 400) line = line.substr(0, 400) + "...";
  return line;
}

// One case: "" when it passes, else why not.
std::string RunCase(const fs::path& dir) {
  std::vector<fs::path> sets;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(entry.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) return "no test_data_set_* directory";
  auto graph = ge::ParseOnnxFile((dir / "model.onnx").string());
  if (!graph.ok()) return "parse: " + FirstLine(graph.status().message());
  // Input shapes from the first data set (the suite's models may leave dims symbolic).
  std::vector<ge::NodePtr> data_nodes = (*graph)->GetInputNodes();
  std::vector<std::pair<int64_t, std::string>> indexed;
  for (const ge::NodePtr& node : data_nodes) {
    int64_t index = 0;
    ge::AttrUtils::GetInt(*node->GetOpDesc(), "index", index);
    indexed.emplace_back(index, node->GetName());
  }
  std::sort(indexed.begin(), indexed.end());
  // What each input holds: a sequence or optional is read from its own proto.
  std::vector<std::string> input_types;
  for (const auto& [index, name] : indexed) {
    std::string type;
    (void)ge::AttrUtils::GetStr((*graph)->FindNode(name)->GetOpDesc()->GetOutputDesc(0),
                                ge::kAttrValueType, type);
    input_types.push_back(type);
  }
  // <prefix>_0.pb, <prefix>_1.pb, ... until one is missing; "" or why one does not read.
  auto read_all = [](const fs::path& set, const std::string& prefix,
                     const std::vector<std::string>& types, std::vector<ge::GeTensor>& tensors) {
    for (size_t i = 0;; ++i) {
      const fs::path p = set / (prefix + "_" + std::to_string(i) + ".pb");
      if (!fs::exists(p)) return std::string();
      auto t = ReadValueProto(p.string(), i < types.size() ? types[i] : "");
      if (!t.ok()) return FirstLine(t.status().message());
      tensors.push_back(std::move(t).value());
    }
  };
  std::vector<std::vector<ge::GeTensor>> set_inputs, set_outputs;
  for (const fs::path& set : sets) {
    std::vector<ge::GeTensor> ins;
    const std::string error = read_all(set, "input", input_types, ins);
    if (!error.empty()) return error;
    set_inputs.push_back(std::move(ins));
  }
  if (indexed.size() != set_inputs[0].size()) {
    return "the model has " + std::to_string(indexed.size()) + " inputs, the data set " +
           std::to_string(set_inputs[0].size());
  }
  for (size_t i = 0; i < indexed.size(); ++i) {
    const ge::DataType dtype =
        (*graph)->FindNode(indexed[i].second)->GetOpDesc()->GetOutputDesc(0).GetDataType();
    for (auto& ins : set_inputs) {
      if (i < ins.size()) RetagBf16(ins[i], dtype);
    }
  }
  std::string shapes;
  for (size_t i = 0; i < indexed.size(); ++i) {
    if (!input_types[i].empty()) continue;  // a sequence or optional has no shape to give
    std::string dims;
    for (int64_t d : set_inputs[0][i].GetTensorDesc().GetShape().GetDims()) {
      dims += (dims.empty() ? "" : ",") + std::to_string(d);
    }
    shapes += (shapes.empty() ? "" : ";") + indexed[i].second + ":" + dims;
  }
  std::map<std::string, std::string> options;
  if (!shapes.empty()) options[ge::kOptInputShape] = shapes;
  auto compiler = ge::Compiler::Create(options);
  if (!compiler.ok()) return "compile: " + FirstLine(compiler.status().message());
  auto compiled = (*compiler)->Compile(*graph);
  if (!compiled.ok()) return "compile: " + FirstLine(compiled.status().message());
  ge::RuntimeOptions one_thread;  // the suite's tensors are tiny: threads would only add overhead
  one_thread.threads = 1;
  auto model = ge::LoadedModel::Load(std::move(compiled).value(), one_thread);
  if (!model.ok()) return "load: " + FirstLine(model.status().message());
  std::vector<std::string> output_types;
  for (const ge::IoInfo& info : (*model)->outputs()) output_types.push_back(info.value_type);
  for (const fs::path& set : sets) {
    std::vector<ge::GeTensor> outs;
    const std::string error = read_all(set, "output", output_types, outs);
    if (!error.empty()) return error;
    set_outputs.push_back(std::move(outs));
  }
  for (size_t s = 0; s < set_inputs.size(); ++s) {
    auto outputs = (*model)->Run(set_inputs[s]);
    if (!outputs.ok()) return "run: " + FirstLine(outputs.status().message());
    if (outputs->size() != set_outputs[s].size()) {
      return std::to_string(outputs->size()) + " outputs, expected " +
             std::to_string(set_outputs[s].size());
    }
    for (size_t i = 0; i < outputs->size(); ++i) {
      const std::string diff = Compare((*outputs)[i], set_outputs[s][i]);
      if (!diff.empty()) return "output " + std::to_string(i) + ": " + diff;
    }
  }
  return "";
}

ge::Status OnnxTestCommand(const std::vector<std::string>& dirs, int min_passed) {
  std::vector<fs::path> cases;
  for (const std::string& d : dirs) {
    const fs::path dir(d);
    if (!fs::is_directory(dir)) return ge::ParamInvalid("'" + d + "' is not a directory");
    if (IsCaseDir(dir)) {
      cases.push_back(dir);
      continue;
    }
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_directory() && IsCaseDir(entry.path())) cases.push_back(entry.path());
    }
  }
  std::sort(cases.begin(), cases.end());
  if (cases.empty()) return ge::ParamInvalid("no test case (a directory with model.onnx) found");
  int passed = 0, failed = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    Progress("case " + std::to_string(i + 1) + "/" + std::to_string(cases.size()) + " (" +
             std::to_string(passed) + " passed, " + std::to_string(failed) +
             " failed): " + cases[i].filename().string());
    const std::string why = RunCase(cases[i]);
    ProgressDone();
    if (why.empty()) {
      ++passed;
      std::cout << "PASS " << cases[i].filename().string() << "\n";
    } else {
      ++failed;
      std::cout << "FAIL " << cases[i].filename().string() << ": " << why << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  if (min_passed >= 0) {
    if (passed < min_passed) {
      return ge::Failed(std::to_string(passed) + " cases passed, fewer than the recorded " +
                        std::to_string(min_passed) + " (--min-passed)");
    }
    return ge::Status::Ok();
  }
  return failed == 0 ? ge::Status::Ok()
                     : ge::Failed(std::to_string(failed) + " of " + std::to_string(cases.size()) +
                                  " case(s) failed");
}

}  // namespace

void Commands::RegisterOnnxTest(CLI::App& app) {
  CLI::App* onnx_test = app.add_subcommand("onnx-test", "run ONNX backend test cases");
  onnx_test->add_option("dirs", case_dirs_, "case directories, or directories of cases")
      ->required();
  onnx_test->add_option("--min-passed", min_passed_,
                        "succeed when at least this many cases pass (for CI floors)");
  onnx_test->callback(
      [this] { chosen_ = [this] { return OnnxTestCommand(case_dirs_, min_passed_); }; });
}

}  // namespace gec
