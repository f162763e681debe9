// gec end to end: each command's output and exit status, and every error as one clear line.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "onnx_model_builder.h"

namespace {

const std::string kGec = GEC_PATH;
const std::string kModels = GE_TEST_MODELS_DIR;

struct Output {
  int status = -1;
  std::string out;
  std::string err;
};

// A path in the temporary directory owned by the running test (ctest runs tests in parallel).
std::string Temp(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "/gec_" + info->name();
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

// Runs gec with `args` (shell words), capturing stdout and stderr.
Output Gec(const std::string& args) {
  const std::string err_path = Temp("stderr.txt");
  const std::string command = "'" + kGec + "' " + args + " 2>'" + err_path + "'";
  Output result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.out.append(buffer.data(), n);
  const int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  result.err = text.str();
  return result;
}

std::string Resnet() { return kModels + "/resnet18_opset17/model.onnx"; }
std::string Bert() { return kModels + "/bert_encoder_opset17/model.onnx"; }

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// One line on stderr, "gec: error: ...", and exit status 1.
void ExpectError(const Output& o, const std::string& part) {
  EXPECT_EQ(o.status, 1) << o.err;
  EXPECT_TRUE(Has(o.err, "gec: error: ")) << o.err;
  EXPECT_TRUE(Has(o.err, part)) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

TEST(Gec, CompileWritesAModelAndAReport) {
  const std::string om = Temp("resnet18.om");
  const std::string report = Temp("resnet18_report.json");
  Output o = Gec("compile '" + Resnet() + "' -o '" + om + "' --report '" + report + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "memory: arena")) << o.out;
  EXPECT_TRUE(Has(o.out, "wrote " + om));
  EXPECT_GT(std::filesystem::file_size(om), 40'000'000u);  // resnet18's weights are in it
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(Has(text.str(), "\"stages\""));
  EXPECT_TRUE(Has(text.str(), "\"ConstantFolding\""));
  // A compiled model plans and dumps without compiling again.
  Output plan = Gec("plan '" + om + "'");
  ASSERT_EQ(plan.status, 0) << plan.err;
  EXPECT_TRUE(Has(plan.out, "arena")) << plan.out;
}

// The run report says where the time before the first run went and what the peak is made of.
TEST(Gec, RunReportsTimesAndTheMemoryParts) {
  const std::string report = Temp("parts.json");
  Output o = Gec("run '" + std::string(OPENGE_SOURCE_DIR) +
                 "/models/small_cnn.onnx' --iterations 1 --report '" + report + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "= weights ")) << o.out;
  EXPECT_TRUE(Has(o.out, "time before the first run: parse ")) << o.out;
  std::ifstream in(report);
  const nlohmann::json r = nlohmann::json::parse(in);
  const auto& time = r.at("time_ms");
  EXPECT_GT(time.at("parse").get<double>(), 0.0);
  EXPECT_GT(time.at("compile").get<double>(), 0.0);
  EXPECT_GE(time.at("load").get<double>(), 0.0);
  EXPECT_EQ(time.at("read_om").get<double>(), 0.0);
  EXPECT_TRUE(time.at("stages").contains("optimize")) << time.dump();
  EXPECT_NEAR(time.at("ready").get<double>(),
              time.at("parse").get<double>() + time.at("compile").get<double>() +
                  time.at("load").get<double>(),
              1e-6);
  const auto& memory = r.at("memory");
  EXPECT_GT(memory.at("weight_bytes").get<int64_t>(), 0);
  EXPECT_GT(memory.at("arena_bytes").get<int64_t>(), 0);
  EXPECT_GE(memory.at("workspace_bytes").get<int64_t>(), 0);
  EXPECT_GE(memory.at("loaded_weight_bytes").get<int64_t>(), 0);
  EXPECT_EQ(
      memory.at("weight_bytes").get<int64_t>() + memory.at("loaded_weight_bytes").get<int64_t>() +
          memory.at("arena_bytes").get<int64_t>() + memory.at("workspace_bytes").get<int64_t>() +
          memory.at("other_bytes").get<int64_t>(),
      memory.at("peak_resident_kib").get<int64_t>() * 1024);
  // The compile report has the parse time too.
  const std::string compile_report = Temp("parts_compile.json");
  ASSERT_EQ(Gec("compile '" + std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx' -o '" +
                Temp("parts.om") + "' --report '" + compile_report + "'")
                .status,
            0);
  std::ifstream cin(compile_report);
  EXPECT_GT(nlohmann::json::parse(cin).at("parse_millis").get<double>(), 0.0);
}

// A model compiled by gec run is planned for the threads it runs with, unless an option says.
TEST(Gec, RunPlansForItsThreads) {
  const std::string model = std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx";
  const std::string report = Temp("threads.json");
  struct Case {
    std::string flags;
    int run, planned;
  };
  const Case cases[] = {{"--threads 1", 1, 1},
                        {"--threads 2", 2, 2},
                        {"--threads 1 --option openge.scheduleThreads=2", 1, 2}};
  for (const auto& [flags, run, planned] : cases) {
    SCOPED_TRACE(flags);
    Output o = Gec("run '" + model + "' --iterations 1 " + flags + " --report '" + report + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    std::ifstream in(report);
    const nlohmann::json threads = nlohmann::json::parse(in).at("threads");
    EXPECT_EQ(threads.at("planned").get<int>(), planned) << threads.dump();
    EXPECT_EQ(threads.at("run"), nlohmann::json::array({run})) << threads.dump();
  }
}

TEST(Gec, CompileTakesInputShapesOptionsAndPasses) {
  const std::string om = Temp("bert.om");
  Output o = Gec("compile '" + Bert() + "' -o '" + om +
                 "' --input-shape 'input_ids:2,16' --option ge.exec.disableReuseMemory=1 "
                 "--disable-pass CommonSubexpressionElimination");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "CommonSubexpressionElimination  (disabled)")) << o.out;
  EXPECT_TRUE(Has(o.out, "strategy no_reuse")) << o.out;
}

TEST(Gec, DumpWritesEachStageInEachFormat) {
  Output parsed = Gec("dump '" + Resnet() + "' --stage parsed --format json -o -");
  ASSERT_EQ(parsed.status, 0) << parsed.err;
  EXPECT_TRUE(Has(parsed.out, "Conv2D"));
  Output built =
      Gec("dump '" + Bert() + "' --stage built --format txt -o - --input-shape input_ids:2,16");
  ASSERT_EQ(built.status, 0) << built.err;
  EXPECT_FALSE(Has(built.out, "type: Shape")) << "folding left a Shape node";
  Output optimized = Gec("dump '" + Bert() + "' --stage optimized --format pbtxt -o '" +
                         Temp("bert.pbtxt") + "' --input-shape input_ids:2,16");
  ASSERT_EQ(optimized.status, 0) << optimized.err;
  EXPECT_TRUE(std::filesystem::exists(Temp("bert.pbtxt")));
  // The dumped graph compiles again (a GE graph dump is a model gec reads).
  Output again = Gec("compile '" + Temp("bert.pbtxt") + "' -o '" + Temp("bert2.om") + "'");
  EXPECT_EQ(again.status, 0) << again.err;
  Output svg =
      Gec("dump '" + Resnet() + "' --stage parsed --format svg -o '" + Temp("r.svg") + "'");
  ASSERT_EQ(svg.status, 0) << svg.err;
  std::ifstream in(Temp("r.svg"));
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(Has(text.str(), "<svg"));
}

TEST(Gec, PlanPrintsTheMemoryPlanAndDrawsIt) {
  Output o = Gec("plan '" + Resnet() + "' --json --svg '" + Temp("plan.svg") + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "\"arena_bytes\"")) << o.out;
  EXPECT_TRUE(Has(o.out, "\"lower_bound\""));
  std::ifstream in(Temp("plan.svg"));
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(Has(text.str(), "<svg"));
}

// plan, dump and report read a model as a session does (ge::CompileSource): a .om's shapes were
// fixed when it was compiled, so a new input shape for it is refused rather than ignored.
TEST(Gec, CommandsRefuseNewInputShapesForACompiledModel) {
  const std::string om = Temp("resnet.om");
  Output compiled = Gec("compile '" + Resnet() + "' -o '" + om + "'");
  ASSERT_EQ(compiled.status, 0) << compiled.err;
  Output plan = Gec("plan '" + om + "'");
  ASSERT_EQ(plan.status, 0) << plan.err;
  EXPECT_TRUE(Has(plan.out, "arena")) << plan.out;
  for (const std::string& command : {"plan '" + om + "'", "dump '" + om + "' --stage built -o -"}) {
    ExpectError(Gec(command + " --input-shape input:2,3,224,224"),
                "its input shapes were fixed when it was compiled");
  }
}

TEST(Gec, OpsEnginesAndOptionsList) {
  Output ops = Gec("ops");
  ASSERT_EQ(ops.status, 0) << ops.err;
  EXPECT_TRUE(Has(ops.out, "Data\tDNN_VM_GE_LOCAL"));
  EXPECT_TRUE(Has(ops.out, "NetOutput\tDNN_VM_HOST_CPU"));
  Output local = Gec("ops --engine DNN_VM_GE_LOCAL");
  ASSERT_EQ(local.status, 0);
  EXPECT_FALSE(Has(local.out, "DNN_VM_HOST_CPU"));
  ExpectError(Gec("ops --engine NOPE"), "--engine 'NOPE' is not loaded");
  Output engines = Gec("engines");
  ASSERT_EQ(engines.status, 0);
  EXPECT_TRUE(Has(engines.out, "DNN_VM_GE_LOCAL"));
  EXPECT_TRUE(Has(engines.out, "DNN_VM_HOST_CPU"));
  Output options = Gec("options");
  EXPECT_TRUE(Has(options.out, "ge.exec.disableReuseMemory (default 0)"));
  // Each engine's own options follow, under the engine that declares them.
  const size_t cpu = options.out.find("engine DNN_VM_HOST_CPU:");
  ASSERT_NE(cpu, std::string::npos) << options.out;
  EXPECT_NE(options.out.find("openge.cpuLayout (default blocked)", cpu), std::string::npos);
  EXPECT_NE(options.out.find("openge.cpuConvAlgorithm (default auto)", cpu), std::string::npos);
}

TEST(Gec, ErrorsAreOneClearLine) {
  ExpectError(Gec("compile /nonexistent/model.onnx -o " + Temp("x.om")), "does not exist");
  const std::string corrupt = Temp("corrupt.onnx");
  {
    std::ofstream out(corrupt);
    out << "this is not a protobuf";
  }
  ExpectError(Gec("compile '" + corrupt + "' -o " + Temp("x.om")), "corrupt.onnx");
  ExpectError(Gec("compile '" + Bert() + "' -o " + Temp("x.om") + " --input-shape input_ids:2,x"),
              "dimension 'x'");
  ExpectError(Gec("compile '" + Resnet() + "' -o " + Temp("x.om") + " --option ge.bogus=1"),
              "unknown option 'ge.bogus'");
  ExpectError(Gec("compile '" + Resnet() + "' -o " + Temp("x.om") + " --disable-pass Fold"),
              "unknown pass 'Fold'");
  ExpectError(Gec("compile '" + Resnet() + "' -o " + Temp("x.txt")), "ends in .om");
  ExpectError(Gec("compile '" + Resnet() + "' -o " + Temp("x.om") + " --option novalue"),
              "expected KEY=VALUE");
  EXPECT_NE(Gec("frobnicate").status, 0);
}

// The compile explorer's page from each command that writes one (the page itself is tested in
// a browser: explorer_browser_test.py), and its errors.
TEST(Gec, ReportCompileAndRunWriteTheCompileExplorer) {
  const auto page_stages = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const std::string page = text.str();
    const std::string open = R"(<script id="data" type="application/json">)";
    const size_t begin = page.find(open) + open.size();
    const nlohmann::json data =
        nlohmann::json::parse(page.substr(begin, page.find("</script>", begin) - begin));
    std::vector<std::string> stages;
    for (const auto& stage : data.at("stages")) stages.push_back(stage.at("stage"));
    return std::make_pair(stages, data.at("profile").is_null());
  };
  const std::vector<std::string> all = {"parsed", "optimized", "placed", "built"};
  const std::string report = Temp("report.html");
  Output o = Gec("report '" + Resnet() + "' -o '" + report + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "wrote " + report)) << o.out;
  EXPECT_EQ(page_stages(report), std::make_pair(all, true));

  const std::string om = Temp("r.om");
  const std::string compiled = Temp("compiled.html");
  ASSERT_EQ(Gec("compile '" + Resnet() + "' -o '" + om + "' --html '" + compiled + "'").status, 0);
  EXPECT_EQ(page_stages(compiled), std::make_pair(all, true));
  // A .om holds the built graph only; a run adds its profile.
  const std::string ran = Temp("ran.html");
  ASSERT_EQ(Gec("run '" + om + "' --iterations 1 --html '" + ran + "'").status, 0);
  EXPECT_EQ(page_stages(ran), std::make_pair(std::vector<std::string>{"built"}, false));

  ExpectError(Gec("report '" + Resnet() + "' -o '" + Temp("x.htm") + "'"), "ending in .html");
  ExpectError(Gec("report '" + Resnet() + "' -o /nonexistent/dir/x.html"),
              "/nonexistent/dir/x.html");
  ExpectError(Gec("run '" + Bert() + "' --html '" + Temp("b.html") + "'"),
              "known only at run time; give them with --input-shape");
  ExpectError(Gec("compile '" + Resnet() + "' -o '" + Temp("p.om") +
                  "' --pipeline-stages 2 --html '" + Temp("p.html") + "'"),
              "--html shows one model");
}

// One logger: --log-level reaches the engine plugins (which hold their own copy of it) through
// ASCEND_GLOBAL_LOG_LEVEL, GE's variable, which works alone too; by default nothing is logged.
TEST(Gec, TheLogLevelReachesThePlugins) {
  const std::string model = "'" + std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx'";
  Output flag = Gec("--log-level info run " + model + " --iterations 1");
  ASSERT_EQ(flag.status, 0) << flag.err;
  EXPECT_TRUE(Has(flag.err, "[GE][INFO] [Load][Engine] DNN_VM_HOST_CPU")) << flag.err;
  EXPECT_TRUE(Has(flag.err, "[GE][INFO] [host_cpu] graph ")) << flag.err;  // from the plugin
  Output variable =
      Gec("run " + model + " --iterations 1 2>/dev/null; ASCEND_GLOBAL_LOG_LEVEL=1 '" + kGec +
          "' run " + model + " --iterations 1");
  ASSERT_EQ(variable.status, 0) << variable.err;
  EXPECT_TRUE(Has(variable.err, "[GE][INFO] [host_cpu] graph ")) << variable.err;
  Output quiet = Gec("run " + model + " --iterations 1");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_FALSE(Has(quiet.err, "[GE]")) << quiet.err;
}

TEST(Gec, RunsTheBundledModelWritingOutputsTraceAndReport) {
  const std::string out = Temp("run_out");
  const std::string om = Temp("small_cnn.om");
  ASSERT_EQ(
      Gec("compile '" + std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx' -o '" + om + "'")
          .status,
      0);
  Output o = Gec("run '" + om + "' --iterations 3 --output-dir '" + out + "' --profile '" +
                 Temp("trace.json") + "' --report '" + Temp("run.json") + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "output logits: DT_FLOAT [1,10]")) << o.out;
  EXPECT_TRUE(Has(o.out, "latency over 3 run(s)")) << o.out;
  EXPECT_TRUE(Has(o.out, "peak resident")) << o.out;
  EXPECT_TRUE(std::filesystem::exists(out + "/logits.npy"));
  std::ifstream trace(Temp("trace.json"));
  std::stringstream text;
  text << trace.rdbuf();
  const nlohmann::json events = nlohmann::json::parse(text.str()).at("traceEvents");
  int convs = 0;
  for (const nlohmann::json& e : events) {
    if (e.at("cat") == "Session") continue;  // the run's own event; the tasks follow
    EXPECT_EQ(e.at("cat"), "Node") << e.dump();
    EXPECT_GE(e.at("args").at("threads").get<int>(), 1) << e.dump();
    if (e.at("args").at("op_name") != "Conv2D") continue;
    ++convs;  // the cost model sizes convolutions: their prediction is beside the measured time
    EXPECT_GT(e.at("args").at("predicted_us").get<double>(), 0.0) << e.dump();
  }
  EXPECT_GT(convs, 0);
  // The same image given as a file gives the same logits (the random input is deterministic).
  Output again = Gec("run '" + om + "' --iterations 1 --output-dir '" + out + "2'");
  ASSERT_EQ(again.status, 0) << again.err;
  std::ifstream a(out + "/logits.npy", std::ios::binary), b(out + "2/logits.npy", std::ios::binary);
  std::stringstream sa, sb;
  sa << a.rdbuf();
  sb << b.rdbuf();
  EXPECT_EQ(sa.str(), sb.str());
  ExpectError(Gec("run '" + om + "' --input image=" + out + "/logits.npy"),
              "the model wants DT_FLOAT [1,3,64,64]");
  ExpectError(Gec("run '" + om + "' --input nope=x.npy"), "nope");
}

// A .npy file (format 1.0) of int64 values.
void WriteInt64Npy(const std::string& path, const std::vector<int64_t>& dims,
                   const std::vector<int64_t>& values) {
  std::string shape;
  for (int64_t d : dims) shape += std::to_string(d) + ", ";
  std::string header = "{'descr': '<i8', 'fortran_order': False, 'shape': (" + shape + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const auto length = static_cast<uint16_t>(header.size());
  out.put(static_cast<char>(length & 0xff));
  out.put(static_cast<char>(length >> 8));
  out << header;
  out.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * sizeof(int64_t)));
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The BERT-like encoder's input is [batch, sequence]: compiled as it is, it runs on inputs of any
// size through run-time shape inference, and gives what the model compiled for that size gives.
TEST(Gec, RunsAModelWithRunTimeShapes) {
  const std::string ids = Temp("ids.npy");
  std::vector<int64_t> values(size_t{2} * 7);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>((i * 7) % 50);
  WriteInt64Npy(ids, {2, 7}, values);
  ExpectError(Gec("run '" + Bert() + "'"), "input 'input_ids' has the shape [-1,-1]");

  Output dynamic = Gec("run '" + Bert() + "' --iterations 2 --input input_ids=" + ids +
                       " --output-dir '" + Temp("dyn") + "'");
  ASSERT_EQ(dynamic.status, 0) << dynamic.err;
  EXPECT_TRUE(Has(dynamic.out, "DT_FLOAT [2,7,64]")) << dynamic.out;
  Output fixed = Gec("run '" + Bert() +
                     "' --iterations 1 --input-shape input_ids:2,7 --input input_ids=" + ids +
                     " --output-dir '" + Temp("fixed") + "'");
  ASSERT_EQ(fixed.status, 0) << fixed.err;
  // The same header and numbers within float rounding: the run compiled a plan for [2,7] through
  // the same stages as --input-shape.
  const std::string a = ReadAll(Temp("dyn") + "/output.npy");
  const std::string b = ReadAll(Temp("fixed") + "/output.npy");
  const size_t count = size_t{2} * 7 * 64;
  ASSERT_GT(a.size(), count * 4);
  ASSERT_EQ(a.size(), b.size());
  const size_t header = a.size() - count * 4;
  EXPECT_EQ(a.substr(0, header), b.substr(0, header));
  for (size_t i = 0; i < count; ++i) {
    float x = 0, y = 0;
    std::memcpy(&x, a.data() + header + i * 4, 4);
    std::memcpy(&y, b.data() + header + i * 4, 4);
    EXPECT_NEAR(x, y, 1e-4F * std::max(1.0F, std::fabs(y))) << "element " << i;
  }

  // Another sequence length runs on the same compiled model.
  WriteInt64Npy(ids, {1, 3}, {5, 9, 2});
  Output other = Gec("run '" + Bert() + "' --iterations 1 --input input_ids=" + ids);
  ASSERT_EQ(other.status, 0) << other.err;
  EXPECT_TRUE(Has(other.out, "DT_FLOAT [1,3,64]")) << other.out;
  // A file of the wrong rank names both shapes.
  WriteInt64Npy(ids, {6}, {1, 2, 3, 4, 5, 6});
  ExpectError(Gec("run '" + Bert() + "' --input input_ids=" + ids),
              "the model wants DT_INT64 [-1,-1]");
}

// Several input sets in one process: each new set of shapes compiles a plan on its first run, a
// set whose shapes came before reuses its plan, and the report counts both.
TEST(Gec, RunsSeveralShapesThroughOnePlanCache) {
  const std::string a = Temp("a.npy");
  const std::string b = Temp("b.npy");
  WriteInt64Npy(a, {2, 7}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
  WriteInt64Npy(b, {1, 3}, {5, 9, 2});
  const std::string report = Temp("sets.json");
  Output o = Gec("run '" + Bert() + "' --iterations 2 --input input_ids=" + a +
                 " --input input_ids=" + b + " --input input_ids=" + a + " --output-dir '" +
                 Temp("out") + "' --report '" + report + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "set 1 shapes input_ids:2,7: first run ")) << o.out;
  EXPECT_TRUE(Has(o.out, "set 2 shapes input_ids:1,3: first run ")) << o.out;
  EXPECT_TRUE(Has(o.out, "set 3 shapes input_ids:2,7: first run ")) << o.out;
  EXPECT_TRUE(Has(o.out, "(their plan reused)")) << o.out;
  EXPECT_TRUE(Has(o.out, "set 2 output output: DT_FLOAT [1,3,64]")) << o.out;
  EXPECT_TRUE(Has(o.out, "shape plans: 2 compiled, 1 input set(s) reused one, 0 dropped; 2 kept"))
      << o.out;
  // A reused plan gives the numbers its first run gave.
  EXPECT_EQ(ReadAll(Temp("out") + "/output_1.npy"), ReadAll(Temp("out") + "/output_3.npy"));
  std::ifstream in(report);
  const nlohmann::json r = nlohmann::json::parse(in);
  ASSERT_EQ(r.at("sets").size(), 3u);
  EXPECT_TRUE(r["sets"][0].at("compiled").get<bool>());
  EXPECT_TRUE(r["sets"][1].at("compiled").get<bool>());
  EXPECT_FALSE(r["sets"][2].at("compiled").get<bool>());
  const auto& plans = r.at("shape_plans");
  EXPECT_EQ(plans.at("misses").get<int>(), 2);
  EXPECT_EQ(plans.at("hits").get<int>(), 7);  // lookups: three runs per set, two of them new
  ASSERT_EQ(plans.at("plans").size(), 2u);
  EXPECT_EQ(plans["plans"][0].at("shapes").get<std::string>(), "input_ids:2,7");  // most recent
  EXPECT_FALSE(plans["plans"][0].at("dynamic").get<bool>());
  EXPECT_GT(plans["plans"][0].at("bytes").get<int64_t>(), 0);
  EXPECT_GT(plans.at("specialize_ms").get<double>(), 0.0);

  // With no entries one model runs every shape (the dynamic executor), with the same numbers.
  Output dynamic =
      Gec("run '" + Bert() + "' --iterations 1 --input input_ids=" + a + " --input input_ids=" + b +
          " --option openge.shapePlanCacheEntries=0" + " --output-dir '" + Temp("any") + "'");
  ASSERT_EQ(dynamic.status, 0) << dynamic.err;
  EXPECT_TRUE(Has(dynamic.out, "set 2 output output: DT_FLOAT [1,3,64]")) << dynamic.out;
  EXPECT_TRUE(Has(dynamic.out, "set 2 shapes input_ids:1,3: first run ")) << dynamic.out;
  EXPECT_TRUE(Has(dynamic.out, "(the model for every shape)")) << dynamic.out;
  EXPECT_FALSE(Has(dynamic.out, "shape plans:")) << dynamic.out;
  ExpectError(Gec("run '" + Bert() + "' --input input_ids=" + a +
                  " --option openge.shapePlanCacheEntries=lots"),
              "openge.shapePlanCacheEntries");
  // Several sets are refused where the shapes are fixed.
  ExpectError(Gec("run '" + Bert() + "' --input-shape input_ids:2,7 --input input_ids=" + a +
                  " --input input_ids=" + a),
              "this model's input shapes are fixed");
}

// openge.shapeBuckets: sets of 2 and 1 rows run on one plan for 4 rows, each cut back to its own
// rows, with the numbers each row has on its own (the encoder's rows do not meet).
TEST(Gec, RunsPaddedSetsOnTheirBucketsPlan) {
  const std::string a = Temp("rows2.npy");
  const std::string b = Temp("rows1.npy");
  WriteInt64Npy(a, {2, 3}, {5, 9, 2, 7, 1, 4});
  WriteInt64Npy(b, {1, 3}, {7, 1, 4});
  const std::string report = Temp("buckets.json");
  Output o =
      Gec("run '" + Bert() + "' --iterations 1 --input input_ids=" + a + " --input input_ids=" + b +
          " --option openge.shapeBuckets=batch:4 --output-dir '" + Temp("padded") + "' --report '" +
          report + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "set 1 shapes input_ids:2,3: first run ")) << o.out;
  EXPECT_TRUE(Has(o.out, "(padded to input_ids:4,3, compiled for these shapes")) << o.out;
  EXPECT_TRUE(Has(o.out, "(padded to input_ids:4,3, their plan reused)")) << o.out;
  EXPECT_TRUE(Has(o.out, "set 1 output output: DT_FLOAT [2,3,64]")) << o.out;
  EXPECT_TRUE(Has(o.out, "set 2 output output: DT_FLOAT [1,3,64]")) << o.out;
  EXPECT_TRUE(Has(o.out, "shape plans: 1 compiled, 1 input set(s) reused one")) << o.out;
  EXPECT_TRUE(Has(o.out, "2 input set(s) padded to a bucket")) << o.out;
  const std::string two = ReadAll(Temp("padded") + "/output_1.npy");
  const std::string one = ReadAll(Temp("padded") + "/output_2.npy");
  const size_t row = size_t{3} * 64 * 4;
  ASSERT_GT(one.size(), row);
  ASSERT_EQ(two.size(), one.size() + row);
  const size_t header = one.size() - row;
  for (size_t i = 0; i < row / 4; ++i) {  // the second row of set 1 is set 2's only row
    float x = 0, y = 0;
    std::memcpy(&x, two.data() + header + row + 4 * i, 4);
    std::memcpy(&y, one.data() + header + 4 * i, 4);
    EXPECT_NEAR(x, y, 1e-4F * std::max(1.0F, std::fabs(y))) << "element " << i;
  }
  std::ifstream in(report);
  const nlohmann::json r = nlohmann::json::parse(in);
  EXPECT_EQ(r.at("shape_plans").at("padded").get<int>(), 4);  // runs: two per set
  EXPECT_EQ(r.at("sets")[1].at("padded_to").get<std::string>(), "input_ids:4,3");
  ExpectError(
      Gec("run '" + Bert() + "' --input input_ids=" + a + " --option openge.shapeBuckets=rows:4"),
      "no input has a dim named 'rows'");
}

// A .npy file (format 1.0) with `header` as its dict and `data` after it.
void WriteNpy(const std::string& path, std::string header, const std::string& data) {
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  out.put(static_cast<char>(header.size() & 0xff));
  out.put(static_cast<char>(header.size() >> 8));
  out << header << data;
}

std::string Floats(const std::vector<float>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)};
}

std::vector<float> NpyFloats(const std::string& path) {
  const std::string bytes = ReadAll(path);
  const size_t header =
      10 + (static_cast<uint8_t>(bytes.at(8)) | (static_cast<uint8_t>(bytes.at(9)) << 8));
  std::vector<float> v((bytes.size() - header) / sizeof(float));
  std::memcpy(v.data(), bytes.data() + header, v.size() * sizeof(float));
  return v;
}

// An initializer that is also a graph input is the input's default (as ONNX says): a run that
// does not give the input uses it, not random values; a given file overrides it.
TEST(Gec, RunUsesAnInitializerThatIsAlsoAnInputUnlessItIsGiven) {
  auto model = ge::testing::MakeModel(13);
  auto* g = model.mutable_graph();
  ge::testing::AddInput(g, "w", {3});
  ge::testing::AddInitializer(g, "w", {3});  // 0, 1, 2
  ge::testing::AddNode(g, "Neg", "neg", {"w"}, {"y"});
  ge::testing::AddOutput(g, "y", {3});
  const std::string path = Temp("default.onnx");
  {
    std::ofstream out(path, std::ios::binary);
    ASSERT_TRUE(model.SerializeToOstream(&out));
  }
  Output o = Gec("run '" + path + "' --iterations 1 --output-dir '" + Temp("out") + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(NpyFloats(Temp("out") + "/y.npy"), (std::vector<float>{-0.0F, -1.0F, -2.0F}));
  WriteNpy(Temp("w.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
           Floats({5, 6, 7}));
  Output given = Gec("run '" + path + "' --iterations 1 --input w=" + Temp("w.npy") +
                     " --output-dir '" + Temp("given") + "'");
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_EQ(NpyFloats(Temp("given") + "/y.npy"), (std::vector<float>{-5, -6, -7}));

  // The same through the shape plans of a model whose other input's batch is known only at run
  // time: y = x + w, w left to its initializer.
  auto dynamic = ge::testing::MakeModel(13);
  auto* d = dynamic.mutable_graph();
  ge::testing::AddInput(d, "x", {-1, 3}, {"batch", ""});
  ge::testing::AddInput(d, "w", {3});
  ge::testing::AddInitializer(d, "w", {3});  // 0, 1, 2
  ge::testing::AddNode(d, "Add", "add", {"x", "w"}, {"y"});
  ge::testing::AddOutput(d, "y", {-1, 3});
  const std::string dynamic_path = Temp("default_dynamic.onnx");
  {
    std::ofstream out(dynamic_path, std::ios::binary);
    ASSERT_TRUE(dynamic.SerializeToOstream(&out));
  }
  WriteNpy(Temp("x.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
           Floats({10, 20, 30, 40, 50, 60}));
  Output plans = Gec("run '" + dynamic_path + "' --iterations 1 --input x=" + Temp("x.npy") +
                     " --output-dir '" + Temp("plans") + "'");
  ASSERT_EQ(plans.status, 0) << plans.err;
  EXPECT_TRUE(Has(plans.out, "shapes x:2,3;w:3: first run")) << plans.out;
  EXPECT_EQ(NpyFloats(Temp("plans") + "/y.npy"), (std::vector<float>{10, 21, 32, 40, 51, 62}));
}

// tf2onnx and Keras end a graph with an Identity named like a TensorFlow tensor ("out:0"). The
// compiler removes the Identity; the output keeps the model's name, at fixed shapes (one plan) and
// at shapes known only at run time (the shape plans).
TEST(Gec, AnOutputMadeByAnIdentityKeepsItsName) {
  auto model = ge::testing::MakeModel(13);
  auto* g = model.mutable_graph();
  ge::testing::AddInput(g, "x", {-1, 2}, {"batch", ""});
  ge::testing::AddNode(g, "Neg", "neg", {"x"}, {"n"});
  ge::testing::AddNode(g, "Identity", "out", {"n"}, {"out:0"});
  ge::testing::AddOutput(g, "out:0", {-1, 2});
  const std::string path = Temp("identity.onnx");
  {
    std::ofstream out(path, std::ios::binary);
    ASSERT_TRUE(model.SerializeToOstream(&out));
  }
  WriteNpy(Temp("x.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }",
           Floats({1, 2}));
  for (const std::string shape : {"", " --input-shape x:1,2"}) {
    SCOPED_TRACE(shape.empty() ? "run-time shapes" : "fixed shapes");
    const std::string dir = Temp(shape.empty() ? "plans" : "fixed");
    Output o = Gec("run '" + path + "' --iterations 1 --input x=" + Temp("x.npy") + shape +
                   " --output-dir '" + dir + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(Has(o.out, "out:0")) << o.out;
    EXPECT_EQ(NpyFloats(dir + "/out_0.npy"), (std::vector<float>{-1, -2}));
  }
}

// Files and values from the command line are checked before use: each failure is one line
// naming the file or value and the cause, with exit status 1.
TEST(Gec, UntrustedFilesAndValuesAreRefusedInOneLine) {
  const std::string cnn = std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx";
  ExpectError(Gec("compile '" + cnn + "' -o " + Temp("x.om") + " --input-shape image:1,3,32,32"),
              "for input 'image' sets dim 2 to 32, but the model fixes it to 64");
  const std::string npy = Temp("bad.npy");
  WriteNpy(npy, "{'descr': '<f4', 'fortran_order': False, 'shape': , }", Floats({1}));
  ExpectError(Gec("run '" + cnn + "' --input image=" + npy),
              "bad.npy': the .npy shape '' is not a tuple");
  WriteNpy(npy, "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
           Floats({1}));
  ExpectError(Gec("run '" + cnn + "' --input image=" + npy), "needs more bytes than int64 counts");
  ExpectError(Gec("run '" + cnn + "' --max-memory-mb -1"), "--max-memory-mb must be 0");
  // small_cnn's activation arena is under 1 MiB, resnet18's over.
  EXPECT_EQ(Gec("run '" + cnn + "' --max-memory-mb 1 --iterations 1").status, 0);
  ExpectError(Gec("run '" + Resnet() + "' --max-memory-mb 1"), "bytes, over the limit of 1048576");

  // A Loop with two loop-carried values and one output.
  auto model = ge::testing::MakeModel(13);
  auto* g = model.mutable_graph();
  ge::testing::AddInput(g, "v0", {2});
  ge::testing::AddInput(g, "v1", {2});
  auto* loop = ge::testing::AddNode(g, "Loop", "loop", {"", "", "v0", "v1"}, {"r0"});
  auto* body = ge::testing::AddGraphAttr(loop, "body");
  ge::testing::AddInput(body, "i", {}, {}, onnx::TensorProto::INT64);
  ge::testing::AddInput(body, "cond", {}, {}, onnx::TensorProto::BOOL);
  ge::testing::AddInput(body, "a", {2});
  ge::testing::AddInput(body, "b", {2});
  ge::testing::AddNode(body, "Identity", "c", {"cond"}, {"cond_out"});
  ge::testing::AddNode(body, "Identity", "ia", {"a"}, {"a_out"});
  ge::testing::AddOutput(body, "cond_out", {}, onnx::TensorProto::BOOL);
  ge::testing::AddOutput(body, "a_out", {2});
  ge::testing::AddOutput(g, "r0", {2});
  const std::string path = Temp("loop.onnx");
  {
    std::ofstream out(path, std::ios::binary);
    ASSERT_TRUE(model.SerializeToOstream(&out));
  }
  ExpectError(Gec("run '" + path + "'"),
              "has 2 loop-carried values but 1 output(s); a Loop's first outputs are the final "
              "loop-carried values");
}

// --input reads only regular files: a FIFO is refused at once (it used to wait for a writer),
// /dev/zero before a byte is read; a header field numpy refuses is refused; a file over the
// memory limit is refused from its header.
TEST(Gec, InputsAreRegularFilesWithinTheMemoryLimit) {
  const std::string cnn = std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx";
  const std::string fifo = Temp("image.npy");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Should gec wait on the FIFO, a writer comes after 20 s, so that the test ends either way.
  std::atomic<bool> done{false};
  std::thread writer([&] {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    while (!done) {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  const auto start = std::chrono::steady_clock::now();
  const Output from_fifo = Gec("run '" + cnn + "' --input image=" + fifo);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  done = true;
  writer.join();
  ExpectError(from_fifo, "--input image: '" + fifo + "' is a FIFO, not a regular file");
  EXPECT_LT(seconds, 10) << "gec waited for the FIFO";
  ExpectError(Gec("run '" + cnn + "' --input image=/dev/zero"),
              "'/dev/zero' is a character device, not a regular file");
  const std::string npy = Temp("image.npy.bad");
  WriteNpy(npy, "{'descr': '<f4', 'fortran_order': 1, 'shape': (1,), }", Floats({1}));
  ExpectError(Gec("run '" + cnn + "' --input image=" + npy),
              "'fortran_order' must be True or False, not '1'");
  // 3 MiB of data, in a sparse file, against a limit of 1 MiB.
  const std::string large = Temp("large.npy");
  WriteNpy(large, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 512, 512), }", "");
  std::filesystem::resize_file(large, std::filesystem::file_size(large) + (size_t{3} << 20));
  ExpectError(Gec("run '" + cnn + "' --max-memory-mb 1 --input image=" + large),
              "--input image: '" + large + "': the .npy data is 3145728 bytes, over the memory " +
                  "limit of 1048576");
}

// --timeout: NaN, zero and negative waits are refused; a huge or infinite one means no limit
// (it used to overflow into a deadline already past, under mpirun: pipeline_mpi_test.py).
TEST(Gec, TimeoutIsAPositiveNumberOfSeconds) {
  const std::string cnn = std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx";
  for (const char* bad : {"nan", "-1", "0"}) {
    ExpectError(Gec("run '" + cnn + "' --iterations 1 --timeout " + bad),
                std::string("--timeout must be a positive number of seconds, not ") + bad);
  }
  for (const char* unlimited : {"inf", "1e300"}) {
    const Output o = Gec("run '" + cnn + "' --iterations 1 --timeout " + unlimited);
    EXPECT_EQ(o.status, 0) << unlimited << ": " << o.err;
  }
}

// A pipeline run in this process keeps to --max-memory-mb: its stages and the tensors between
// them together (it used to ignore the flag).
TEST(Gec, APipelineKeepsToTheMemoryLimit) {
  const std::string om = Temp("resnet18_2.om");
  const Output compiled = Gec("compile '" + Resnet() + "' -o '" + om + "' --pipeline-stages 2");
  ASSERT_EQ(compiled.status, 0) << compiled.err;
  ExpectError(Gec("run '" + om + "' --iterations 1 --max-memory-mb 1"), "limit of 1048576");
  const Output fits = Gec("run '" + om + "' --iterations 1 --max-memory-mb 256");
  EXPECT_EQ(fits.status, 0) << fits.err;
  EXPECT_TRUE(Has(fits.out, "stages: 2, run one after another in this process")) << fits.out;
}

TEST(Gec, OnnxTestRunsBackendCasesAndCountsThem) {
  const std::string node = std::string(GE_TEST_CONFORMANCE_DIR) + "/node";
  Output o = Gec("onnx-test '" + node + "/test_relu' '" + node + "/test_add'");
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_TRUE(Has(o.out, "PASS test_relu"));
  EXPECT_TRUE(Has(o.out, "2 passed, 0 failed"));
  // A case whose expected output is wrong fails, and says where.
  const std::string broken = Temp("test_broken");
  std::filesystem::remove_all(broken);
  std::filesystem::copy(node + "/test_relu", broken, std::filesystem::copy_options::recursive);
  std::filesystem::copy(node + "/test_add/test_data_set_0/output_0.pb",
                        broken + "/test_data_set_0/output_0.pb",
                        std::filesystem::copy_options::overwrite_existing);
  Output f = Gec("onnx-test '" + broken + "'");
  EXPECT_EQ(f.status, 1);
  EXPECT_TRUE(Has(f.out, "FAIL test_broken: output 0")) << f.out;
  EXPECT_TRUE(Has(f.out, "0 passed, 1 failed"));
  EXPECT_EQ(Gec("onnx-test '" + broken + "' --min-passed 0").status, 0);
}

// numpy's assert_allclose, which ONNX's runner uses, wants the same infinity where the expected
// output has one: no finite value is within tolerance of it.
TEST(Gec, OnnxTestWantsTheSameInfinityWhereTheExpectedOutputHasOne) {
  const std::string node = std::string(GE_TEST_CONFORMANCE_DIR) + "/node";
  const std::string with_inf = Temp("test_relu_inf");
  std::filesystem::remove_all(with_inf);
  std::filesystem::copy(node + "/test_relu", with_inf, std::filesystem::copy_options::recursive);
  const std::string expected = with_inf + "/test_data_set_0/output_0.pb";
  onnx::TensorProto t;
  {
    std::ifstream in(expected, std::ios::binary);
    ASSERT_TRUE(t.ParseFromIstream(&in));
  }
  ASSERT_EQ(t.data_type(), onnx::TensorProto::FLOAT);
  ASSERT_GE(t.raw_data().size(), 2 * sizeof(float));
  std::string raw = t.raw_data();
  for (float inf :
       {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}) {
    std::memcpy(raw.data(), &inf, sizeof(float));  // relu gives a finite value there
    t.set_raw_data(raw);
    {
      std::ofstream out(expected, std::ios::binary | std::ios::trunc);
      ASSERT_TRUE(t.SerializeToOstream(&out));
    }
    Output o = Gec("onnx-test '" + with_inf + "'");
    EXPECT_EQ(o.status, 1) << o.out;
    EXPECT_TRUE(Has(o.out, "FAIL test_relu_inf: output 0: element 0 is ")) << o.out;
    EXPECT_TRUE(Has(o.out, std::string(", expected ") + (inf > 0 ? "inf" : "-inf"))) << o.out;
  }
}

TEST(Gec, OnnxTestReadsBfloat16DataStoredAsUint16) {
  // ONNX stores bfloat16 test data as uint16 arrays; the model says BFLOAT16.
  const std::string node = std::string(GE_TEST_CONFORMANCE_DIR) + "/node";
  Output o = Gec("onnx-test '" + node + "/test_cast_BFLOAT16_to_FLOAT' '" + node +
                 "/test_cast_FLOAT_to_BFLOAT16' '" + node + "/test_cast_FLOAT_to_FLOAT16'");
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_TRUE(Has(o.out, "3 passed, 0 failed")) << o.out;
}

}  // namespace

namespace {

// Runs `args` with stdout and stderr on a pseudo-terminal (util-linux's script), as a user at a
// terminal would; returns what the terminal showed.
std::string OnATerminal(const std::string& args) {
  const std::string log = Temp("terminal.txt");
  const std::string command =
      "script -qec \"'" + kGec + "' " + args + "\" '" + log + "' > /dev/null";
  if (std::system(command.c_str()) != 0) return "script failed: " + command;
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Gec, LongWorkShowsProgressOnATerminalOnly) {
  const std::string model = std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx";
  const std::string om = Temp("small.om");
  const std::string shown = OnATerminal("compile '" + model + "' -o '" + om + "'");
  EXPECT_TRUE(Has(shown, "compiling ")) << shown;
  EXPECT_TRUE(Has(shown, "optimize, Fusion (")) << shown;
  EXPECT_TRUE(Has(shown, "\033[K")) << shown;  // the line is rewritten in place
  const std::string node = std::string(GE_TEST_CONFORMANCE_DIR) + "/node";
  const std::string cases =
      OnATerminal("onnx-test '" + node + "/test_relu' '" + node + "/test_add'");
  EXPECT_TRUE(Has(cases, "case 2/2 (1 passed, 0 failed): test_relu")) << cases;
  EXPECT_TRUE(Has(cases, "2 passed, 0 failed")) << cases;
  // Into files or pipes, nothing but the results.
  Output piped = Gec("compile '" + model + "' -o '" + om + "'");
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_FALSE(Has(piped.err + piped.out, "\033[K")) << piped.err;
  EXPECT_FALSE(Has(piped.err, "compiling")) << piped.err;
}

}  // namespace

// gec calibrate measures the machine's rates and writes a profile the compiler reads; a compile
// reports which profile it planned with.
TEST(Gec, CalibrateWritesAProfileACompileUses) {
  const std::string profile = Temp("machine.json");
  Output o = Gec("calibrate --quick -o '" + profile + "'");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(Has(o.out, "wrote " + profile)) << o.out;
  std::ifstream in(profile);
  const nlohmann::json m = nlohmann::json::parse(in);
  for (const char* rate : {"dense_gflops", "elementwise_gops", "bandwidth_gbs", "bandwidth_all_gbs",
                           "task_us", "library_us", "thread_us"}) {
    EXPECT_GT(m.at(rate).get<double>(), 0.0) << rate;
  }
  EXPECT_GE(m.at("cores").get<int>(), 1);
  const std::string report = Temp("report.json");
  ASSERT_EQ(Gec("compile '" + std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx' -o '" +
                Temp("m.om") + "' --option openge.machineProfile='" + profile + "' --report '" +
                report + "'")
                .status,
            0);
  std::ifstream r(report);
  const nlohmann::json schedule = nlohmann::json::parse(r).at("schedule");
  EXPECT_EQ(schedule.at("machine").get<std::string>(), profile);
  EXPECT_GT(schedule.at("predicted_us").get<double>(), 0.0);
  ExpectError(Gec("compile '" + std::string(OPENGE_SOURCE_DIR) + "/models/small_cnn.onnx' -o '" +
                  Temp("m.om") + "' --option openge.machineProfile=/nonexistent/machine.json"),
              "/nonexistent/machine.json");
}
