// NumPy arrays in and out of the runtime.
#include "arrays.h"

#include <Python.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "errors.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/string_tensor.h"

namespace openge_py {
namespace {

struct TypeNames {
  ge::DataType dtype;
  const char* onnx;   // ONNX Runtime's tensor(...) name
  const char* numpy;  // NumPy's dtype name, or nullptr
};

constexpr TypeNames kTypes[] = {
    {ge::DT_FLOAT, "float", "float32"},
    {ge::DT_FLOAT16, "float16", "float16"},
    {ge::DT_DOUBLE, "double", "float64"},
    {ge::DT_BF16, "bfloat16", nullptr},
    {ge::DT_INT8, "int8", "int8"},
    {ge::DT_INT16, "int16", "int16"},
    {ge::DT_INT32, "int32", "int32"},
    {ge::DT_INT64, "int64", "int64"},
    {ge::DT_UINT8, "uint8", "uint8"},
    {ge::DT_UINT16, "uint16", "uint16"},
    {ge::DT_UINT32, "uint32", "uint32"},
    {ge::DT_UINT64, "uint64", "uint64"},
    {ge::DT_BOOL, "bool", "bool"},
    {ge::DT_STRING, "string", nullptr},
    {ge::DT_COMPLEX64, "complex64", "complex64"},
    {ge::DT_COMPLEX128, "complex128", "complex128"},
};

const TypeNames* Find(ge::DataType dtype) {
  for (const TypeNames& t : kTypes) {
    if (t.dtype == dtype) return &t;
  }
  return nullptr;
}

std::string TypeNameOfArray(const py::array& array) {
  for (const TypeNames& t : kTypes) {
    if (t.numpy != nullptr && array.dtype().is(py::dtype(t.numpy))) {
      return std::string("tensor(") + t.onnx + ")";
    }
  }
  return "numpy " + py::str(array.dtype()).cast<std::string>();
}

std::vector<int64_t> DimsOf(const py::array& array) {
  std::vector<int64_t> dims;
  dims.reserve(static_cast<size_t>(array.ndim()));
  for (py::ssize_t i = 0; i < array.ndim(); ++i) dims.push_back(array.shape(i));
  return dims;
}

// Bytes borrowed from a Python object: the object is kept alive (a reference held) until the last
// tensor sharing the bytes lets go, which may happen on a thread without the GIL.
std::shared_ptr<const uint8_t> Borrow(const py::array& array) {
  PyObject* owner = array.ptr();
  Py_INCREF(owner);
  return {static_cast<const uint8_t*>(array.data()), [owner](const uint8_t*) {
            py::gil_scoped_acquire gil;
            Py_DECREF(owner);
          }};
}

}  // namespace

std::string OnnxTypeName(ge::DataType dtype) {
  const TypeNames* t = Find(dtype);
  if (t == nullptr) return "tensor(" + ge::TypeUtils::DataTypeToSerialString(dtype) + ")";
  return std::string("tensor(") + t->onnx + ")";
}

std::optional<py::dtype> NumpyDtypeOf(ge::DataType dtype) {
  const TypeNames* t = Find(dtype);
  if (t == nullptr || t->numpy == nullptr) return std::nullopt;
  return py::dtype(t->numpy);
}

namespace {

// A string input from an array of str or bytes (NumPy kinds U, S and O) or from a list or scalar
// of them: each str as UTF-8, each bytes as is; always a copy, in GE's stored form.
InputTensor StringTensorFromValue(const py::handle& value, const std::string& name) {
  py::module_ numpy = py::module_::import("numpy");
  py::array array;
  try {
    array = numpy.attr("asarray")(value);
  } catch (const py::error_already_set& e) {
    throw BindingError(
        ErrorKind::kInput,
        "input '" + name + "': cannot make a tensor(string) of it (" + e.what() + ")");
  }
  const char kind = array.dtype().kind();
  if (kind != 'U' && kind != 'S' && kind != 'O') {
    throw BindingError(ErrorKind::kInput, "input '" + name + "': unexpected data type " +
                                              TypeNameOfArray(array) +
                                              ", expected tensor(string) (str or bytes values)");
  }
  const py::list flat = array.attr("ravel")().attr("tolist")();
  std::vector<std::string> values;
  values.reserve(flat.size());
  for (size_t i = 0; i < flat.size(); ++i) {
    const py::handle item = flat[i];
    if (py::isinstance<py::str>(item)) {
      values.push_back(item.cast<std::string>());
    } else if (py::isinstance<py::bytes>(item)) {
      values.emplace_back(py::reinterpret_borrow<py::bytes>(item));
    } else {
      throw BindingError(ErrorKind::kInput,
                         "input '" + name + "': element " + std::to_string(i) + " is a " +
                             py::str(item.get_type().attr("__name__")).cast<std::string>() +
                             ", not a str or bytes");
    }
  }
  InputTensor input;
  input.tensor = ge::MakeStringTensor(DimsOf(array), values);
  input.copied = true;
  return input;
}

// A NumPy object array of str (ONNX Runtime's form of a string output); a string that is not
// UTF-8 comes back as bytes.
py::array StringArray(const ge::GeTensor& tensor, const std::string& name) {
  ge::Result<std::vector<std::string_view>> values = ge::StringsOf(tensor, "output '" + name + "'");
  if (!values.ok()) throw BindingError(ErrorKind::kError, values.status().message());
  py::list items;
  for (std::string_view v : *values) {
    PyObject* text = PyUnicode_DecodeUTF8(v.data(), static_cast<Py_ssize_t>(v.size()), "strict");
    if (text != nullptr) {
      items.append(py::reinterpret_steal<py::str>(text));
    } else {
      PyErr_Clear();
      items.append(py::bytes(v.data(), v.size()));
    }
  }
  const std::vector<int64_t> dims = tensor.GetTensorDesc().GetShape().GetDims();
  py::module_ numpy = py::module_::import("numpy");
  py::array flat = numpy.attr("empty")(items.size(), py::arg("dtype") = "object");
  for (size_t i = 0; i < items.size(); ++i) flat[py::int_(i)] = items[i];
  return flat.attr("reshape")(py::tuple(py::cast(dims)));
}

}  // namespace

namespace {

// A map from a dict: its keys and its values as two 1-D tensors of the map's types.
ge::GeTensor MapFromValue(const py::handle& value, const std::string& name,
                          const ge::ValueType& type) {
  if (!py::isinstance<py::dict>(value) || type.inner.empty() ||
      type.inner[0].kind != ge::ValueType::Kind::kTensor) {
    throw BindingError(ErrorKind::kInput, "input '" + name + "' is " +
                                              OnnxValueTypeName(ge::ValueTypeName(type)) +
                                              ": give a dict of keys to numbers");
  }
  const auto dict = py::reinterpret_borrow<py::dict>(value);
  py::list keys;
  py::list values;
  for (const auto& [k, v] : dict) {
    keys.append(k);
    values.append(v);
  }
  ge::CompositeValue map{ge::ValueType::Kind::kMap, {}};
  map.items.push_back(TensorFromValue(keys, name + " keys", type.dtype).tensor);
  map.items.push_back(TensorFromValue(values, name + " values", type.inner[0].dtype).tensor);
  return ge::StoreComposite(map);
}

}  // namespace

ge::GeTensor CompositeFromValue(const py::handle& value, const std::string& name,
                                const ge::ValueType& type) {
  switch (type.kind) {
    case ge::ValueType::Kind::kTensor:
      return TensorFromValue(value, name, type.dtype).tensor;
    case ge::ValueType::Kind::kOptional: {
      ge::CompositeValue optional{ge::ValueType::Kind::kOptional, {}};
      if (!value.is_none())
        optional.items.push_back(CompositeFromValue(value, name, type.inner[0]));
      return ge::StoreComposite(optional);
    }
    case ge::ValueType::Kind::kMap:
      return MapFromValue(value, name, type);
    case ge::ValueType::Kind::kSequence:
      break;
  }
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) {
    throw BindingError(ErrorKind::kInput,
                       "input '" + name + "' is " + OnnxValueTypeName(ge::ValueTypeName(type)) +
                           ": give a list, not a " +
                           py::str(value.get_type().attr("__name__")).cast<std::string>());
  }
  ge::CompositeValue sequence{ge::ValueType::Kind::kSequence, {}};
  size_t i = 0;
  for (const py::handle item : value) {
    sequence.items.push_back(
        CompositeFromValue(item, name + "[" + std::to_string(i++) + "]", type.inner[0]));
  }
  return ge::StoreComposite(sequence);
}

py::object ValueFromTensor(ge::GeTensor tensor, const std::string& name) {
  if (tensor.GetTensorDesc().GetDataType() != ge::DT_VARIANT) {
    return ArrayFromTensor(std::move(tensor), name);
  }
  ge::Result<ge::CompositeValue> value = ge::LoadComposite(tensor, "output '" + name + "'");
  if (!value.ok()) throw BindingError(ErrorKind::kError, value.status().message());
  if (value->kind == ge::ValueType::Kind::kOptional) {
    if (value->items.empty()) return py::none();
    return ValueFromTensor(std::move(value->items[0]), name);
  }
  if (value->kind == ge::ValueType::Kind::kMap) {  // a dict of Python scalars, as ORT gives it
    const py::list keys = ValueFromTensor(std::move(value->items[0]), name).attr("tolist")();
    const py::list values = ValueFromTensor(std::move(value->items[1]), name).attr("tolist")();
    py::dict map;
    for (size_t i = 0; i < keys.size() && i < values.size(); ++i) map[keys[i]] = values[i];
    return map;
  }
  py::list items;
  for (size_t i = 0; i < value->items.size(); ++i) {
    items.append(ValueFromTensor(std::move(value->items[i]), name + "[" + std::to_string(i) + "]"));
  }
  return items;
}

std::string OnnxValueTypeName(const std::string& value_type) {
  // ONNX Runtime spells an optional "optional(...)".
  std::string out;
  for (size_t i = 0; i < value_type.size(); ++i) {
    if (value_type.compare(i, 4, "opt(") == 0) {
      out += "optional(";
      i += 3;
    } else {
      out += value_type[i];
    }
  }
  return out;
}

InputTensor TensorFromValue(const py::handle& value, const std::string& name, ge::DataType dtype) {
  if (dtype == ge::DT_STRING) return StringTensorFromValue(value, name);
  const std::optional<py::dtype> want = NumpyDtypeOf(dtype);
  if (!want) {
    throw BindingError(ErrorKind::kInput, "input '" + name + "' is " + OnnxTypeName(dtype) +
                                              ", which has no NumPy type to feed it from");
  }
  InputTensor input;
  py::array array;
  if (py::isinstance<py::array>(value)) {
    array = py::reinterpret_borrow<py::array>(value);
    if (!array.dtype().is(*want)) {
      throw BindingError(ErrorKind::kInput, "input '" + name + "': unexpected data type " +
                                                TypeNameOfArray(array) + ", expected " +
                                                OnnxTypeName(dtype));
    }
  } else {
    // Lists, scalars and other array-likes: converted (a copy) to the input's dtype.
    try {
      array = py::module_::import("numpy").attr("asarray")(value, *want);
    } catch (const py::error_already_set& e) {
      throw BindingError(ErrorKind::kInput,
                         "input '" + name + "': cannot make a " + OnnxTypeName(dtype) + " of a " +
                             py::str(value.get_type().attr("__name__")).cast<std::string>() + " (" +
                             e.what() + ")");
    }
    input.copied = true;
  }
  constexpr int kBorrowable =
      py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ | py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  if ((array.flags() & kBorrowable) != kBorrowable) {
    array = py::module_::import("numpy").attr("ascontiguousarray")(array);
    input.copied = true;
  }
  ge::GeTensorDesc desc(ge::GeShape(DimsOf(array)), ge::FORMAT_ND, dtype);
  input.tensor = ge::GeTensor(std::move(desc));
  if (array.nbytes() > 0) {
    input.tensor.SetSharedData(Borrow(array), static_cast<size_t>(array.nbytes()));
  }
  return input;
}

py::array ArrayFromTensor(ge::GeTensor tensor, const std::string& name) {
  const ge::DataType dtype = tensor.GetTensorDesc().GetDataType();
  if (dtype == ge::DT_STRING) return StringArray(tensor, name);
  const std::optional<py::dtype> numpy_dtype = NumpyDtypeOf(dtype);
  if (!numpy_dtype) {
    throw BindingError(ErrorKind::kError, "output '" + name + "' is " + OnnxTypeName(dtype) +
                                              ", which has no NumPy type to return it as");
  }
  const std::vector<int64_t> dims = tensor.GetTensorDesc().GetShape().GetDims();
  std::vector<py::ssize_t> shape(dims.begin(), dims.end());
  auto holder = std::make_unique<ge::GeTensor>(std::move(tensor));
  uint8_t* data = holder->MutableData();
  if (data == nullptr) return {*numpy_dtype, shape};  // no elements
  int64_t elements = 1;
  for (int64_t d : dims) elements *= d;
  const int64_t expect = static_cast<int64_t>(numpy_dtype->itemsize()) * elements;
  if (expect != static_cast<int64_t>(holder->GetSize())) {
    throw BindingError(ErrorKind::kError, "output '" + name + "' holds " +
                                              std::to_string(holder->GetSize()) +
                                              " bytes for a shape of " + std::to_string(expect));
  }
  py::capsule owner(holder.get(), [](void* p) { delete static_cast<ge::GeTensor*>(p); });
  (void)holder.release();  // the capsule owns it now
  return {*numpy_dtype, shape, {}, data, owner};
}

py::object ReadOnlyArray(const ge::GeTensor& tensor) {
  if (tensor.GetTensorDesc().GetDataType() == ge::DT_STRING) {
    if (!ge::StringsOf(tensor, "tensor").ok()) return py::none();
    py::array array = StringArray(tensor, "tensor");
    array.attr("setflags")(py::arg("write") = false);
    return array;
  }
  const std::optional<py::dtype> numpy_dtype = NumpyDtypeOf(tensor.GetTensorDesc().GetDataType());
  if (!numpy_dtype) return py::none();
  const std::vector<int64_t> dims = tensor.GetTensorDesc().GetShape().GetDims();
  std::vector<py::ssize_t> shape(dims.begin(), dims.end());
  int64_t elements = 1;
  for (int64_t d : dims) elements *= d;
  if (elements < 0 ||
      static_cast<int64_t>(numpy_dtype->itemsize()) * elements !=
          static_cast<int64_t>(tensor.GetSize()) ||
      tensor.GetSize() == 0) {
    return py::none();  // bytes that do not fill the shape (or none): nothing to show as an array
  }
  auto holder = std::make_unique<ge::GeTensor>(tensor);  // shares the bytes
  const uint8_t* data = holder->GetData().data();
  py::capsule owner(holder.get(), [](void* p) { delete static_cast<ge::GeTensor*>(p); });
  (void)holder.release();  // the capsule owns it now
  py::array array(*numpy_dtype, shape, {}, data, owner);
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

}  // namespace openge_py
