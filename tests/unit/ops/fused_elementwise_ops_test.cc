// The FusedElementwise prototype: outputs are the broadcast of all inputs, and verify refuses a
// malformed expression program naming the node and the instruction.
#include <gtest/gtest.h>

#include "ge/ops/fused_ops.h"
#include "ops_test_util.h"

namespace ge::testing {
namespace {

OpHarness& WithProgram(OpHarness& h, const std::vector<std::string>& program,
                       const std::vector<int64_t>& outputs) {
  return h.Attr(kAttrEwProgram, AttrValue(program))
      .Attr(kAttrEwOutputRegisters, AttrValue(outputs));
}

TEST(FusedElementwiseOps, EveryOutputIsTheBroadcastOfAllInputs) {
  OpHarness h("FusedElementwise", {{"x", 3}, {"y", 2}});
  WithProgram(h, {"Add r0 r1", "Mul r3 r2", "Sigmoid r4"}, {5, 3});
  h.In(0, {2, 1, 5}).In(1, {3, 1}).In(2, {});
  ASSERT_TRUE(h.Verify().ok()) << h.Verify().ToString();
  ASSERT_TRUE(h.Infer().ok()) << h.Infer().ToString();
  EXPECT_EQ(h.Dims(0), (Dims{2, 3, 5}));
  EXPECT_EQ(h.Dims(1), (Dims{2, 3, 5}));
  EXPECT_EQ(h.OutType(0), DT_FLOAT);
  EXPECT_EQ(h.OutType(1), DT_FLOAT);
  // Unknown dims stay unknown where no input knows them.
  OpHarness dyn("FusedElementwise", {{"x", 2}, {"y", 1}});
  WithProgram(dyn, {"Add r0 r1"}, {2});
  dyn.In(0, {-1, 16}).In(1, {16});
  ASSERT_TRUE(dyn.Infer().ok());
  EXPECT_EQ(dyn.Dims(0), (Dims{-1, 16}));
}

TEST(FusedElementwiseOps, InputsThatDoNotBroadcastAreRefused) {
  OpHarness h("FusedElementwise", {{"x", 2}, {"y", 1}});
  WithProgram(h, {"Add r0 r1"}, {2});
  h.In(0, {2, 3}).In(1, {4});
  ExpectError(h.Infer(), {"node 'op' (FusedElementwise)", "[4]", "[2,3]"});
}

TEST(FusedElementwiseOps, VerifyRefusesAMalformedProgram) {
  struct Case {
    std::vector<std::string> program;
    std::vector<int64_t> outputs;
    const char* cause;
  };
  const std::vector<Case> cases = {
      {{"Add r0 r1", "Explode r2"},
       {3},
       "instruction 1 'Explode r2' (register r3): unknown operation 'Explode'"},
      {{"Add r0 r2"},
       {2},
       "instruction 0 'Add r0 r2' (register r2): register r2 is not defined before this "
       "instruction"},
      {{"Sigmoid r0 r1"}, {2}, "Sigmoid takes 1 operand(s) and 0 parameter(s), got 2 token(s)"},
      {{"Add r0 r1"}, {7}, "output 0 names register r7, not one of r0..r2"},
      {{"Add r0 r1"}, {2, 2}, "'output_registers' names 2 register(s) for 1 output(s)"},
  };
  for (const Case& c : cases) {
    OpHarness h("FusedElementwise", {{"x", 2}, {"y", 1}});
    WithProgram(h, c.program, c.outputs);
    h.In(0, {4}).In(1, {4});
    ExpectError(h.Verify(), {"node 'op' (FusedElementwise)", c.cause});
  }
  OpHarness missing("FusedElementwise", {{"x", 1}, {"y", 1}});
  missing.In(0, {4});
  ExpectError(missing.Verify(), {"node 'op' (FusedElementwise)", "program"});
  OpHarness ints("FusedElementwise", {{"x", 1}, {"y", 1}});
  WithProgram(ints, {"Relu r0"}, {1});
  ints.In(0, {4}, DT_INT32);
  ExpectError(ints.Verify(), {"node 'op' (FusedElementwise)", "DT_INT32"});
}

}  // namespace
}  // namespace ge::testing
