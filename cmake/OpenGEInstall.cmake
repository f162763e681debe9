# Installation: `cmake --install <build> [--prefix DIR]` puts
#   bin/gec                               the command-line tool
#   <libdir>/libopenge.so                 the C++ API (IR, operators, ONNX parser, compiler,
#                                         memory planner, engine manager, runtime) as one library
#   <libdir>/openge/engines/              engine plugins + engine_conf.json (src/engines)
#   <libdir>/openge/ops/                  the built-in operator prototype library (src/ops/builtin)
#   include/ge/                           the public headers
#   <libdir>/cmake/OpenGE/                the package config: find_package(OpenGE) gives
#                                         OpenGE::openge
# Plugins are found relative to libopenge.so or to bin/gec (EngineManager::DefaultPluginDir,
# OpsProtoManager::DefaultDirectory), so a prefix works wherever it is put.
#
# The layer libraries stay static for the build tree; libopenge.so links them whole. The public
# headers include only the standard library, so their dependencies (protobuf, ONNX) stay private.
include(CMakePackageConfigHelpers)

set(OPENGE_LAYER_LIBRARIES ge_graph ge_serialize ge_model ge_ops ge_engine ge_memory ge_compiler ge_runtime
                           ge_onnx_parser)
# The layer libraries' object files, already compiled (position-independent), make up the
# library; linking the layers as well brings their own dependencies (protobuf, ONNX, libdl).
set(OPENGE_LAYER_OBJECTS "")
foreach(lib IN LISTS OPENGE_LAYER_LIBRARIES)
  list(APPEND OPENGE_LAYER_OBJECTS $<TARGET_OBJECTS:${lib}>)
endforeach()
add_library(openge SHARED ${OPENGE_LAYER_OBJECTS})
add_library(OpenGE::openge ALIAS openge)
if(OPENGE_SANITIZE OR OPENGE_TSAN OR OPENGE_FUZZ)
  # Sanitizer and fuzz builds are for tests, and nothing in them links libopenge.so (the install
  # test runs in the plain build only): leave it out of `all` to save CI a large instrumented link.
  set_target_properties(openge PROPERTIES EXCLUDE_FROM_ALL ON)
endif()
target_link_libraries(openge PRIVATE ${OPENGE_LAYER_LIBRARIES})
target_include_directories(openge INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(openge INTERFACE cxx_std_20)
target_link_options(openge PRIVATE ${OPENGE_NO_UNDEFINED})
set_target_properties(openge PROPERTIES
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  EXPORT_NAME openge)

install(TARGETS openge EXPORT OpenGETargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ge DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

set(OPENGE_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/OpenGE)
install(EXPORT OpenGETargets NAMESPACE OpenGE:: DESTINATION ${OPENGE_CMAKE_INSTALL_DIR})
set(OPENGE_PLUGIN_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/openge)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/OpenGEConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/OpenGEConfig.cmake
  INSTALL_DESTINATION ${OPENGE_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR OPENGE_PLUGIN_INSTALL_DIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/OpenGEConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/OpenGEConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/OpenGEConfigVersion.cmake
        DESTINATION ${OPENGE_CMAKE_INSTALL_DIR})
