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

# Runs SCRIPT --out DIR once per change of the script (or of the modules it imports, given after
# the comment), writing DIR/STAMP; a script that fails without writing DIR/STATUS gets one saying
# so.
function(ge_generate_test_data dir script stamp status comment)
  get_filename_component(name ${script} NAME)
  add_custom_command(
    OUTPUT ${dir}/${stamp}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND sh -c "'${GE_SYSTEM_PYTHON}' '${script}' --out '${dir}' || test -s '${dir}/${status}' || echo '${name} failed (see the build log)' > '${dir}/${status}'"
    COMMAND ${CMAKE_COMMAND} -E touch ${dir}/${stamp}
    DEPENDS ${script} ${ARGN}
    COMMENT "${comment}"
    VERBATIM)
endfunction()
ge_generate_test_data(${GE_TEST_MODELS_DIR} ${GE_EXPORT_SCRIPT} export.stamp export_status.txt
                      "Exporting the ONNX test models (torch, fixed seeds)")
ge_generate_test_data(${GE_ONNX_CONFORMANCE_DIR} ${GE_SUITE_SCRIPT} generate.stamp
                      generate_status.txt "Generating the ONNX node conformance suite")
ge_generate_test_data(${GE_ONNX_IDIOMS_DIR} ${GE_IDIOMS_SCRIPT} generate.stamp
                      generate_status.txt "Writing the ONNX exporter-idiom cases"
                      ${CMAKE_CURRENT_SOURCE_DIR}/conformance/ml_idiom_cases.py)
add_custom_target(ge_onnx_test_data ALL
  DEPENDS ${GE_TEST_MODELS_DIR}/export.stamp ${GE_ONNX_CONFORMANCE_DIR}/generate.stamp
          ${GE_ONNX_IDIOMS_DIR}/generate.stamp)
add_dependencies(ge_parser_tests ge_onnx_test_data)
target_compile_definitions(ge_parser_tests PRIVATE
  GE_TEST_MODELS_DIR="${GE_TEST_MODELS_DIR}"
  GE_ONNX_CONFORMANCE_DIR="${GE_ONNX_CONFORMANCE_DIR}")
