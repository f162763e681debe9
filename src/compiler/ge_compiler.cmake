# ge_compiler: options, passes, host kernels for folding, the build stage and CompiledModel.
file(GLOB GE_COMPILER_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_SOURCE_DIR}/*.cc
     ${CMAKE_CURRENT_SOURCE_DIR}/passes/*.cc
     ${CMAKE_CURRENT_SOURCE_DIR}/passes/fusion/*.cc
     ${CMAKE_CURRENT_SOURCE_DIR}/folding/*.cc
     ${CMAKE_CURRENT_SOURCE_DIR}/build/*.cc
     ${CMAKE_CURRENT_SOURCE_DIR}/schedule/*.cc
     ${CMAKE_CURRENT_SOURCE_DIR}/explorer/*.cc)
add_library(ge_compiler ${GE_COMPILER_SOURCES})
add_library(OpenGE::compiler ALIAS ge_compiler)
openge_hide_symbols(ge_compiler)
target_link_libraries(ge_compiler PUBLIC ge_memory ge_engine ge_ops ge_serialize ge_graph
                      PRIVATE nlohmann_json::nlohmann_json)
