// What the compiler's fusion pass writes on a fused node and engines read (issue 11).
//
// A producer (a convolution, a matmul) that absorbed the elementwise nodes after it carries:
//   _fused_post_ops  list of strings, applied in order to its output: "Relu", "LeakyRelu:<alpha>",
//                    "Clip:<min>:<max>", "Sigmoid", "Tanh", "Elu:<alpha>", "HardSwish",
//                    "Gelu" (erf), "GeluTanh"
//   _fused_from      list of strings: the names of every original node the fused node stands
//                    for, itself first (dumps and the compile report show them)
//   _fused_pattern   string: the pattern that made it, e.g. "Conv2D+Relu"
// An engine that supports a fused node says so in CheckSupported; the pass only fuses what the
// engine that takes the unfused producer also takes fused.
#pragma once

namespace ge {

inline constexpr char kAttrFusedPostOps[] = "_fused_post_ops";
inline constexpr char kAttrFusedFrom[] = "_fused_from";
inline constexpr char kAttrFusedPattern[] = "_fused_pattern";

}  // namespace ge
