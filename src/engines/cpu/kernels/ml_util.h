// Pieces the ai.onnx.ml kernels share: post_transform, reading the features as doubles, reading
// an attribute given as a list of floats or as a tensor (ai.onnx.ml 3's `_as_tensor` forms, and
// the tensors of TreeEnsemble), and the classifiers' labels (int64 or string).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/graph/op_desc.h"
#include "ge/graph/status.h"
#include "ge/graph/string_tensor.h"
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

/// A classifier's labels: its int64 list (classlabels_int64s or classlabels_ints) or
/// classlabels_strings, whichever the node sets; the label output Y has their dtype. The kernel
/// chooses a label by its index and Write puts it in Y; a string label's head points at the
/// string held here, which lives as long as the kernel (no copy into the run's store).
class ClassLabels {
 public:
  /// Reads them from `op`, `ints_attr` naming the int64 form. An error naming both attributes
  /// when the node sets both, or (when `required`) neither.
  Status Read(const OpDesc& op, const std::string& ints_attr, bool required);
  /// Replaces them by "0" and "1" (0 and 1 when int64), keeping their dtype.
  void UseZeroAndOne();

  size_t size() const { return strings_ ? names_.size() : ints_.size(); }
  DataType dtype() const { return strings_ ? DT_STRING : DT_INT64; }
  /// The attribute they come from.
  const std::string& attr() const { return attr_; }
  /// "int64" or "string", for messages about Y.
  const char* dtype_name() const { return strings_ ? "string" : "int64"; }
  /// Makes element `row` of the label output `y` label `index` (< size()).
  void Write(void* y, int64_t row, size_t index) const {
    if (strings_) {
      WriteString(y, row, names_[index]);
    } else {
      static_cast<int64_t*>(y)[row] = ints_[index];
    }
  }

 private:
  std::string attr_;
  bool strings_ = false;
  std::vector<int64_t> ints_;
  std::vector<std::string> names_;
};

void RegisterMlTreeKernels(KernelTable& t);
void RegisterMlClassifierKernels(KernelTable& t);
void RegisterMlLabelKernels(KernelTable& t);

}  // namespace ge::host_cpu
