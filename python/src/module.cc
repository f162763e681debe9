// openge._openge: the C++ half of the Python module (python/openge/ is the other half).
#include <pybind11/pybind11.h>

#include <map>
#include <string>
#include <vector>

#include "arrays.h"
#include "errors.h"
#include "ge/compiler/compiler.h"
#include "graph_view.h"
#include "sessions.h"

namespace openge_py {
namespace {

// The exception classes, made once at import.
PyObject* g_error = nullptr;
PyObject* g_model_error = nullptr;
PyObject* g_input_error = nullptr;

PyObject* NewException(py::module_& module, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = "openge." + std::string(name);
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name, py::handle(type));
  return type;
}

std::string ReportJson(const CompiledModelHandle& handle) { return handle.model->report.ToJson(); }

}  // namespace

void RegisterErrors(py::module_& module) {
  g_error = NewException(module, "Error", PyExc_Exception, "An OpenGE failure.");
  g_model_error = NewException(
      module, "ModelError", g_error,
      "A model that cannot be read, compiled or loaded (the message names the place and cause).");
  py::tuple input_bases = py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError));
  g_input_error = NewException(
      module, "InputError", input_bases.ptr(),
      "A run's inputs do not fit the model: a name, a dtype or a shape (also a ValueError).");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const BindingError& e) {
      PyObject* type = e.kind() == ErrorKind::kModel   ? g_model_error
                       : e.kind() == ErrorKind::kInput ? g_input_error
                                                       : g_error;
      PyErr_SetString(type, e.what());
    }
  });
}

void ThrowIfError(const ge::Status& status, ErrorKind kind) {
  if (!status.ok()) throw BindingError(kind, status.message());
}

}  // namespace openge_py

PYBIND11_MODULE(_openge, m) {
  namespace py = pybind11;
  using openge_py::CompiledModelHandle;
  using openge_py::SessionHandle;
  m.doc() = "OpenGE's compiler and runtime (use the openge package, not this module)";
  m.attr("__version__") = OPENGE_VERSION;
  openge_py::RegisterErrors(m);

  py::class_<CompiledModelHandle>(m, "CompiledModel")
      .def("save",
           [](const CompiledModelHandle& self, const std::string& path) {
             openge_py::ThrowIfError(self.model->SaveToFile(path), openge_py::ErrorKind::kError);
           })
      .def("serialize",
           [](const CompiledModelHandle& self) {
             ge::Result<std::string> bytes = self.model->Serialize();
             return py::bytes(
                 openge_py::ValueOrThrow(std::move(bytes), openge_py::ErrorKind::kError));
           })
      .def("report_json", &openge_py::ReportJson)
      .def("memory_plans_json",
           [](const CompiledModelHandle& self) { return openge_py::MemoryPlansJson(*self.model); })
      .def("graph",
           [](const CompiledModelHandle& self) {
             return openge_py::GraphToDict(*self.model->graph);
           })
      .def_property_readonly("parse_millis",
                             [](const CompiledModelHandle& self) { return self.parse_millis; })
      .def_property_readonly("compile_millis",
                             [](const CompiledModelHandle& self) { return self.compile_millis; });

  m.def("compile", &openge_py::CompileModel, py::arg("model"), py::arg("input_shapes"),
        py::arg("options"));
  m.def("load_graph", &openge_py::LoadGraph, py::arg("model"));
  m.def("disablable_passes", &ge::Compiler::DisablablePasses);
  m.def("pass_list", &ge::Compiler::PassList);

  m.def("open_session", &SessionHandle::Open, py::arg("model"), py::arg("input_shapes"),
        py::arg("options"), py::arg("threads"), py::arg("max_concurrent_runs"),
        py::arg("max_memory_bytes"));

  py::class_<SessionHandle>(m, "Session")
      .def(py::init<const CompiledModelHandle&, int, int, int64_t,
                    const std::map<std::string, std::string>&>(),
           py::arg("compiled"), py::arg("threads"), py::arg("max_concurrent_runs"),
           py::arg("max_memory_bytes"), py::arg("options"))
      .def("inputs", &SessionHandle::Inputs)
      .def("outputs", &SessionHandle::Outputs)
      .def("run", &SessionHandle::Run, py::arg("feeds"), py::arg("output_names"))
      .def("set_profiling", &SessionHandle::SetProfiling)
      .def("last_profile", &SessionHandle::LastProfile)
      .def("trace_events", &SessionHandle::TraceEvents, py::arg("run_start_us"), py::arg("pid"))
      .def("memory", &SessionHandle::Memory)
      .def("compiled", &SessionHandle::Compiled)
      .def("shape_plans", &SessionHandle::ShapePlans)
      .def_property_readonly("input_copies", &SessionHandle::input_copies);
}
