// The compiler's passes, one factory each (the pass list in compiler.cc lists them in order).
#pragma once

#include <memory>
#include <string>

#include "ge/compiler/graph_pass.h"

namespace ge {

// ---- prepare ----
/// "ApplyInputShapes": gives Data nodes the shapes of ge.inputShape (by input name).
std::unique_ptr<GraphPass> CreateApplyInputShapesPass();
/// "VerifyNodes": every node's type has a prototype (all unknown types in one error).
std::unique_ptr<GraphPass> CreateVerifyNodesPass();
/// "LoadFileConstants": FileConstant nodes become Consts of their file's bytes (mapped), after
/// the checks of their attributes against the file.
std::unique_ptr<GraphPass> CreateLoadFileConstantsPass();
/// "InferShape" (or `name`): sorts every graph topologically and, in that order, verifies each
/// node against its prototype (required inputs, typed attributes, dtypes) and infers its dtypes
/// and shapes, subgraphs included (their Data nodes take the parent's inputs; If/Case/
/// PartitionedCall outputs come from the branches' NetOutputs).
std::unique_ptr<GraphPass> CreateInferShapePass(std::string name = "InferShape");
/// "SymbolicShapes" (`fold`) or "SymbolicShapesFinal": the dims known only at run time as
/// expressions over the input dims' names (kAttrSymbolicDims); with `fold`, shape arithmetic that
/// needs no values becomes Consts and computed Reshape targets constant ones
/// (src/compiler/passes/symbolic_shape_pass.cc).
std::unique_ptr<GraphPass> CreateSymbolicShapePass(bool fold);

// ---- optimize ----
/// "ConstantFolding": runs host kernels on nodes whose inputs are constants (and the Shape family
/// on known shapes), replacing them with Const nodes, within openge.constantFoldingMaxBytes.
std::unique_ptr<GraphPass> CreateConstantFoldingPass();
/// "RemoveIdentity": bypasses Identity-like nodes (Identity, IdentityN, Snapshot, StopGradient,
/// PreventGradient, GuaranteeConst, RefIdentity, PlaceholderWithDefault, inference Dropout).
std::unique_ptr<GraphPass> CreateRemoveIdentityPass();
/// "SimplifyChains": Reshape-like chains, Transpose pairs and lossless Cast pairs.
std::unique_ptr<GraphPass> CreateSimplifyChainsPass();
/// "CommonSubexpressionElimination": merges nodes with the same type, inputs and attributes,
/// and Consts with the same value.
std::unique_ptr<GraphPass> CreateCsePass();
/// "DeadCodeElimination": removes nodes that reach no output, and subgraphs no node uses.
std::unique_ptr<GraphPass> CreateDeadCodeEliminationPass();
/// "InPlaceConcat": concatenations whose pieces can be written in place become PhonyConcat, and
/// equal splits whose pieces can be read in place PhonySplit; no copy runs for either
/// (src/compiler/passes/in_place_concat_pass.cc).
std::unique_ptr<GraphPass> CreateInPlaceConcatPass();
/// Fusion under a cost model: convolutions absorb the activation chains after them as
/// post-ops where their engine supports it (src/compiler/passes/fusion_pass.cc).
std::unique_ptr<GraphPass> CreateFusionPass();

/// Removes TransData pairs that cancel (NCHW -> NC1HWC0 -> NCHW on one tensor), after the
/// engines' layout hooks (src/compiler/passes/transdata_pairs_pass.cc).
std::unique_ptr<GraphPass> CreateRemoveTransDataPairsPass();

}  // namespace ge
