# Every third-party dependency, found once at the start of configure. A missing one stops
# configure with the Debian package that provides it (scripts/setup.sh installs them all), instead
# of dropping the parts that need it and letting the build pass on a fraction of itself.

# openge_require(<Package> <debian-package> [find_package arguments...])
function(openge_require package debian)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR
      "OpenGE needs ${package}, which was not found: install the Debian package '${debian}' "
      "(scripts/setup.sh installs every dependency).")
  endif()
endfunction()

# openge_require_program(<VAR> <program> <debian-package>): the full path of a program in VAR.
function(openge_require_program var program debian)
  find_program(${var} ${program})
  if(NOT ${var})
    message(FATAL_ERROR
      "OpenGE needs the program '${program}', which was not found: install the Debian package "
      "'${debian}' (scripts/setup.sh installs every dependency).")
  endif()
endfunction()

openge_require(Threads libc6-dev)
openge_require(Protobuf libprotobuf-dev)
openge_require_program(OPENGE_PROTOC protoc protobuf-compiler)
openge_require(ONNX libonnx-dev CONFIG)
openge_require(nlohmann_json nlohmann-json3-dev)
openge_require(CLI11 libcli11-dev CONFIG)
openge_require(Eigen3 libeigen3-dev)
openge_require(OpenMP libgomp1)
# Debian's oneDNN is built with its OpenCL GPU runtime, so its CMake config requires OpenCL's
# headers and library; checked first, so a missing package is named rather than failing inside
# oneDNN's config.
openge_require(OpenCL ocl-icd-opencl-dev)
openge_require(dnnl libdnnl-dev CONFIG)
# Pipeline stages across processes (src/pipeline): MPI's C interface from C++ (the project
# enables no C compiler), without its deprecated C++ bindings.
set(MPI_CXX_SKIP_MPICXX ON)
openge_require(MPI libopenmpi-dev COMPONENTS CXX)

if(OPENGE_BUILD_TESTS)
  openge_require(GTest libgtest-dev)
  openge_require_program(OPENGE_MPIRUN mpirun openmpi-bin)  # the pipeline tests start ranks
  find_library(OPENGE_GMOCK_LIBRARY gmock)
  if(NOT OPENGE_GMOCK_LIBRARY)
    message(FATAL_ERROR "OpenGE's tests need GoogleMock: install the Debian package 'libgmock-dev'.")
  endif()
  # The test data (exported models, the ONNX conformance suite) are made with Debian's system
  # Python and its torch, torchvision and onnx packages.
  set(OPENGE_SYSTEM_PYTHON /usr/bin/python3)
  execute_process(
    COMMAND ${OPENGE_SYSTEM_PYTHON} -c "import numpy, onnx, torch, torchvision"
    RESULT_VARIABLE OPENGE_PYTHON_MODULES_MISSING OUTPUT_QUIET ERROR_VARIABLE OPENGE_PYTHON_ERROR)
  if(OPENGE_PYTHON_MODULES_MISSING)
    string(STRIP "${OPENGE_PYTHON_ERROR}" OPENGE_PYTHON_ERROR)
    string(REGEX REPLACE ".*\n" "" OPENGE_PYTHON_ERROR "${OPENGE_PYTHON_ERROR}")
    message(FATAL_ERROR
      "OpenGE's tests make their models with ${OPENGE_SYSTEM_PYTHON}, which cannot import numpy, "
      "onnx, torch and torchvision (${OPENGE_PYTHON_ERROR}): install the Debian packages "
      "'python3-onnx', 'python3-torch' and 'python3-torchvision', or configure with "
      "-DOPENGE_BUILD_TESTS=OFF.")
  endif()
endif()
if(OPENGE_BUILD_BENCH)
  openge_require(benchmark libbenchmark-dev)
endif()

# The Python module (python/): Debian's system Python 3 with its headers and NumPy, and pybind11.
# Found here rather than through openge_require, whose function scope would hide the variables
# (include directories, version) the module's build reads.
if(OPENGE_BUILD_PYTHON)
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)  # not the first python3 on PATH: Debian's, with NumPy
  endif()
  find_package(Python3 3.9 COMPONENTS Interpreter Development.Module NumPy QUIET)
  foreach(component_package "Interpreter;python3" "Development.Module;python3-dev"
                            "NumPy;python3-numpy")
    list(GET component_package 0 component)
    list(GET component_package 1 debian)
    if(NOT Python3_${component}_FOUND)
      message(FATAL_ERROR
        "OpenGE's Python module needs Python 3 ${component}, which was not found: install the "
        "Debian package '${debian}' (scripts/setup.sh installs every dependency), or configure "
        "with -DOPENGE_BUILD_PYTHON=OFF.")
    endif()
  endforeach()
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 2.6 CONFIG QUIET)
  if(NOT pybind11_FOUND)
    message(FATAL_ERROR
      "OpenGE's Python module needs pybind11, which was not found: install the Debian package "
      "'pybind11-dev' (scripts/setup.sh installs every dependency), or configure with "
      "-DOPENGE_BUILD_PYTHON=OFF.")
  endif()
  set(OPENGE_PYTHON_INSTALL_DIR
      lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/dist-packages
      CACHE STRING "Where cmake --install puts the openge Python package (relative to the prefix)")
endif()

# Graphviz's dot and librsvg's rsvg-convert draw graphs and memory plans as SVG/PNG at run time
# (gec dump, gec plan, the demo); without them those formats fail with a message naming the
# package. The configure summary says whether they were found.
find_program(OPENGE_DOT dot)
find_program(OPENGE_RSVG_CONVERT rsvg-convert)

# openge_add_proto(<target> <file.proto> <PUBLIC|PRIVATE>): generates the C++ of a .proto of the
# current source folder into <binary dir>/proto and compiles it into <target>. The generated code
# is not ours: it compiles without warnings, and its header is a system include (PUBLIC: for the
# target's users too) so it does not trip -Werror in our sources. Under ThreadSanitizer the
# target is compiled as Debian's uninstrumented libprotobuf was: protobuf's headers lay out map
# fields differently when __SANITIZE_THREAD__ is defined.
function(openge_add_proto target proto visibility)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/proto)
  file(MAKE_DIRECTORY ${out})
  target_sources(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/${proto})
  protobuf_generate(TARGET ${target} LANGUAGE cpp
                    PROTOS ${CMAKE_CURRENT_SOURCE_DIR}/${proto}
                    IMPORT_DIRS ${CMAKE_CURRENT_SOURCE_DIR}
                    PROTOC_OUT_DIR ${out})
  get_filename_component(stem ${proto} NAME_WE)
  set_source_files_properties(${out}/${stem}.pb.cc PROPERTIES COMPILE_OPTIONS "-w")
  target_include_directories(${target} SYSTEM ${visibility} $<BUILD_INTERFACE:${out}>
                             ${Protobuf_INCLUDE_DIRS})
  target_link_libraries(${target} ${visibility} protobuf::libprotobuf)
  if(OPENGE_TSAN)
    target_compile_options(${target} PRIVATE -U__SANITIZE_THREAD__)
  endif()
endfunction()
