// Names the GE Local engine shares with GE: engine, store, optimizer, options and attributes.
#pragma once

#include <cstdint>

namespace ge::ge_local {

inline constexpr char kEngineName[] = "DNN_VM_GE_LOCAL";
inline constexpr char kOpsKernelLibName[] = "DNN_VM_GE_LOCAL_OP_STORE";
inline constexpr char kGraphOptimizerName[] = "ge_local_graph_optimizer";

/// The option that decides whether constant folding removes Size/Shape/ShapeN/Rank.
inline constexpr char kOptionConstantFolding[] = "ge.oo.constantFolding";

// Attributes set on nodes.
inline constexpr char kAttrNoTask[] = "_no_task";
inline constexpr char kAttrNoPaddingContinuousInput[] = "_no_padding_continuous_input";
inline constexpr char kAttrNoPaddingContinuousOutput[] = "_no_padding_continuous_output";
inline constexpr char kAttrOutputReuseInput[] = "_output_reuse_input";
inline constexpr char kAttrReuseInputOnDimIndex[] = "_reuse_input_on_dim_index";
inline constexpr char kAttrOutputOffsetListForContinuous[] = "_output_offset_list_for_continuous";
inline constexpr char kAttrInputOffsetListForContinuous[] = "_input_offset_list_for_continuous";
inline constexpr char kAttrUnknownShapeType[] = "_unknown_shape_type";
/// GE's UnknowShapeOpType DEPEND_COMPUTE: output shapes are known only after the op ran.
inline constexpr int64_t kDependCompute = 4;

// Attributes read from nodes.
inline constexpr char kAttrConcatDim[] = "concat_dim";
inline constexpr char kAttrN[] = "N";
inline constexpr char kAttrKeepInputOffset[] = "keep_input_offset";
inline constexpr char kAttrSplitDim[] = "split_dim";
inline constexpr char kAttrNumSplit[] = "num_split";
inline constexpr char kAttrKeepOutputOffset[] = "keep_output_offset";
inline constexpr char kAttrLength[] = "length";
inline constexpr char kAttrValue[] = "value";

// Op types with special handling.
inline constexpr char kData[] = "Data";
inline constexpr char kRefData[] = "RefData";
inline constexpr char kAippData[] = "AippData";
inline constexpr char kAnnData[] = "AnnData";
inline constexpr char kConst[] = "Const";
inline constexpr char kConstant[] = "Constant";
inline constexpr char kFileConstant[] = "FileConstant";
inline constexpr char kPhonyConcat[] = "PhonyConcat";
inline constexpr char kPhonySplit[] = "PhonySplit";
inline constexpr char kPartitionedCall[] = "PartitionedCall";
inline constexpr char kStackPop[] = "StackPop";
inline constexpr char kMerge[] = "Merge";

/// Continuous buffers and PhonyConcat/PartitionedCall outputs are aligned to this many bytes.
inline constexpr int64_t kAlignBytes = 32;

}  // namespace ge::ge_local
