// Graphs the cost model's tests compile and run: one task worth every thread beside one worth
// one, and two branches of small tasks that parallel streams suit.
#pragma once

#include <string>

#include "compiler_test_util.h"

namespace ge::testing {

/// x [rows, 512] -> a matrix product "mm" by a 512 x 512 weight (worth every thread), and a
/// Tanh "tiny_tanh" of the 16 values of input "tiny" (worth one); both are outputs.
inline ComputeGraphPtr LargeAndTiny(int64_t rows) {
  ProtoGraph b("large_and_tiny");
  NodePtr x = b.Data("x", {rows, 512});
  NodePtr w =
      b.Const<float>("w", DT_FLOAT, {512, 512}, RandomFloats(size_t{512} * 512, 3, -0.5F, 0.5F));
  NodePtr mm = b.Op("MatMulV2", "mm", {{x, 0}, {w, 0}});
  NodePtr tiny = b.Data("tiny", {16});
  NodePtr t = b.Op("Tanh", "tiny_tanh", {{tiny, 0}});
  b.Output({{mm, 0}, {t, 0}});
  return b.graph();
}

/// Two independent branches joined by an Add: a chain of `length` Tanh and one of `length`
/// Sigmoid (different, so that common-subexpression elimination keeps both) over `elements`
/// values.
inline ComputeGraphPtr TwoChains(int64_t elements, int length) {
  ProtoGraph b("two_chains");
  NodePtr x = b.Data("x", {elements});
  NodePtr ends[2];
  for (int branch = 0; branch < 2; ++branch) {
    NodePtr current = x;
    for (int i = 0; i < length; ++i) {
      current = b.Op(branch == 0 ? "Tanh" : "Sigmoid",
                     "b" + std::to_string(branch) + "_" + std::to_string(i), {{current, 0}});
    }
    ends[branch] = current;
  }
  b.Output({{b.Op("Add", "join", {{ends[0], 0}, {ends[1], 0}}), 0}});
  return b.graph();
}

}  // namespace ge::testing
