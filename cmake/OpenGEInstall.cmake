# Installation: `cmake --install <build> [--prefix DIR]` puts
#   bin/gec                               the command-line tool
#   <libdir>/libopenge_runtime.so         the runtime's C++ API: the IR and its serialization,
#                                         operators, the model layer, the engine API and the
#                                         runtime; enough to load and run a compiled model (.om)
#   <libdir>/libopenge.so                 the compiler's: the ONNX parser, GE's graph construction
#                                         API and its session, the compiler and its memory
#                                         planner; it links libopenge_runtime.so
#   <libdir>/libopenge_pipeline.so        pipeline stages one per process under Open MPI; it links
#                                         libopenge_runtime.so and MPI
#   <libdir>/openge/engines/              engine plugins + engine_conf.json (src/engines)
#   <libdir>/openge/ops/                  the built-in operator prototype library (src/ops/builtin)
#   include/ge/                           the public headers: the user API and the plugin SDK
#                                         (src/include holds the internal ones, not installed)
#   <libdir>/cmake/OpenGE/                the package config: find_package(OpenGE) gives
#                                         OpenGE::runtime and OpenGE::openge (which has both)
# Plugins are found relative to the libraries or to bin/gec (EngineManager::DefaultPluginDir,
# OpsProtoManager::DefaultDirectory), so a prefix works wherever it is put.
#
# The layer libraries stay static for the build tree; each shared library is made of its layers'
# object files. The public headers include only the standard library, so their dependencies
# (protobuf, ONNX) stay private.
include(CMakePackageConfigHelpers)

# The layers a deployment that only runs models needs, and the ones that compile.
set(OPENGE_RUNTIME_LAYERS ge_graph ge_serialize ge_model ge_ops ge_engine ge_runtime)
set(OPENGE_COMPILER_LAYERS ge_memory ge_compiler ge_onnx_parser ge_api ge_session)

# A shared library of `layers`' object files (already compiled, position-independent). Linking the
# layers as well brings their own dependencies (protobuf, ONNX, libdl); `deps` come first, so
# what they export is taken from them rather than from the static layers.
function(openge_add_shared_library target output_name export_name layers deps)
  set(objects "")
  foreach(lib IN LISTS layers)
    list(APPEND objects $<TARGET_OBJECTS:${lib}>)
  endforeach()
  add_library(${target} SHARED ${objects})
  if(OPENGE_SANITIZE OR OPENGE_TSAN OR OPENGE_FUZZ)
    # Sanitizer and fuzz builds are for tests, and only the Python module links the shared
    # libraries there (the install test runs in the plain build only): out of `all`, they are
    # linked when the module is built, and not otherwise.
    set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  target_link_libraries(${target} PUBLIC ${deps} PRIVATE ${layers})
  target_include_directories(${target} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} INTERFACE cxx_std_20)
  target_link_options(${target} PRIVATE ${OPENGE_NO_UNDEFINED})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${output_name}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    EXPORT_NAME ${export_name})
endfunction()

openge_add_shared_library(openge_runtime openge_runtime runtime "${OPENGE_RUNTIME_LAYERS}" "")
openge_add_shared_library(openge openge openge "${OPENGE_COMPILER_LAYERS}" openge_runtime)
openge_add_shared_library(openge_pipeline openge_pipeline pipeline "ge_pipeline" openge_runtime)
add_library(OpenGE::runtime ALIAS openge_runtime)
add_library(OpenGE::openge ALIAS openge)

# Two export sets, so that a prefix whose compiler library was removed (a deployment that only
# runs models) still configures: the package config includes the compiler's only when present.
install(TARGETS openge_runtime EXPORT OpenGERuntimeTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS openge EXPORT OpenGECompilerTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS openge_pipeline EXPORT OpenGEPipelineTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ge DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

set(OPENGE_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/OpenGE)
install(EXPORT OpenGERuntimeTargets NAMESPACE OpenGE:: DESTINATION ${OPENGE_CMAKE_INSTALL_DIR})
install(EXPORT OpenGECompilerTargets NAMESPACE OpenGE:: DESTINATION ${OPENGE_CMAKE_INSTALL_DIR})
install(EXPORT OpenGEPipelineTargets NAMESPACE OpenGE:: DESTINATION ${OPENGE_CMAKE_INSTALL_DIR})
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
