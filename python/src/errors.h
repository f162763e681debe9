// The module's exceptions: openge.Error, openge.ModelError (a model that cannot be read, compiled
// or loaded) and openge.InputError (a run's inputs; also a ValueError). Each carries the
// one-line message of the Status it came from.
//
// Every source file of the module includes this header, so pybind11's STL conversions (stl.h) are
// seen the same way in all of them, as pybind11 requires.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "ge/graph/status.h"

namespace openge_py {

namespace py = pybind11;

enum class ErrorKind { kError, kModel, kInput };

/// Thrown by the binding; translated into the Python exception of its kind.
class BindingError : public std::runtime_error {
 public:
  BindingError(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

/// Creates the exception classes in `module` and registers their translator.
void RegisterErrors(py::module_& module);

/// Throws a BindingError of `kind` when `status` failed.
void ThrowIfError(const ge::Status& status, ErrorKind kind);

/// The value of `result`, or a BindingError of `kind`.
template <typename T>
T ValueOrThrow(ge::Result<T> result, ErrorKind kind) {
  ThrowIfError(result.status(), kind);
  return std::move(result).value();
}

}  // namespace openge_py
