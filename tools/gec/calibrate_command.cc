// gec calibrate: measures the machine's rates for the compiler's cost model and writes them where
// the compiler looks for them (ge/compiler/cost_model.h).
//
// Each rate is one small model compiled and run through the engines, as any model runs: a
// matrix product (dense arithmetic), a Tanh over a tensor that stays in cache (elementwise
// arithmetic), a Relu over 4 MiB (memory bandwidth, on one thread and on every core), a chain of
// Relus over 16 floats (the fixed cost of a task), of 16 x 16 matrix products (what a call into
// oneDNN adds) and of Relus over 64 Ki floats on one and two threads (what a thread more costs).
// The work of each is the one the CPU engine reports for it, so the rates are in the cost model's
// units.
#include <algorithm>
#include <iostream>
#include <random>
#include <vector>

#include "commands.h"
#include "ge/compiler/cost_model.h"
#include "ge/graph/graph_builder.h"
#include "ge/graph/node.h"
#include "ge/ops/op_registry.h"
#include "ge/runtime/loaded_model.h"

namespace gec {
namespace {

using Clock = std::chrono::steady_clock;

// A graph: Data `x` of `dims`, then `types` applied in a chain; a MatMulV2's weight is a Const.
ge::Result<ge::ComputeGraphPtr> Chain(const std::vector<int64_t>& dims,
                                      const std::vector<std::string>& types, int64_t k = 0,
                                      int64_t n = 0) {
  ge::GraphBuilder b("calibrate");
  GE_ASSIGN_OR_RETURN(ge::NodePtr x, b.AddData("x", dims));
  ge::NodePtr last = x;
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string name = types[i] + std::to_string(i);
    GE_ASSIGN_OR_RETURN(ge::OpDescPtr op, ge::OpRegistry::Instance().CreateOpDesc(types[i], name));
    std::vector<ge::NodeOutput> inputs = {last};
    if (types[i] == "MatMulV2") {
      std::vector<float> w(static_cast<size_t>(k * n));
      std::mt19937 rng(7);
      std::uniform_real_distribution<float> value(-0.05F, 0.05F);
      for (float& v : w) v = value(rng);
      GE_ASSIGN_OR_RETURN(ge::NodePtr weight,
                          b.AddConst("w" + std::to_string(i), ge::DT_FLOAT, {k, n}, w));
      inputs.emplace_back(weight);
    }
    GE_ASSIGN_OR_RETURN(last, b.AddNode(op, inputs));
  }
  GE_RETURN_IF_ERROR(b.AddNetOutput({last}).status());
  return b.GetGraph();
}

// The median time of one run of `graph` on `threads` threads, in microseconds, with every task
// given the threads (the cost model off: it is what is being measured).
ge::Result<double> Time(const ge::ComputeGraphPtr& graph,
                        const std::map<std::string, std::string>& options, int threads, int runs) {
  std::map<std::string, std::string> compile = options;
  compile[ge::kOptCostModel] = "0";
  compile[ge::kOptDisablePasses] = "Fusion";  // the chains measure one task a node
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ge::Compiler> compiler, ge::Compiler::Create(compile));
  GE_ASSIGN_OR_RETURN(ge::CompiledModel compiled, compiler->Compile(graph));
  ge::RuntimeOptions runtime;
  runtime.options = options;
  runtime.threads = threads;
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ge::LoadedModel> model,
                      ge::LoadedModel::Load(std::move(compiled), runtime));
  const ge::IoInfo& in = model->inputs().at(0);
  int64_t count = 1;
  for (int64_t d : in.dims) count *= d;
  std::vector<float> values(static_cast<size_t>(count), 0.5F);
  const ge::GeTensor input(ge::GeTensorDesc(ge::GeShape(in.dims), ge::FORMAT_ND, ge::DT_FLOAT),
                           reinterpret_cast<const uint8_t*>(values.data()),
                           values.size() * sizeof(float));
  std::vector<double> times;
  for (int i = 0; i < runs + 2; ++i) {
    const Clock::time_point start = Clock::now();
    GE_RETURN_IF_ERROR(model->Run({input}).status());
    if (i >= 2)
      times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

ge::Status CalibrateCommand(const CompileFlags& flags, const std::string& output, bool quick) {
  GE_ASSIGN_OR_RETURN(auto options, CompileOptionsOf(flags));
  // Making a compiler loads the prototypes the graphs below are made of.
  GE_RETURN_IF_ERROR(ge::Compiler::Create(options).status());
  ge::MachineProfile m = ge::MachineProfile::BuiltIn();
  const int runs = quick ? 3 : 15;
  auto rate = [&](const char* what, double work, double micros) -> ge::Result<double> {
    if (!(micros > 0)) return ge::Failed(std::string("calibrate: ") + what + " took no time");
    return work / micros / 1e3;  // per microsecond -> giga per second
  };
  Progress("calibrate: the fixed cost of a task");
  constexpr int kTiny = 64;
  GE_ASSIGN_OR_RETURN(auto tiny, Chain({16}, std::vector<std::string>(kTiny, "Relu")));
  GE_ASSIGN_OR_RETURN(double tiny_us, Time(tiny, options, 1, runs));
  m.task_us = std::max(tiny_us / kTiny, 0.01);

  Progress("calibrate: the fixed cost of a library call");
  // Small matrix products (16 x 16): what a oneDNN primitive's call costs beyond a task.
  GE_ASSIGN_OR_RETURN(auto calls,
                      Chain({1, 16}, std::vector<std::string>(kTiny, "MatMulV2"), 16, 16));
  GE_ASSIGN_OR_RETURN(double calls_us, Time(calls, options, 1, runs));
  m.library_us = std::max(calls_us / kTiny - m.task_us, 0.01);

  Progress("calibrate: matrix products");
  constexpr int64_t kM = 256, kK = 1024, kN = 1024;
  GE_ASSIGN_OR_RETURN(auto mm, Chain({kM, kK}, {"MatMulV2"}, kK, kN));
  GE_ASSIGN_OR_RETURN(double mm_us, Time(mm, options, 1, runs));
  GE_ASSIGN_OR_RETURN(m.dense_gflops,
                      rate("a matrix product", 2.0 * kM * kK * kN, mm_us - m.task_us));

  Progress("calibrate: elementwise arithmetic");
  constexpr int64_t kCached = 1 << 18;  // 1 MiB in and out: in cache
  GE_ASSIGN_OR_RETURN(auto tanh, Chain({kCached}, {"Tanh"}));
  GE_ASSIGN_OR_RETURN(double tanh_us, Time(tanh, options, 1, runs));
  // A Tanh element counts 8 element-ops in the CPU engine's work (op_work.cc).
  GE_ASSIGN_OR_RETURN(m.elementwise_gops, rate("a Tanh", 8.0 * kCached, tanh_us - m.task_us));

  Progress("calibrate: memory bandwidth");
  // 4 MiB in and 4 out, an activation of the size models have: the bandwidth of the last-level
  // cache, which is where a model's tensors mostly are.
  constexpr int64_t kLarge = int64_t{1} << 20;
  GE_ASSIGN_OR_RETURN(auto copy, Chain({kLarge}, {"Relu"}));
  GE_ASSIGN_OR_RETURN(double one_us, Time(copy, options, 1, runs));
  GE_ASSIGN_OR_RETURN(double all_us, Time(copy, options, m.cores, runs));
  GE_ASSIGN_OR_RETURN(m.bandwidth_gbs, rate("a Relu", 8.0 * kLarge, one_us - m.task_us));
  GE_ASSIGN_OR_RETURN(m.bandwidth_all_gbs, rate("a Relu", 8.0 * kLarge, all_us - m.task_us));
  m.bandwidth_all_gbs = std::max(m.bandwidth_all_gbs, m.bandwidth_gbs);

  if (m.cores > 1) {
    Progress("calibrate: the cost of a thread");
    constexpr int kMid = 16;
    constexpr int64_t kMidElements = 1 << 16;
    GE_ASSIGN_OR_RETURN(auto mid, Chain({kMidElements}, std::vector<std::string>(kMid, "Relu")));
    GE_ASSIGN_OR_RETURN(double on_one, Time(mid, options, 1, runs));
    GE_ASSIGN_OR_RETURN(double on_two, Time(mid, options, 2, runs));
    // T(2) = task + thread + (T(1) - task) / 2, per task.
    const double t1 = on_one / kMid - m.task_us;
    m.thread_us = std::max(on_two / kMid - m.task_us - t1 / 2, 0.1);
  }
  ProgressDone();
  const std::string path = output.empty() ? ge::MachineProfile::DefaultPath() : output;
  if (path.empty()) {
    return ge::ParamInvalid("calibrate: no home directory to keep the profile in; give -o FILE");
  }
  GE_RETURN_IF_ERROR(m.Save(path));
  std::cout << m.ToJson() << "wrote " << path
            << (output.empty() ? " (the compiler reads it from there)"
                               : " (compile with --option openge.machineProfile=" + path + ")")
            << "\n";
  return ge::Status::Ok();
}

}  // namespace

void Commands::RegisterCalibrate(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "calibrate", "measure this machine's rates for the cost model and keep them for compiles");
  cmd->add_option("-o,--output", output_,
                  "the profile to write (default: " + ge::MachineProfile::DefaultPath() + ")");
  cmd->add_flag("--quick", quick_, "fewer runs per measurement (rougher figures, a few seconds)");
  cmd->add_option("--option", flags_.options, "option KEY=VALUE (engine locations)");
  cmd->callback([this] { chosen_ = [this] { return CalibrateCommand(flags_, output_, quick_); }; });
}

}  // namespace gec
