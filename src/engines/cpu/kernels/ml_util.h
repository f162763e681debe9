// Pieces the ai.onnx.ml kernels share: post_transform, reading the features as doubles, and
// reading an attribute given as a list of floats or as a tensor (ai.onnx.ml 3's `_as_tensor`
// forms, and the tensors of TreeEnsemble).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "kernel_util.h"

namespace ge::host_cpu {

/// ai.onnx.ml's post_transform; the values are TreeEnsemble's (ai.onnx.ml 5) numbering.
enum class Post : int64_t { kNone = 0, kSoftmax = 1, kLogistic = 2, kSoftmaxZero = 3, kProbit = 4 };

/// The standard normal quantile of p (the inverse of Phi).
double Probit(double p);
/// 1 / (1 + exp(-x)).
double Logistic(double x);
/// Applies `post` to one row of scores (SOFTMAX and SOFTMAX_ZERO over the whole row).
void PostTransform(Post post, std::vector<double>& v);
/// The post_transform named `name` (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT); false when
/// the name is none of them.
bool PostTransformNamed(const std::string& name, Post* post);

/// The input as doubles, row-major: rows x features (a 1-D input is one row).
Status ReadFeatures(const KernelTensor& x, std::vector<double>& values, int64_t& rows,
                    int64_t& features);

/// The values of tensor attribute `name` as doubles (any numeric or half dtype).
Status TensorAttrDoubles(const OpDesc& op, const std::string& name, std::vector<double>* out);
/// Attribute `name` as doubles: `name`_as_tensor when the node has it, else the float list
/// `name` (empty when neither is there).
Status FloatsOrTensor(const OpDesc& op, const std::string& name, std::vector<double>* out);
/// A string-list attribute (empty when absent).
std::vector<std::string> AttrStrings(const OpDesc& op, const std::string& name);

void RegisterMlTreeKernels(KernelTable& t);
void RegisterMlClassifierKernels(KernelTable& t);
void RegisterMlLabelKernels(KernelTable& t);

}  // namespace ge::host_cpu
