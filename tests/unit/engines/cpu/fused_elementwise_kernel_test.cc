// The FusedElementwise kernel against a naive per-element interpreter of its program: every
// instruction, numpy broadcasting of inputs of several ranks, several outputs, threads, shapes
// that change between runs, and malformed programs.
#include <cmath>
#include <string>
#include <vector>

#include "ge/ops/fused_elementwise.h"
#include "ge/ops/fused_ops.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using fused::EwOp;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Random;
using testing::RunKernel;
using testing::RunOptions;
using testing::TestTensor;

std::shared_ptr<OpDesc> Program(const std::vector<std::string>& program,
                                const std::vector<int64_t>& outputs,
                                const std::string& name = "node") {
  auto op = std::make_shared<OpDesc>(name, "FusedElementwise");
  AttrUtils::SetListStr(op, kAttrEwProgram, program);
  AttrUtils::SetListInt(op, kAttrEwOutputRegisters, outputs);
  return op;
}

TensorSpec FloatSpec(std::vector<int64_t> dims) {
  TensorSpec spec;
  spec.dtype = DT_FLOAT;
  spec.dims = std::move(dims);
  return spec;
}

std::vector<int64_t> BroadcastShape(const std::vector<TestTensor>& inputs) {
  std::vector<int64_t> out;
  for (const TestTensor& t : inputs) {
    const size_t rank = std::max(out.size(), t.dims.size());
    std::vector<int64_t> next(rank, 1);
    for (size_t k = 0; k < rank; ++k) {
      const int64_t a = k < out.size() ? out[out.size() - 1 - k] : 1;
      const int64_t b = k < t.dims.size() ? t.dims[t.dims.size() - 1 - k] : 1;
      next[rank - 1 - k] = a == 1 ? b : a;
    }
    out = next;
  }
  return out;
}

// Flat index into `in` of output element `flat` of `out` (numpy broadcasting).
int64_t BroadcastIndex(const std::vector<int64_t>& in, const std::vector<int64_t>& out,
                       int64_t flat) {
  int64_t idx = 0, stride = 1;
  for (size_t k = 0; k < out.size(); ++k) {
    const size_t d = out.size() - 1 - k;
    const int64_t coord = flat % out[d];
    flat /= out[d];
    if (k < in.size()) {
      const int64_t extent = in[in.size() - 1 - k];
      idx += (extent == 1 ? 0 : coord) * stride;
      stride *= extent;
    }
  }
  return idx;
}

float RefOp(EwOp op, float a, float b, float p0, float p1) {
  switch (op) {
    case EwOp::kAdd:
      return a + b;
    case EwOp::kSub:
      return a - b;
    case EwOp::kMul:
      return a * b;
    case EwOp::kDiv:
      return a / b;
    case EwOp::kMax:
      return std::max(a, b);
    case EwOp::kMin:
      return std::min(a, b);
    case EwOp::kPow:
      return std::pow(a, b);
    case EwOp::kRelu:
      return std::max(a, 0.0F);
    case EwOp::kSigmoid:
      return 1.0F / (1.0F + std::exp(-a));
    case EwOp::kTanh:
      return std::tanh(a);
    case EwOp::kExp:
      return std::exp(a);
    case EwOp::kLog:
      return std::log(a);
    case EwOp::kSqrt:
      return std::sqrt(a);
    case EwOp::kRsqrt:
      return 1.0F / std::sqrt(a);
    case EwOp::kNeg:
      return -a;
    case EwOp::kAbs:
      return std::fabs(a);
    case EwOp::kErf:
      return std::erf(a);
    case EwOp::kReciprocal:
      return 1.0F / a;
    case EwOp::kFloor:
      return std::floor(a);
    case EwOp::kCeil:
      return std::ceil(a);
    case EwOp::kHardSwish:
      return a * std::clamp(a / 6.0F + 0.5F, 0.0F, 1.0F);
    case EwOp::kGelu:
      return 0.5F * a * (1.0F + std::erf(a / std::sqrt(2.0F)));
    case EwOp::kGeluTanh:
      return 0.5F * a *
             (1.0F +
              std::tanh(std::sqrt(2.0F / static_cast<float>(M_PI)) * (a + 0.044715F * a * a * a)));
    case EwOp::kSoftplus:
      return std::log1p(std::exp(a));
    case EwOp::kLeakyRelu:
      return a < 0 ? a * p0 : a;
    case EwOp::kElu:
      return a > 0 ? a : p0 * (std::exp(a) - 1.0F);
    case EwOp::kClip:
      return std::min(std::max(a, p0), p1);
    case EwOp::kHardSigmoid:
      return std::clamp(a * p0 + p1, 0.0F, 1.0F);
  }
  return NAN;
}

/// The program run element by element on the broadcast inputs.
std::vector<std::vector<float>> Reference(const std::vector<std::string>& program,
                                          const std::vector<int64_t>& outputs,
                                          const std::vector<TestTensor>& inputs) {
  auto parsed = fused::ParseEwProgram(program, outputs, static_cast<int64_t>(inputs.size()));
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  if (!parsed.ok()) return {};
  const fused::EwProgram& p = *parsed;
  const std::vector<int64_t> out_dims = BroadcastShape(inputs);
  const int64_t n = testing::Count(out_dims);
  std::vector<std::vector<float>> values;
  for (const TestTensor& t : inputs) values.push_back(t.Values<float>());
  std::vector<std::vector<float>> result(outputs.size(),
                                         std::vector<float>(static_cast<size_t>(n)));
  std::vector<float> regs(static_cast<size_t>(p.NumRegisters()));
  for (int64_t e = 0; e < n; ++e) {
    for (size_t i = 0; i < inputs.size(); ++i)
      regs[i] = values[i][BroadcastIndex(inputs[i].dims, out_dims, e)];
    for (size_t k = 0; k < p.code.size(); ++k) {
      const fused::EwInstruction& ins = p.code[k];
      const float a = ins.reg[0] >= 0 ? regs[ins.reg[0]] : ins.imm[0];
      const float b = ins.reg[1] >= 0 ? regs[ins.reg[1]] : ins.imm[1];
      regs[inputs.size() + k] = RefOp(ins.op, a, b, ins.param[0], ins.param[1]);
    }
    for (size_t o = 0; o < outputs.size(); ++o) result[o][e] = regs[outputs[o]];
  }
  return result;
}

/// Runs the kernel on `inputs` and checks every output against the reference.
void ExpectMatchesReference(const std::vector<std::string>& program,
                            const std::vector<int64_t>& outputs,
                            const std::vector<TestTensor>& inputs, RunOptions options = {},
                            float rtol = 1e-5F) {
  const std::vector<int64_t> out_dims = BroadcastShape(inputs);
  std::vector<testing::OutSpec> specs(outputs.size(), {DT_FLOAT, out_dims});
  auto r = RunKernel(Program(program, outputs), inputs, specs, options);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto want = Reference(program, outputs, inputs);
  ASSERT_EQ(want.size(), outputs.size());
  for (size_t o = 0; o < outputs.size(); ++o) {
    SCOPED_TRACE("output " + std::to_string(o) + " of " + program.back());
    EXPECT_EQ(r.outputs[o].dims, out_dims);
    ExpectNear(r.outputs[o].Values<float>(), want[o], rtol, 1e-5F);
  }
}

TEST(FusedElementwiseKernel, EveryInstructionMatchesTheReference) {
  // x [3,70]: a row of 70 is a full tile and a partial one; y [70] is a repeated row; s [] a
  // scalar input. Positive values, so that Log, Sqrt, Pow and Rsqrt are defined everywhere.
  const TestTensor x = Make<float>({3, 70}, Random(210, 1, 0.2F, 3.0F));
  const TestTensor y = Make<float>({70}, Random(70, 2, 0.2F, 3.0F));
  const TestTensor s = Make<float>({}, {0.7F});
  const TestTensor signed_x = Make<float>({3, 70}, Random(210, 3, -4.0F, 4.0F));
  for (const fused::EwOpInfo& info : fused::kEwOps) {
    const std::string name(info.name);
    std::string params;
    if (info.op == EwOp::kClip) params = " -0.5 2.5";
    if (info.op == EwOp::kHardSigmoid) params = " 0.2 0.5";
    if (info.op == EwOp::kLeakyRelu || info.op == EwOp::kElu) params = " 0.3";
    const bool positive_only = info.op == EwOp::kLog || info.op == EwOp::kSqrt ||
                               info.op == EwOp::kRsqrt || info.op == EwOp::kPow;
    if (info.operands == 2) {
      // tensor op tensor, tensor op immediate, immediate op tensor, tensor op scalar input
      ExpectMatchesReference({name + " r0 r1"}, {2}, {x, y});
      ExpectMatchesReference({name + " r0 1.75"}, {2}, {x, y});
      ExpectMatchesReference({name + " 1.75 r1"}, {2}, {x, y});
      ExpectMatchesReference({name + " r0 r2"}, {3}, {x, y, s});
      if (!positive_only) ExpectMatchesReference({name + " r0 r1"}, {2}, {signed_x, y});
    } else {
      ExpectMatchesReference({name + " r0" + params}, {1}, {positive_only ? x : signed_x});
      // Of a value constant along the tile (the scalar input), then used with a tensor.
      ExpectMatchesReference({name + " r1" + params, "Add r0 r2"}, {3}, {x, s});
    }
  }
  ExpectMatchesReference({"Pow r0 2"}, {1}, {signed_x});  // squared, negative bases included
}

TEST(FusedElementwiseKernel, BroadcastsInputsOfDifferentRanks) {
  // Inner dim 5: several rows per tile, each input gathered as a row, a repeated row or a value.
  const std::vector<TestTensor> small = {
      Make<float>({2, 3, 4, 5}, Random(120, 1)), Make<float>({3, 1, 1}, Random(3, 2)),
      Make<float>({5}, Random(5, 3)), Make<float>({}, {0.25F}), Make<float>({4, 1}, Random(4, 4))};
  const std::vector<std::string> program = {"Add r0 r1", "Mul r5 r2", "Sub r6 r3", "Max r7 r4",
                                            "Tanh r8"};
  ExpectMatchesReference(program, {9}, small);
  // Inner dim 100: tiles within rows; the [3,1] input is one value per row.
  const std::vector<TestTensor> wide = {
      Make<float>({2, 3, 100}, Random(600, 5)), Make<float>({3, 1}, Random(3, 6)),
      Make<float>({100}, Random(100, 7)), Make<float>({2, 1, 100}, Random(200, 8))};
  ExpectMatchesReference({"Mul r0 r1", "Add r4 r2", "Sub r5 r3", "Sigmoid r6"}, {7}, wide);
  // No input has the output's shape: [4,1] x [1,6] -> [4,6].
  ExpectMatchesReference({"Mul r0 r1", "Add r2 1"}, {3},
                         {Make<float>({4, 1}, Random(4, 9)), Make<float>({1, 6}, Random(6, 10))});
  // Every dim 1.
  ExpectMatchesReference({"Add r0 r1", "Exp r2"}, {3},
                         {Make<float>({1, 1}, {0.5F}), Make<float>({1}, {0.25F})});
}

TEST(FusedElementwiseKernel, WritesSeveralOutputsIncludingInteriorValues) {
  const std::vector<TestTensor> in = {Make<float>({7, 33}, Random(231, 1)),
                                      Make<float>({33}, Random(33, 2))};
  // r2 = x + b, r3 = r2 * 0.5, r4 = Gelu(r2), r5 = r3 - r4: outputs r5, r2 (interior), r4, r0 (an
  // input).
  const std::vector<std::string> program = {"Add r0 r1", "Mul r2 0.5", "Gelu r2", "Sub r3 r4"};
  ExpectMatchesReference(program, {5, 2, 4, 0}, in);
}

TEST(FusedElementwiseKernel, ReusesScratchSlotsOfDeadRegisters) {
  // A long chain with a value read again at the end: slots are reused, results stay right.
  std::vector<std::string> program = {"Mul r0 r1"};
  for (int k = 0; k < 40; ++k) {
    const std::string prev = "r" + std::to_string(2 + k);
    program.push_back(k % 2 == 0 ? "Add " + prev + " 0.125" : "Mul " + prev + " 0.9");
  }
  program.emplace_back("Sub r42 r2");
  program.emplace_back("Mul r43 r43");
  ExpectMatchesReference(program, {44, 2},
                         {Make<float>({5, 77}, Random(385, 1)), Make<float>({5, 1}, Random(5, 2))});
}

TEST(FusedElementwiseKernel, LargeTensorsRunOnSeveralThreadsWithTheSameNumbers) {
  const std::vector<TestTensor> in = {Make<float>({64, 1000}, Random(64000, 1)),
                                      Make<float>({1000}, Random(1000, 2)),
                                      Make<float>({64, 1}, Random(64, 3))};
  const std::vector<std::string> program = {"Add r0 r1", "Mul r3 r2", "Erf r4", "Add r5 1",
                                            "Mul r6 r3"};
  RunOptions threads;
  threads.threads = 4;
  ExpectMatchesReference(program, {7, 3}, in, threads);
  const auto op = Program(program, {7, 3});
  const std::vector<testing::OutSpec> specs(2, {DT_FLOAT, {64, 1000}});
  auto one = RunKernel(op, in, specs);
  auto four = RunKernel(op, in, specs, threads);
  ASSERT_TRUE(one.status.ok() && four.status.ok());
  EXPECT_EQ(one.outputs[0].bytes, four.outputs[0].bytes);
  EXPECT_EQ(one.outputs[1].bytes, four.outputs[1].bytes);
}

TEST(FusedElementwiseKernel, RunsShapesOtherThanPreparesWhenDynamic) {
  RunOptions dynamic;
  dynamic.dynamic = true;
  ExpectMatchesReference(
      {"Add r0 r1", "Relu r2"}, {3},
      {Make<float>({2, 3, 50}, Random(300, 1)), Make<float>({3, 1}, Random(3, 2))}, dynamic);
  // One kernel, prepared with unknown dims, run on three different shapes in turn.
  auto kernel = FindCpuKernel("FusedElementwise")();
  const auto op = Program({"Mul r0 r1", "Sigmoid r2"}, {3});
  KernelSpec spec;
  spec.op = op.get();
  spec.threads = 2;
  spec.inputs = {FloatSpec({-1, -1}), FloatSpec({-1})};
  spec.outputs = {FloatSpec({-1, -1})};
  ASSERT_TRUE(kernel->Prepare(spec).ok());
  for (const auto& [rows, cols] :
       std::vector<std::pair<int64_t, int64_t>>{{2, 3}, {300, 129}, {1, 1}}) {
    const std::vector<TestTensor> in = {Make<float>({rows, cols}, Random(rows * cols, 3)),
                                        Make<float>({cols}, Random(cols, 4))};
    std::vector<float> y(static_cast<size_t>(rows * cols), -7.0F);
    KernelArgs args;
    for (const TestTensor& t : in) args.inputs.push_back({t.bytes.data(), FloatSpec(t.dims)});
    args.outputs.push_back({y.data(), FloatSpec({rows, cols})});
    Status s = kernel->Run(args);
    ASSERT_TRUE(s.ok()) << s.message();
    ExpectNear(y, Reference({"Mul r0 r1", "Sigmoid r2"}, {3}, in)[0]);
  }
}

// Sigmoid's tail keeps its relative accuracy inside a fused program as outside: values from
// exp(-20) to 0.12 within a few parts in ten million, not multiples of 2^-24.
TEST(FusedElementwiseKernel, SigmoidIsAccurateInItsTail) {
  const std::vector<TestTensor> in = {Make<float>({4, 100}, Random(400, 9, -20.0F, -2.0F))};
  auto r = RunKernel(Program({"Sigmoid r0"}, {1}), in, {{DT_FLOAT, {4, 100}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), Reference({"Sigmoid r0"}, {1}, in)[0], 1e-6F, 0.0F);
}

TEST(FusedElementwiseKernel, RefusesAMalformedProgramNamingTheInstruction) {
  const std::vector<TestTensor> in = {Make<float>({4}, Random(4, 1)),
                                      Make<float>({4}, Random(4, 2))};
  const std::vector<testing::OutSpec> out = {{DT_FLOAT, {4}}};
  struct Case {
    std::vector<std::string> program;
    std::vector<int64_t> outputs;
    std::string cause;
  };
  const std::vector<Case> cases = {
      {{"Add r0 r1", "Frobnicate r2"},
       {3},
       "instruction 1 'Frobnicate r2' (register r3): unknown operation 'Frobnicate'"},
      {{"Add r0 r5"},
       {2},
       "instruction 0 'Add r0 r5' (register r2): register r5 is not defined before this "
       "instruction"},
      {{"Add r0"}, {2}, "Add takes 2 operand(s) and 0 parameter(s), got 1 token(s)"},
      {{"Relu r0 r1"}, {2}, "Relu takes 1 operand(s)"},
      {{"Clip r0 0"}, {2}, "Clip takes 1 operand(s) and 2 parameter(s)"},
      {{"Add 1 2"}, {2}, "needs at least one register operand"},
      {{"Mul r0 x1"}, {2}, "operand 'x1' is neither a register r<k> nor a float"},
      {{"Mul r0 r-1"}, {2}, "operand 'r-1' is not a register"},
      {{"LeakyRelu r0 r1"}, {2}, "parameter 'r1' is not a float"},
      {{"Add r0 r1"}, {3}, "output 0 names register r3, not one of r0..r2"},
      {{"Mul r0 "}, {2}, "operand '' is neither"},
  };
  for (const Case& c : cases) {
    auto r = RunKernel(Program(c.program, c.outputs, "fe"), in, out);
    ExpectError(r.status, "malformed program: ", "fe");
    ExpectError(r.status, c.cause, "fe");
  }
  auto missing = std::make_shared<OpDesc>("fe", "FusedElementwise");
  ExpectError(RunKernel(missing, in, out).status, "attribute 'program'", "fe");
  // Outputs the program does not name, and inputs of another dtype.
  ExpectError(
      RunKernel(Program({"Add r0 r1"}, {2}, "fe"), in, {{DT_FLOAT, {4}}, {DT_FLOAT, {4}}}).status,
      "the node has 2 output(s), the program 1", "fe");
  ExpectError(
      RunKernel(Program({"Add r0 r1"}, {2}, "fe"), {in[0], Make<int32_t>({4}, {1, 2, 3, 4})}, out)
          .status,
      "input 1 dtype DT_INT32 is not supported", "fe");
  ExpectError(
      RunKernel(Program({"Add r0 r1"}, {2}, "fe"), {in[0], Make<float>({3}, {1, 2, 3})}, out)
          .status,
      "input 1 [3] does not broadcast with [4]", "fe");
}

}  // namespace
}  // namespace ge::host_cpu
