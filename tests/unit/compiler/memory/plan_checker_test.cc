// Tests of CheckMemoryPlan on hand-made plans.
#include <gtest/gtest.h>

#include "ge/compiler/memory/plan_options.h"

namespace ge::memory {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TensorPlan Tensor(const std::string& node, int64_t offset, int64_t size, int64_t first,
                  int64_t last) {
  TensorPlan t;
  t.node = node;
  t.op_type = "Op";
  t.output_index = 0;
  t.offset = offset;
  t.size = size;
  t.first_step = first;
  t.last_step = last;
  return t;
}

MemoryPlan TwoTensors(int64_t second_offset, int64_t second_first) {
  MemoryPlan plan;
  plan.arena_bytes = 256;
  plan.tensors = {Tensor("a", 0, 128, 0, 2), Tensor("b", second_offset, 128, second_first, 4)};
  return plan;
}

TEST(CheckMemoryPlan, AcceptsDisjointBytesOrDisjointTimes) {
  EXPECT_TRUE(CheckMemoryPlan(TwoTensors(128, 0)).ok());
  EXPECT_TRUE(CheckMemoryPlan(TwoTensors(0, 3)).ok());
}

TEST(CheckMemoryPlan, CatchesOverlappingLiveTensorsNamingBoth) {
  Status status = CheckMemoryPlan(TwoTensors(64, 2));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "'a:out0'"));
  EXPECT_TRUE(Contains(status.message(), "'b:out0'"));
  EXPECT_TRUE(Contains(status.message(), "overlap"));
}

TEST(CheckMemoryPlan, AliasesMayOverlapTheirRoot) {
  MemoryPlan plan = TwoTensors(0, 2);
  plan.tensors[1].alias_of = 0;
  EXPECT_TRUE(CheckMemoryPlan(plan).ok());
}

TEST(CheckMemoryPlan, AnAliasGroupIsOneBlockForOthers) {
  // c overlaps b, which aliases a: b's bytes and steps belong to a's block.
  MemoryPlan plan = TwoTensors(0, 2);
  plan.tensors[1].alias_of = 0;
  plan.tensors.push_back(Tensor("c", 0, 64, 4, 5));
  Status status = CheckMemoryPlan(plan);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "'c:out0'"));
}

TEST(CheckMemoryPlan, CatchesMisalignmentAndOverrun) {
  MemoryPlan misaligned = TwoTensors(160, 0);
  misaligned.arena_bytes = 512;
  Status status = CheckMemoryPlan(misaligned);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "aligned"));
  MemoryPlan overrun = TwoTensors(128, 0);
  overrun.arena_bytes = 192;
  status = CheckMemoryPlan(overrun);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "ends past"));
}

TEST(CheckMemoryPlan, CatchesBadAliasChains) {
  MemoryPlan plan = TwoTensors(128, 0);
  plan.tensors[0].alias_of = 1;
  plan.tensors[1].alias_of = 0;
  Status status = CheckMemoryPlan(plan);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "loops"));
  plan.tensors[0].alias_of = -1;
  plan.tensors[1].region = Region::kOutput;
  plan.output_bytes = 256;
  status = CheckMemoryPlan(plan);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Contains(status.message(), "another region"));
}

TEST(CheckMemoryPlan, RegionsAreSeparateAddressSpaces) {
  MemoryPlan plan = TwoTensors(0, 0);
  plan.tensors[1].region = Region::kWeight;
  plan.weight_bytes = 128;
  EXPECT_TRUE(CheckMemoryPlan(plan).ok());
}

}  // namespace
}  // namespace ge::memory
