// GE Local's operator types as GE lists them (test data shared by the engine's tests and the
// graph-API tests that build a graph of every type).
#pragma once

#include <string>
#include <vector>

namespace ge::ge_local_types {

/// GE's NoOp types (44), which succeed at task generation.
inline const std::vector<std::string> kGeNoOpTypes = {"Data",
                                                      "RefData",
                                                      "QueueData",
                                                      "AippData",
                                                      "NoOp",
                                                      "Variable",
                                                      "Constant",
                                                      "Const",
                                                      "ControlTrigger",
                                                      "Merge",
                                                      "FileConstant",
                                                      "ConstPlaceHolder",
                                                      "If",
                                                      "_If",
                                                      "StatelessIf",
                                                      "Case",
                                                      "StatelessCase",
                                                      "While",
                                                      "_While",
                                                      "StatelessWhile",
                                                      "For",
                                                      "PartitionedCall",
                                                      "StatefulPartitionedCall",
                                                      "OpTiling",
                                                      "ConditionCalc",
                                                      "UnfedData",
                                                      "Stack",
                                                      "StackPush",
                                                      "StackPop",
                                                      "StackClose",
                                                      "Reshape",
                                                      "Bitcast",
                                                      "PhonyConcat",
                                                      "PhonySplit",
                                                      "Flatten",
                                                      "FlattenV2",
                                                      "ExpandDims",
                                                      "ReFormat",
                                                      "Squeeze",
                                                      "Unsqueeze",
                                                      "SqueezeV2",
                                                      "UnsqueezeV2",
                                                      "SqueezeV3",
                                                      "UnsqueezeV3"};

/// ONNX's functional operators, which OpenGE's GE Local also owns (GE lowers them before).
inline const std::vector<std::string> kOnnxFunctionalTypes = {"Loop", "Scan"};

/// GeDeletedOp types that a framework's conversion removes (no pass here does).
inline const std::vector<std::string> kFrameworkDeletedTypes = {"TemporaryVariable",
                                                                "DestroyTemporaryVariable",
                                                                "_Retval",
                                                                "ReadVariableOp",
                                                                "VarHandleOp",
                                                                "VarIsInitializedOp",
                                                                "VariableV2",
                                                                "Empty",
                                                                "IsVariableInitialized",
                                                                "PlaceholderV2",
                                                                "Placeholder",
                                                                "End",
                                                                "Switch",
                                                                "RefMerge",
                                                                "RefSwitch",
                                                                "TransShape",
                                                                "GatherShapes"};
/// GeDeletedOp types constant folding removes (tied to ge.oo.constantFolding).
inline const std::vector<std::string> kConstantFoldedTypes = {"Size", "Shape", "ShapeN", "Rank"};
/// GeDeletedOp types identity removal bypasses.
inline const std::vector<std::string> kIdentityTypes = {
    "GuaranteeConst", "PreventGradient", "StopGradient", "Snapshot",
    "RefIdentity",    "Identity",        "IdentityN",    "PlaceholderWithDefault"};

}  // namespace ge::ge_local_types
