// Binary and variadic kernels on the less common dtypes: Max / Min on float16 and the 16/32/64-bit
// integers, Mod with fmod on integers and float16, Pow with an exponent of another dtype, and
// BitShift — each against a per-element reference.
#include <cmath>
#include <limits>

#include "half_float.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::RunKernel;
using testing::TestTensor;

template <typename T>
TestTensor MakeAs(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values) {
  TestTensor t = Make<T>(std::move(dims), values);
  t.dtype = dtype;
  return t;
}

std::vector<uint16_t> Float16Bits(const std::vector<float>& values) {
  std::vector<uint16_t> bits;
  for (float v : values) bits.push_back(ToFloat16(v).bits);
  return bits;
}

template <typename T>
void ExpectVariadicMaxMin(DataType dtype) {
  const std::vector<T> a = {std::numeric_limits<T>::max(), 3, 0, 7};
  const std::vector<T> b = {1, std::numeric_limits<T>::lowest(), 5, 7};
  const std::vector<T> c = {2};  // broadcast
  for (const char* type : {"Max", "Min"}) {
    const bool is_max = std::string(type) == "Max";
    auto r =
        RunKernel(Op(type), {MakeAs(dtype, {4}, a), MakeAs(dtype, {4}, b), MakeAs(dtype, {1}, c)},
                  {{dtype, {4}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<T> want;
    for (size_t i = 0; i < a.size(); ++i) {
      want.push_back(is_max ? std::max({a[i], b[i], c[0]}) : std::min({a[i], b[i], c[0]}));
    }
    EXPECT_EQ(r.outputs[0].template Values<T>(), want) << type << " " << static_cast<int>(dtype);
  }
}

TEST(VariadicKernel, MaxMinOnEveryIntegerWidth) {
  ExpectVariadicMaxMin<int16_t>(DT_INT16);
  ExpectVariadicMaxMin<uint16_t>(DT_UINT16);
  ExpectVariadicMaxMin<uint32_t>(DT_UINT32);
  ExpectVariadicMaxMin<uint64_t>(DT_UINT64);
}

TEST(VariadicKernel, MaxMinMeanOnFloat16RoundOnce) {
  const std::vector<float> a = {1.5F, -2.0F, 0.1F, 65504.0F};
  const std::vector<float> b = {0.25F, -3.0F, 0.2F, 65504.0F};
  const auto ha = MakeAs(DT_FLOAT16, {4}, Float16Bits(a));
  const auto hb = MakeAs(DT_FLOAT16, {4}, Float16Bits(b));
  auto r = RunKernel(Op("Max"), {ha, hb}, {{DT_FLOAT16, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), Float16Bits({1.5F, -2.0F, 0.2F, 65504.0F}));
  r = RunKernel(Op("Min"), {ha, hb}, {{DT_FLOAT16, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), Float16Bits({0.25F, -3.0F, 0.1F, 65504.0F}));
  r = RunKernel(Op("Mean"), {ha, hb}, {{DT_FLOAT16, {4}}});  // 65504 + 65504 fits in float
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want;
  for (size_t i = 0; i < a.size(); ++i) {
    want.push_back((ToFloat(ToFloat16(a[i])) + ToFloat(ToFloat16(b[i]))) / 2);
  }
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), Float16Bits(want));
}

TEST(ModKernel, FmodOnIntegersTakesTheDividendsSign) {
  auto op = Op("Mod");
  AttrUtils::SetInt(op, "fmod", 1);
  const std::vector<int64_t> a = {7, -7, 7, -7, 5, std::numeric_limits<int64_t>::lowest()};
  const std::vector<int64_t> b = {3, 3, -3, -3, 0, -1};
  auto r = RunKernel(op, {Make<int64_t>({6}, a), Make<int64_t>({6}, b)}, {{DT_INT64, {6}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<int64_t> want;
  for (size_t i = 0; i < a.size(); ++i) {
    want.push_back(b[i] == 0 || b[i] == -1 ? 0 : a[i] % b[i]);  // C's remainder; x % 0 → 0
  }
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), want);
  EXPECT_EQ(want[1], -1);
}

// The lowest integer divided by -1 does not fit (x86 traps on it): it wraps to the lowest, as
// integer Add, Sub and Mul wrap, in two's complement like ONNX Runtime and numpy.
template <typename T>
void ExpectWrappingIntegerArithmetic(DataType dtype) {
  constexpr T kLow = std::numeric_limits<T>::lowest();
  constexpr T kHigh = std::numeric_limits<T>::max();
  const std::vector<T> a = {kLow, kLow, 7, kHigh};
  const std::vector<T> b = {-1, 1, -1, 2};
  const std::vector<std::pair<const char*, std::vector<T>>> cases = {
      {"Div", {kLow, kLow, -7, kHigh / 2}},
      {"Add", {kHigh, static_cast<T>(kLow + 1), 6, static_cast<T>(kLow + 1)}},
      {"Sub", {static_cast<T>(kLow + 1), kHigh, 8, static_cast<T>(kHigh - 2)}},
      {"Mul", {kLow, kLow, -7, -2}},
  };
  for (const auto& [type, want] : cases) {
    auto r = RunKernel(Op(type), {MakeAs(dtype, {4}, a), MakeAs(dtype, {4}, b)}, {{dtype, {4}}});
    ASSERT_TRUE(r.status.ok()) << type << ": " << r.status.message();
    EXPECT_EQ(r.outputs[0].template Values<T>(), want) << type << " " << static_cast<int>(dtype);
  }
}

TEST(BinaryKernel, IntegerOverflowWrapsInsteadOfTrapping) {
  ExpectWrappingIntegerArithmetic<int32_t>(DT_INT32);
  ExpectWrappingIntegerArithmetic<int64_t>(DT_INT64);
  ExpectWrappingIntegerArithmetic<int8_t>(DT_INT8);
  ExpectWrappingIntegerArithmetic<int16_t>(DT_INT16);
}

TEST(ModKernel, Float16MixedSignsFollowTheDivisor) {
  const std::vector<float> a = {-4.3F, 7.2F, 5.0F, -5.0F};
  const std::vector<float> b = {2.1F, -3.4F, 3.0F, 3.0F};
  auto r = RunKernel(
      Op("Mod"), {MakeAs(DT_FLOAT16, {4}, Float16Bits(a)), MakeAs(DT_FLOAT16, {4}, Float16Bits(b))},
      {{DT_FLOAT16, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want;
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = ToFloat(ToFloat16(a[i])), y = ToFloat(ToFloat16(b[i]));
    float m = std::fmod(x, y);
    if (m != 0 && ((m < 0) != (y < 0))) m += y;  // Python's modulo
    want.push_back(m);
  }
  EXPECT_EQ(r.outputs[0].Values<uint16_t>(), Float16Bits(want));
}

TEST(PowKernel, ExponentOfAnotherDtypeKeepsTheBasesDtype) {
  auto r = RunKernel(
      Op("Pow"),
      {Make<float>({3}, {1.5F, 2.0F, -3.0F}), MakeAs<uint64_t>(DT_UINT64, {3}, {2, 10, 3})},
      {{DT_FLOAT, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{2.25F, 1024.0F, -27.0F}));
  // An integer base with a floating exponent: the float64 power, truncated (not 4^0 = 1).
  r = RunKernel(Op("Pow"), {Make<int32_t>({3}, {4, 2, 3}), Make<float>({3}, {0.5F, 5.0F, 1.5F})},
                {{DT_INT32, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(),
            (std::vector<int32_t>{2, 32, static_cast<int32_t>(std::pow(3.0, 1.5))}));
  r = RunKernel(Op("Pow"), {Make<int64_t>({1}, {2}), Make<float>({1}, {0.5F})}, {{DT_FLOAT, {1}}});
  ExpectError(r.status, "should be DT_INT64");
}

template <typename T>
void ExpectShifts(DataType dtype) {
  constexpr T kBits = sizeof(T) * 8;
  const std::vector<T> x = {16, 4, 1, std::numeric_limits<T>::max(), 3};
  const std::vector<T> s = {1, 2, kBits - 1, 4, kBits};
  for (const char* direction : {"LEFT", "RIGHT"}) {
    auto op = Op("BitShift");
    AttrUtils::SetStr(op, "direction", direction);
    auto r = RunKernel(op, {MakeAs(dtype, {5}, x), MakeAs(dtype, {5}, s)}, {{dtype, {5}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<T> want;
    for (size_t i = 0; i < x.size(); ++i) {
      if (s[i] >= kBits) {
        want.push_back(0);
      } else {
        want.push_back(
            static_cast<T>(std::string(direction) == "LEFT" ? x[i] << s[i] : x[i] >> s[i]));
      }
    }
    EXPECT_EQ(r.outputs[0].template Values<T>(), want)
        << direction << " " << static_cast<int>(dtype);
  }
}

TEST(BitShiftKernel, ShiftsEveryUnsignedWidth) {
  ExpectShifts<uint8_t>(DT_UINT8);
  ExpectShifts<uint16_t>(DT_UINT16);
  ExpectShifts<uint32_t>(DT_UINT32);
  ExpectShifts<uint64_t>(DT_UINT64);
}

TEST(BitShiftKernel, BroadcastsTheShift) {
  auto op = Op("BitShift");
  AttrUtils::SetStr(op, "direction", "RIGHT");
  auto r = RunKernel(op,
                     {MakeAs<uint32_t>(DT_UINT32, {2, 2}, {16, 32, 64, 128}),
                      MakeAs<uint32_t>(DT_UINT32, {2}, {1, 3})},
                     {{DT_UINT32, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint32_t>(), (std::vector<uint32_t>{8, 4, 32, 16}));
}

TEST(BitShiftKernel, RefusesABadDirectionAndSignedInputs) {
  auto op = Op("BitShift", "shift1");
  AttrUtils::SetStr(op, "direction", "UP");
  ExpectError(
      RunKernel(op, {MakeAs<uint8_t>(DT_UINT8, {1}, {1}), MakeAs<uint8_t>(DT_UINT8, {1}, {1})},
                {{DT_UINT8, {1}}})
          .status,
      "'direction' must be LEFT or RIGHT", "shift1");
  AttrUtils::SetStr(op, "direction", "LEFT");
  ExpectError(
      RunKernel(op, {Make<int32_t>({1}, {1}), Make<int32_t>({1}, {1})}, {{DT_INT32, {1}}}).status,
      "not supported", "shift1");
}

}  // namespace
}  // namespace ge::host_cpu
