// Elementwise kernels (binary with broadcasting, variadic, select, unary math and activations,
// Clip) against per-element references.
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Absent;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;
using testing::RunOptions;

// a[i] broadcast-indexed for an output of dims `out` (numpy rules; reference implementation).
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

template <typename F>
std::vector<float> RefBinary(const std::vector<float>& a, const std::vector<int64_t>& ad,
                             const std::vector<float>& b, const std::vector<int64_t>& bd,
                             const std::vector<int64_t>& od, F f) {
  std::vector<float> y(static_cast<size_t>(testing::Count(od)));
  for (int64_t i = 0; i < static_cast<int64_t>(y.size()); ++i) {
    y[i] = f(a[BroadcastIndex(ad, od, i)], b[BroadcastIndex(bd, od, i)]);
  }
  return y;
}

struct Shapes {
  std::vector<int64_t> a, b, out;
};

TEST(BinaryKernel, ArithmeticBroadcastsLikeNumpy) {
  const std::vector<Shapes> shapes = {{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
                                      {{2, 3, 4}, {4}, {2, 3, 4}},
                                      {{2, 3, 4}, {}, {2, 3, 4}},
                                      {{1, 3, 1, 5}, {2, 1, 4, 1}, {2, 3, 4, 5}},
                                      {{2, 8, 3, 3}, {1, 8, 1, 1}, {2, 8, 3, 3}},
                                      {{3, 1}, {1, 3}, {3, 3}},
                                      {{}, {64, 600}, {64, 600}}};  // large: several threads
  struct OpCase {
    const char* type;
    float (*f)(float, float);
  };
  const OpCase ops[] = {{"Add", [](float x, float y) { return x + y; }},
                        {"Sub", [](float x, float y) { return x - y; }},
                        {"Mul", [](float x, float y) { return x * y; }},
                        {"RealDiv", [](float x, float y) { return x / y; }},
                        {"Maximum", [](float x, float y) { return std::max(x, y); }},
                        {"Pow", [](float x, float y) { return std::pow(std::fabs(x), y); }}};
  for (const Shapes& s : shapes) {
    for (const OpCase& o : ops) {
      SCOPED_TRACE(std::string(o.type) + " " + std::to_string(testing::Count(s.out)));
      auto a = Random(testing::Count(s.a), 1, 0.5F, 2.0F);
      const auto b = Random(testing::Count(s.b), 2, 0.5F, 2.0F);
      RunOptions opts;
      opts.threads = 2;
      auto r = RunKernel(Op(o.type), {Make(s.a, a), Make(s.b, b)}, {{DT_FLOAT, s.out}}, opts);
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      ExpectNear(r.outputs[0].Values<float>(), RefBinary(a, s.a, b, s.b, s.out, o.f));
    }
  }
}

TEST(BinaryKernel, PowBySquareAndIntegerExponent) {
  const auto a = Random(10, 3);
  auto r = RunKernel(Op("Pow"), {Make({10}, a), Make<float>({}, {2.0F})}, {{DT_FLOAT, {10}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want;
  for (float v : a) want.push_back(v * v);
  ExpectNear(r.outputs[0].Values<float>(), want);
  r = RunKernel(Op("Pow"), {Make({10}, a), Make<int64_t>({}, {3})}, {{DT_FLOAT, {10}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  want.clear();
  for (float v : a) want.push_back(v * v * v);
  ExpectNear(r.outputs[0].Values<float>(), want);
}

TEST(BinaryKernel, IntegerArithmetic) {
  auto r = RunKernel(Op("RealDiv"),
                     {Make<int64_t>({4}, {7, -7, 9, 5}), Make<int64_t>({4}, {2, 2, 0, -5})},
                     {{DT_INT64, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{3, -3, 0, -1}));  // /0 → 0
  r = RunKernel(Op("Add"), {Make<int32_t>({2, 2}, {1, 2, 3, 4}), Make<int32_t>({2}, {10, 20})},
                {{DT_INT32, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{11, 22, 13, 24}));
  auto mod = Op("Mod");
  r = RunKernel(mod, {Make<int64_t>({4}, {7, -7, 7, -7}), Make<int64_t>({4}, {3, 3, -3, -3})},
                {{DT_INT64, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{1, 2, -2, -1}));
}

TEST(BinaryKernel, ComparisonsAndLogicGiveBool) {
  const auto a = Make<float>({2, 2}, {1, 2, 3, 4});
  const auto b = Make<float>({2}, {2, 3});
  auto check = [&](const char* type, std::vector<bool> want) {
    auto r = RunKernel(Op(type), {a, b}, {{DT_BOOL, {2, 2}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const auto got = r.outputs[0].Values<uint8_t>();
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i] != 0, want[i]) << type << " " << i;
  };
  check("Equal", {false, false, false, false});
  check("Less", {true, true, false, false});
  check("Greater", {false, false, true, true});
  check("LessEqual", {true, true, false, false});
  check("GreaterEqual", {false, false, true, true});
  const auto p = Make<bool>({4}, {true, true, false, false});
  const auto q = Make<bool>({4}, {true, false, true, false});
  for (auto [type, want] :
       {std::pair<const char*, std::vector<uint8_t>>{"LogicalAnd", {1, 0, 0, 0}},
        {"LogicalOr", {1, 1, 1, 0}},
        {"LogicalXor", {0, 1, 1, 0}}}) {
    auto r = RunKernel(Op(type), {p, q}, {{DT_BOOL, {4}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want) << type;
  }
  auto r = RunKernel(Op("LogicalNot"), {p}, {{DT_BOOL, {4}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), (std::vector<uint8_t>{0, 0, 1, 1}));
}

TEST(BinaryKernel, RejectsShapesThatDoNotBroadcast) {
  auto r = RunKernel(Op("Add", "add7"), {Make({2, 3}, Random(6)), Make({4}, Random(4))},
                     {{DT_FLOAT, {2, 3}}});
  ExpectError(r.status, "do not broadcast", "add7");
}

TEST(BinaryKernel, RejectsMixedDtypes) {
  auto r =
      RunKernel(Op("Add"), {Make({2}, Random(2)), Make<int64_t>({2}, {1, 2})}, {{DT_FLOAT, {2}}});
  ExpectError(r.status, "dtypes differ");
}

TEST(BinaryKernel, RejectsLogicOnFloats) {
  auto r =
      RunKernel(Op("LogicalAnd"), {Make({2}, Random(2)), Make({2}, Random(2))}, {{DT_FLOAT, {2}}});
  ExpectError(r.status, "not supported");
}

TEST(VariadicKernel, SumMaxMinMeanBroadcast) {
  const auto a = Random(6, 4), b = Random(3, 5), c = Random(1, 6);
  const std::vector<int64_t> od = {2, 3};
  for (const char* type : {"AddN", "Max", "Min", "Mean"}) {
    auto r = RunKernel(Op(type), {Make({2, 3}, a), Make({3}, b), Make({1}, c)}, {{DT_FLOAT, od}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<float> want;
    for (int i = 0; i < 6; ++i) {
      const float x = a[i], y = b[i % 3], z = c[0];
      const std::string t = type;
      want.push_back(t == "AddN"  ? x + y + z
                     : t == "Max" ? std::max({x, y, z})
                     : t == "Min" ? std::min({x, y, z})
                                  : (x + y + z) / 3);
    }
    ExpectNear(r.outputs[0].Values<float>(), want);
  }
}

TEST(SelectKernel, PicksByBroadcastCondition) {
  auto r = RunKernel(
      Op("SelectV2"),
      {Make<bool>({2, 1}, {true, false}), Make<float>({2, 2}, {1, 2, 3, 4}), Make<float>({}, {9})},
      {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 2, 9, 9}));
  r = RunKernel(Op("SelectV2"),
                {Make<float>({1}, {1}), Make<float>({1}, {1}), Make<float>({1}, {1})},
                {{DT_FLOAT, {1}}});
  ExpectError(r.status, "DT_BOOL");
}

double Erf(double x) { return std::erf(x); }
double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

TEST(UnaryKernel, MathAndActivationsMatchLibm) {
  struct Case {
    const char* type;
    double (*f)(double);
    float lo, hi;
  };
  const Case cases[] = {
      {"Abs", [](double x) { return std::fabs(x); }, -3, 3},
      {"Neg", [](double x) { return -x; }, -3, 3},
      {"Exp", [](double x) { return std::exp(x); }, -5, 5},
      {"Log", [](double x) { return std::log(x); }, 0.1F, 10},
      {"Sqrt", [](double x) { return std::sqrt(x); }, 0, 10},
      {"Reciprocal", [](double x) { return 1 / x; }, 0.5F, 5},
      {"Floor", [](double x) { return std::floor(x); }, -5, 5},
      {"Ceil", [](double x) { return std::ceil(x); }, -5, 5},
      {"Round", [](double x) { return std::nearbyint(x); }, -5, 5},
      {"Sin", [](double x) { return std::sin(x); }, -3, 3},
      {"Cos", [](double x) { return std::cos(x); }, -3, 3},
      {"Tanh", [](double x) { return std::tanh(x); }, -5, 5},
      {"Erf", Erf, -3, 3},
      {"Sigmoid", Sigmoid, -8, 8},
      {"Relu", [](double x) { return std::max(0.0, x); }, -3, 3},
      {"Relu6", [](double x) { return std::clamp(x, 0.0, 6.0); }, -3, 9},
      {"Sign", [](double x) { return double((x > 0) - (x < 0)); }, -3, 3},
      {"Softplus", [](double x) { return std::log1p(std::exp(x)); }, -10, 10},
      {"Softsign", [](double x) { return x / (1 + std::fabs(x)); }, -5, 5},
      {"Mish", [](double x) { return x * std::tanh(std::log1p(std::exp(x))); }, -5, 5},
      {"HardSwish", [](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); }, -5, 5},
      {"HardSigmoid", [](double x) { return std::clamp(0.2 * x + 0.5, 0.0, 1.0); }, -5, 5},
      {"LeakyRelu", [](double x) { return x < 0 ? 0.01 * x : x; }, -3, 3},
      {"Elu", [](double x) { return x > 0 ? x : std::expm1(x); }, -3, 3},
      {"Selu",
       [](double x) {
         return 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * std::expm1(x));
       },
       -3, 3},
      {"Celu", [](double x) { return std::max(0.0, x) + std::min(0.0, std::expm1(x)); }, -3, 3},
      {"Gelu", [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, -4, 5},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.type);
    const auto x = Random(1000, 7, c.lo, c.hi);
    std::vector<float> want;
    for (float v : x) want.push_back(static_cast<float>(c.f(v)));
    auto r = RunKernel(Op(c.type), {Make({10, 100}, x)}, {{DT_FLOAT, {10, 100}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ExpectNear(r.outputs[0].Values<float>(), want, 1e-5F, 2e-6F);
  }
}

// Distance from `got` to `want` (computed in long double) in units in the last place of the float
// nearest `want`. A result below the smallest normal float may be flushed to zero, as CPUs do
// with denormals in their fast modes: its error counts in units of that smallest float.
double UlpError(float got, long double want) {
  if (std::isnan(got) || std::isnan(static_cast<double>(want))) {
    return std::isnan(got) == std::isnan(static_cast<double>(want)) ? 0 : 1e30;
  }
  const auto nearest = static_cast<float>(want);
  if (std::isinf(nearest)) return got == nearest ? 0 : 1e30;
  const float smallest = std::numeric_limits<float>::min();
  if (std::fabs(nearest) < smallest) {
    return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / smallest);
  }
  const float magnitude = std::fabs(nearest);
  const float ulp = std::nextafter(magnitude, std::numeric_limits<float>::infinity()) - magnitude;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

// The math functions are accurate to a few units in the last place over every float they are
// defined on, tails included, not only near 0: a model that compares sigmoid(x) with a max-pool
// of it (a peak mask) ties neighbours where the tail is coarse (Eigen's own logistic() was off
// by 5,000 ulps near -8). The inputs are every sign and magnitude from 1e-6 to each function's
// end (log-uniform), against a long double reference. Measured worst cases: Exp 4.4 ulps (near
// 85), Tanh 4.1, Sigmoid 3.9, Erf 3.8, Softplus 3.7, Swish 4.1, Log and Elu under 1.
TEST(UnaryKernel, MathIsAccurateToAFewUlpsOverTheWholeFloatRange) {
  struct Case {
    const char* type;
    long double (*f)(long double);
    float max_magnitude;  // beyond it the result is constant, infinite or zero
    double max_ulps;
  };
  const Case cases[] = {
      {"Exp", [](long double x) { return std::exp(x); }, 88, 5},
      {"Sigmoid", [](long double x) { return 1 / (1 + std::exp(-x)); }, 100, 5},
      {"Swish", [](long double x) { return x / (1 + std::exp(-x)); }, 80, 5},
      {"Tanh", [](long double x) { return std::tanh(x); }, 20, 5},
      {"Erf", [](long double x) { return std::erf(x); }, 6, 5},
      {"Softplus", [](long double x) { return std::log1p(std::exp(x)); }, 80, 5},
      {"Log", [](long double x) { return std::log(std::fabs(x)); }, 3e38F, 4},
      {"Elu", [](long double x) { return x > 0 ? x : std::expm1(x); }, 80, 4},
  };
  std::mt19937 gen(17);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.type);
    std::uniform_real_distribution<double> exponent(-6, std::log10(c.max_magnitude));
    std::vector<float> x;
    for (int i = 0; i < 20000; ++i) {
      const auto magnitude = static_cast<float>(std::pow(10.0, exponent(gen)));
      const bool positive = std::string(c.type) == "Log" || (i % 2 == 0);
      x.push_back(positive ? magnitude : -magnitude);
    }
    auto r = RunKernel(Op(c.type), {Make({20000}, x)}, {{DT_FLOAT, {20000}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const std::vector<float> got = r.outputs[0].Values<float>();
    double worst = 0;
    size_t worst_at = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double e = UlpError(got[i], c.f(x[i]));
      if (e > worst) {
        worst = e;
        worst_at = i;
      }
    }
    EXPECT_LE(worst, c.max_ulps) << "at x = " << x[worst_at] << ": got " << got[worst_at]
                                 << ", want " << static_cast<double>(c.f(x[worst_at]));
  }
}

TEST(UnaryKernel, AttributesAreRead) {
  auto op = Op("LeakyRelu");
  AttrUtils::SetFloat(op, "alpha", 0.5F);
  auto r = RunKernel(op, {Make<float>({2}, {-2, 2})}, {{DT_FLOAT, {2}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-1, 2}));
  auto gelu = Op("Gelu");
  AttrUtils::SetStr(gelu, "approximate", "tanh");
  r = RunKernel(gelu, {Make<float>({1}, {1.0F})}, {{DT_FLOAT, {1}}});
  ASSERT_TRUE(r.status.ok());
  ExpectNear(r.outputs[0].Values<float>(), {0.8411920F});
  AttrUtils::SetStr(gelu, "approximate", "bogus");
  r = RunKernel(gelu, {Make<float>({1}, {1.0F})}, {{DT_FLOAT, {1}}});
  ExpectError(r.status, "approximate");
}

TEST(UnaryKernel, IntegerAbsNegRelu) {
  auto r = RunKernel(Op("Abs"), {Make<int64_t>({3}, {-3, 0, 4})}, {{DT_INT64, {3}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{3, 0, 4}));
  r = RunKernel(Op("Relu"), {Make<int32_t>({3}, {-3, 0, 4})}, {{DT_INT32, {3}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{0, 0, 4}));
  r = RunKernel(Op("Exp"), {Make<int32_t>({1}, {1})}, {{DT_INT32, {1}}});
  ExpectError(r.status, "not supported");
}

TEST(ClipKernel, OptionalBounds) {
  const auto x = Make<float>({5}, {-3, -1, 0, 1, 3});
  auto r =
      RunKernel(Op("Clip"), {x, Make<float>({}, {-1}), Make<float>({}, {2})}, {{DT_FLOAT, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-1, -1, 0, 1, 2}));
  r = RunKernel(Op("Clip"), {x, Absent(), Make<float>({}, {0})}, {{DT_FLOAT, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-3, -1, 0, 0, 0}));
  r = RunKernel(Op("Clip"),
                {Make<int64_t>({2}, {-5, 5}), Make<int64_t>({}, {0}), Make<int64_t>({}, {6})},
                {{DT_INT64, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{0, 5}));
  r = RunKernel(Op("Clip"), {x, Make<float>({2}, {0, 1})}, {{DT_FLOAT, {5}}});
  ExpectError(r.status, "scalar");
}

}  // namespace
}  // namespace ge::host_cpu
