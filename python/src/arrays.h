// NumPy arrays in and out of the runtime: inputs borrowed from the caller's buffer when they can
// be, outputs handed over to NumPy without a copy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "ge/graph/composite_value.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/types.h"

namespace openge_py {

namespace py = pybind11;

/// ONNX Runtime's name of a tensor type: "tensor(float)", "tensor(int64)", ...
std::string OnnxTypeName(ge::DataType dtype);

/// The NumPy dtype of `dtype`, or nullopt when NumPy has none (bfloat16, strings, ...).
std::optional<py::dtype> NumpyDtypeOf(ge::DataType dtype);

/// A run input made from a Python value.
struct InputTensor {
  ge::GeTensor tensor;
  bool copied = false;  ///< the value was not a C-contiguous array of the input's dtype
};

/// Makes the tensor of input `name` (of type `dtype`) from `value`. A C-contiguous, aligned
/// ndarray of that dtype is borrowed: the tensor points at its buffer and keeps the array alive.
/// Other arrays (strided views, Fortran order) and array-likes (lists, scalars) are copied. An
/// ndarray of another dtype is an InputError naming the input and both types, as ONNX Runtime
/// reports it. Needs the GIL.
InputTensor TensorFromValue(const py::handle& value, const std::string& name, ge::DataType dtype);

/// An ndarray that owns `tensor`'s bytes (moved in, not copied; a tensor whose bytes are shared
/// with another is copied first, so writing into the array never reaches a weight or an input).
py::array ArrayFromTensor(ge::GeTensor tensor, const std::string& name);

/// The stored sequence or optional (ge/graph/composite_value.h) of input `name` of `type` from a
/// Python value: a list (or tuple) for a sequence, None or the value for an optional, and arrays
/// or array-likes for the tensors in them (copied).
ge::GeTensor CompositeFromValue(const py::handle& value, const std::string& name,
                                const ge::ValueType& type);
/// ArrayFromTensor for a tensor; for a sequence a list of what it holds, for an optional None or
/// what it holds (as ONNX Runtime returns them).
py::object ValueFromTensor(ge::GeTensor tensor, const std::string& name);
/// ONNX Runtime's name of a value type: composite_value.h's with "optional(" for "opt(".
std::string OnnxValueTypeName(const std::string& value_type);

/// A read-only ndarray over `tensor`'s bytes, which it shares (no copy); None for a dtype NumPy
/// has no type for.
py::object ReadOnlyArray(const ge::GeTensor& tensor);

}  // namespace openge_py
