// What a CPU engine task does, for the compiler's cost model (OpsKernelInfoStore::WorkOf).
//
// Matrix products, convolutions and attention count their multiply-adds as dense arithmetic;
// everything else counts output elements weighted by what one costs (an add 1, an exp or a
// normalisation about 8, a copy half, a pooling window its area). The weights only rank tasks
// against each other: `gec calibrate` measures what a dense flop and an elementwise op take on
// the machine.
#include "op_work.h"

#include <set>

#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/fused_ops.h"
#include "kernels/cpu_kernel.h"

namespace ge::host_cpu {
namespace {

// Below this many input channels per group, a grouped convolution runs at elementwise rates.
constexpr int64_t kDenseChannelsPerGroup = 16;

bool Is(const std::string& type, const std::set<std::string>& types) {
  return types.count(type) != 0;
}

// The logical dims of input `i`: a weight stored in oneDNN's layout keeps them as its origin.
std::vector<int64_t> LogicalDims(const OpDesc& op, uint32_t i) {
  const GeTensorDesc& desc = op.GetInputDesc(i);
  if (i == 1 && AttrUtils::HasAttr(op, kAttrCpuWeightLayout))
    return desc.GetOriginShape().GetDims();
  return desc.GetShape().GetDims();
}

double Product(const std::vector<int64_t>& dims, size_t from = 0) {
  double p = 1;
  for (size_t i = from; i < dims.size(); ++i) p *= static_cast<double>(dims[i]);
  return p;
}

// Element-ops per output element of the types that are dearer than an add.
double ElementCost(const std::string& type) {
  static const std::set<std::string> kTranscendental = {"Exp",
                                                        "Log",
                                                        "Tanh",
                                                        "Sigmoid",
                                                        "Erf",
                                                        "Gelu",
                                                        "Softplus",
                                                        "Pow",
                                                        "Sin",
                                                        "Cos",
                                                        "SoftmaxV2",
                                                        "LogSoftmaxV2",
                                                        "Swish",
                                                        "HardSwish",
                                                        "Elu",
                                                        "Selu",
                                                        "Mish",
                                                        "LayerNorm",
                                                        "SkipLayerNorm",
                                                        "GroupNorm",
                                                        "InstanceNorm",
                                                        "LRN",
                                                        "LpNormalization",
                                                        "MeanVarianceNormalization"};
  static const std::set<std::string> kMoves = {
      "Transpose",      "ConcatV2",     "Split",   "Slice",   "StridedSlice", "GatherV2",
      "GatherElements", "Tile",         "Expand",  "PadV3",   "TransData",    "Cast",
      "DepthToSpace",   "SpaceToDepth", "Reshape", "Squeeze", "Unsqueeze",    "Flatten"};
  if (Is(type, kTranscendental)) return 8.0;
  if (Is(type, kMoves)) return 0.5;
  if (type == "Sqrt" || type == "Rsqrt" || type == "RealDiv" || type == "Div") return 2.0;
  return 1.0;
}

}  // namespace

std::optional<OpWork> WorkOfNode(const OpDesc& op) {
  const std::string& type = op.GetType();
  OpWork w;
  if (type == "NetOutput") {
    w.parallel = false;
    return w;
  }
  // A gather or slice reads what it writes of its first input, not all of it (an embedding
  // lookup touches a few rows of a table of hundreds of MiB).
  const bool reads_part =
      Is(type, {"GatherV2", "Gather", "GatherElements", "GatherNd", "Slice", "StridedSlice"});
  double out_bytes = 0;
  double out_elements = 0;
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
    const int64_t bytes = TensorUtils::CalcTensorMemSize(desc);
    if (bytes < 0) return std::nullopt;  // a shape known only at run time
    out_bytes += static_cast<double>(bytes);
    out_elements += static_cast<double>(std::max<int64_t>(desc.GetShape().GetShapeSize(), 1));
  }
  w.bytes = out_bytes;
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    const GeTensorDesc* desc = op.GetInputDescPtr(static_cast<uint32_t>(i));
    if (desc == nullptr || desc->GetDataType() == DT_UNDEFINED) continue;  // an absent input
    const int64_t bytes = TensorUtils::CalcTensorMemSize(*desc);
    if (bytes < 0) return std::nullopt;
    w.bytes += i == 0 && reads_part ? out_bytes : static_cast<double>(bytes);
  }
  std::vector<std::string> post_ops;
  (void)AttrUtils::GetListStr(op, kAttrFusedPostOps, post_ops);
  for (const std::string& spec : post_ops) {  // "Name[:arg...]"
    w.elementwise_ops += out_elements * ElementCost(spec.substr(0, spec.find(':')));
  }

  w.library_call =
      Is(type, {"MatMulV2", "MatMul", "BatchMatMulV2", "BatchMatMul", "Gemm", "Conv2D", "Conv",
                "Conv3D", "DepthwiseConv2D", "ConvTranspose", "Conv2DTranspose", "Conv3DTranspose",
                "FusedAttention", "MaxPool", "AvgPool", "MaxPoolV3", "AvgPoolV2", "TransData"});
  if (Is(type, {"MatMulV2", "MatMul", "BatchMatMulV2", "BatchMatMul", "Gemm"})) {
    // Each output element is a dot product over the reduced dim of the left operand.
    const std::vector<int64_t> a = LogicalDims(op, 0);
    bool transposed = false;
    int64_t trans_a = 0;
    if (type == "Gemm") {
      (void)AttrUtils::GetInt(op, "transA", trans_a);
      transposed = trans_a != 0;
    } else {
      (void)AttrUtils::GetBool(op, type == "BatchMatMulV2" ? "adj_x1" : "transpose_x1", transposed);
    }
    const size_t rank = a.size();
    const size_t at = transposed && rank >= 2 ? rank - 2 : rank - 1;
    const double k = rank == 0 ? 1.0 : static_cast<double>(a[at]);
    w.dense_flops = 2 * out_elements * k;
  } else if (Is(type, {"Conv2D", "Conv", "Conv3D", "DepthwiseConv2D"})) {
    // Filter [O, I/groups, kernel...]: each output element reads I/groups x kernel inputs. With
    // few channels per group (a depthwise convolution has one) there is no matrix product to
    // run at dense rates: each multiply-add is an elementwise op.
    const std::vector<int64_t> filter = LogicalDims(op, 1);
    const double per_output = Product(filter, 1);
    int64_t groups = 1;
    (void)AttrUtils::GetInt(op, "group", groups);
    if (groups > 1 && filter.size() >= 2 && filter[1] < kDenseChannelsPerGroup) {
      w.elementwise_ops += out_elements * per_output;
    } else {
      w.dense_flops = 2 * out_elements * per_output;
    }
  } else if (Is(type, {"ConvTranspose", "Conv2DTranspose", "Conv3DTranspose"})) {
    // Filter [I, O/groups, kernel...]: each input element spreads over O/groups x kernel.
    w.dense_flops = 2 * Product(LogicalDims(op, 0)) * Product(LogicalDims(op, 1), 1);
  } else if (type == "FusedAttention") {
    // q [.., S, D], v [.., Sk, D]: scores and their weighted sum, 2 x S x Sk x D each, and a
    // softmax over the S x Sk scores.
    const std::vector<int64_t> q = LogicalDims(op, 0);
    const std::vector<int64_t> v = LogicalDims(op, 2);
    const double sk = v.size() >= 2 ? static_cast<double>(v[v.size() - 2]) : 1.0;
    const double d = q.empty() ? 1.0 : static_cast<double>(q.back());
    w.dense_flops = 4 * Product(q) * sk;
    w.elementwise_ops += 8 * Product(q) / std::max(d, 1.0) * sk;
  } else if (Is(type, {"MaxPool", "AvgPool", "MaxPoolV3", "AvgPoolV2", "LpPool"})) {
    std::vector<int64_t> window;
    (void)AttrUtils::GetListInt(op, "kernel_shape", window);
    w.elementwise_ops += out_elements * Product(window);
  } else if (type.rfind("Reduce", 0) == 0 || type == "GlobalAveragePool" ||
             type == "GlobalMaxPool" || type == "ArgMax" || type == "ArgMin") {
    w.elementwise_ops +=
        static_cast<double>(std::max<int64_t>(op.GetInputDesc(0).GetShape().GetShapeSize(), 1));
  } else if (type == "FusedElementwise") {
    std::vector<std::string> program;
    (void)AttrUtils::GetListStr(op, kAttrEwProgram, program);
    w.elementwise_ops +=
        out_elements * 2 * static_cast<double>(std::max<size_t>(program.size(), 1));
  } else {
    w.elementwise_ops += out_elements * ElementCost(type);
  }
  return w;
}

}  // namespace ge::host_cpu
