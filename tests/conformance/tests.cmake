# tests/conformance: the texture conformance suite (run.sh; docs/fidelity-conformance.md
# §2, "Conformance suite"). GLSL cases are captured through softpipe at test time and run on
# softpipe, llvmpipe and texvm; SKIPs (exit 77) where tools/mesa-run is not built or EGL
# cannot open.
add_executable(conf_compare ${CMAKE_CURRENT_SOURCE_DIR}/conformance/conf_compare.c)
target_link_libraries(conf_compare PRIVATE m)
add_executable(conf_d3d ${CMAKE_CURRENT_SOURCE_DIR}/conformance/conf_d3d.c)
target_link_libraries(conf_d3d PRIVATE ${TEXVM_TEST_LIB} texvm_test_common)
add_test(NAME conformance.suite
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/conformance/run.sh
                 $<TARGET_FILE:texvm> ${CMAKE_BINARY_DIR}/tools/mesa-run
                 $<TARGET_FILE:conf_compare> ${CMAKE_BINARY_DIR}/conformance)
set_tests_properties(conformance.suite PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS conformance WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  ENVIRONMENT "TEXVM_SHARED_DIR=${TEXVM_SHARED_DIR};CONF_D3D=$<TARGET_FILE:conf_d3d>")
