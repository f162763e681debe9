// What the compiler's fusion pass writes on a fused node and engines read.
//
// A producer (a convolution, a matmul) that absorbed the elementwise nodes after it carries:
//   _fused_post_ops  list of strings, applied in order to its output: "Relu", "LeakyRelu:<alpha>",
//                    "Clip:<min>:<max>", "Sigmoid", "Tanh", "Elu:<alpha>", "HardSwish",
//                    "HardSigmoid:<alpha>:<beta>", "Swish" (x * sigmoid(x)), "Gelu" (erf),
//                    "GeluTanh", and "Sum": add the node's input 3 "addend" (a
//                    residual of the output's shape; first, or right after a fused bias)
//   _fused_from      list of strings: the names of every original node the fused node stands
//                    for, itself first (dumps and the compile report show them)
//   _fused_pattern   string: the pattern that made it, e.g. "Conv2D+Relu"
// An engine that supports a fused node says so in CheckSupported; the pass only fuses what the
// engine that takes the unfused producer also takes fused.
//
// FusedElementwise (elementwise fusion; ge/ops/fused_elementwise.h decodes it): float32 only,
// dynamic inputs x0..x(N-1), dynamic outputs y0..y(M-1), every output the numpy broadcast of all
// inputs. An expression program over registers r0, r1, ...: r0..r(N-1) are the inputs, and
// instruction k of `program` writes register r(N+k).
//   program           list of strings, one instruction each: "<Op> <operand>... <param>...",
//                     tokens separated by one space. An operand is a register "r<k>" (defined
//                     before the instruction) or an immediate float ("%.9g"); at least one
//                     operand is a register. Params are float literals.
//                       binary  Add Sub Mul Div Max Min Pow            e.g. "Div r2 1.41421354"
//                       unary   Relu Sigmoid Tanh Exp Log Sqrt Rsqrt Neg Abs Erf Reciprocal
//                               Floor Ceil HardSwish Gelu (erf) GeluTanh Softplus
//                       params  "LeakyRelu x alpha", "Elu x alpha", "Clip x lo hi",
//                               "HardSigmoid x alpha beta"
//   output_registers  list of ints: output k is register output_registers[k].
#pragma once

namespace ge {

inline constexpr char kAttrFusedPostOps[] = "_fused_post_ops";
inline constexpr char kAttrFusedFrom[] = "_fused_from";
inline constexpr char kAttrFusedPattern[] = "_fused_pattern";
inline constexpr char kAttrEwProgram[] = "program";
inline constexpr char kAttrEwOutputRegisters[] = "output_registers";

}  // namespace ge
