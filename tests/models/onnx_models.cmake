# Test data for ge_parser_tests, made once per build (re-made when the scripts change):
#  - ${CMAKE_BINARY_DIR}/models: resnet18, mobilenet_v2 and a BERT-like encoder at opsets 13 and
#    17 with reference inputs/outputs (tests/models/export_models.py, Debian's /usr/bin/python3
#    with python3-torch); export_status.txt says "ok" or why the export failed.
#  - ${CMAKE_BINARY_DIR}/onnx_conformance: the ONNX node test suite
#    (tests/conformance/generate_onnx_suite.py); generate_status.txt likewise.
#  - ${CMAKE_BINARY_DIR}/onnx_idioms: cases for what exporters write and newer operator versions
#    (tests/conformance/generate_idiom_cases.py); generate_status.txt likewise.
# The commands never fail the build: the tests that need the data fail with the status instead.
set(GE_TEST_MODELS_DIR ${CMAKE_BINARY_DIR}/models)
set(GE_ONNX_CONFORMANCE_DIR ${CMAKE_BINARY_DIR}/onnx_conformance)
set(GE_SYSTEM_PYTHON /usr/bin/python3)
set(GE_EXPORT_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/models/export_models.py)
set(GE_SUITE_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/conformance/generate_onnx_suite.py)
set(GE_ONNX_IDIOMS_DIR ${CMAKE_BINARY_DIR}/onnx_idioms)
set(GE_IDIOMS_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/conformance/generate_idiom_cases.py)

add_custom_command(
  OUTPUT ${GE_TEST_MODELS_DIR}/export.stamp
  COMMAND ${CMAKE_COMMAND} -E make_directory ${GE_TEST_MODELS_DIR}
  COMMAND sh -c "'${GE_SYSTEM_PYTHON}' '${GE_EXPORT_SCRIPT}' --out '${GE_TEST_MODELS_DIR}' || test -s '${GE_TEST_MODELS_DIR}/export_status.txt' || echo 'export_models.py failed (see the build log)' > '${GE_TEST_MODELS_DIR}/export_status.txt'"
  COMMAND ${CMAKE_COMMAND} -E touch ${GE_TEST_MODELS_DIR}/export.stamp
  DEPENDS ${GE_EXPORT_SCRIPT}
  COMMENT "Exporting the ONNX test models (torch, fixed seeds)"
  VERBATIM)
add_custom_command(
  OUTPUT ${GE_ONNX_CONFORMANCE_DIR}/generate.stamp
  COMMAND ${CMAKE_COMMAND} -E make_directory ${GE_ONNX_CONFORMANCE_DIR}
  COMMAND sh -c "'${GE_SYSTEM_PYTHON}' '${GE_SUITE_SCRIPT}' --out '${GE_ONNX_CONFORMANCE_DIR}' || test -s '${GE_ONNX_CONFORMANCE_DIR}/generate_status.txt' || echo 'generate_onnx_suite.py failed (see the build log)' > '${GE_ONNX_CONFORMANCE_DIR}/generate_status.txt'"
  COMMAND ${CMAKE_COMMAND} -E touch ${GE_ONNX_CONFORMANCE_DIR}/generate.stamp
  DEPENDS ${GE_SUITE_SCRIPT}
  COMMENT "Generating the ONNX node conformance suite"
  VERBATIM)
add_custom_command(
  OUTPUT ${GE_ONNX_IDIOMS_DIR}/generate.stamp
  COMMAND ${CMAKE_COMMAND} -E make_directory ${GE_ONNX_IDIOMS_DIR}
  COMMAND sh -c "'${GE_SYSTEM_PYTHON}' '${GE_IDIOMS_SCRIPT}' --out '${GE_ONNX_IDIOMS_DIR}' || test -s '${GE_ONNX_IDIOMS_DIR}/generate_status.txt' || echo 'generate_idiom_cases.py failed (see the build log)' > '${GE_ONNX_IDIOMS_DIR}/generate_status.txt'"
  COMMAND ${CMAKE_COMMAND} -E touch ${GE_ONNX_IDIOMS_DIR}/generate.stamp
  DEPENDS ${GE_IDIOMS_SCRIPT}
  COMMENT "Writing the ONNX exporter-idiom cases"
  VERBATIM)
add_custom_target(ge_onnx_test_data ALL
  DEPENDS ${GE_TEST_MODELS_DIR}/export.stamp ${GE_ONNX_CONFORMANCE_DIR}/generate.stamp
          ${GE_ONNX_IDIOMS_DIR}/generate.stamp)
add_dependencies(ge_parser_tests ge_onnx_test_data)
target_compile_definitions(ge_parser_tests PRIVATE
  GE_TEST_MODELS_DIR="${GE_TEST_MODELS_DIR}"
  GE_ONNX_CONFORMANCE_DIR="${GE_ONNX_CONFORMANCE_DIR}")
