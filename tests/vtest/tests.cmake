# tests/vtest: piglit's shader_tests through Mesa's virgl driver against this build's
# `texvm vtest` (scripts/piglit.sh, docs/fidelity-piglit.md §1); skipped (exit 77) where
# piglit is not installed (scripts/setup.sh --piglit). Serial: Mesa 22.3 connects to the
# fixed path /tmp/.virgl_test.
add_test(NAME vtest.piglit
         COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/piglit.sh --if-installed)
set_tests_properties(vtest.piglit PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "vtest;piglit" RUN_SERIAL TRUE
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  ENVIRONMENT "TEXVM_BIN=$<TARGET_FILE:texvm>;PIGLIT_OUT=${CMAKE_BINARY_DIR}/piglit")
# Folders beyond the anchor list: GL 4.1, derivative control, enhanced layouts, layers
# (tests/vtest/piglit-more-list.txt); serial for the same reason.
add_test(NAME vtest.piglit_more
         COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/piglit.sh --if-installed
                 ${CMAKE_SOURCE_DIR}/tests/vtest/piglit-more-list.txt)
set_tests_properties(vtest.piglit_more PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "vtest;piglit" RUN_SERIAL TRUE
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  ENVIRONMENT "TEXVM_BIN=$<TARGET_FILE:texvm>;PIGLIT_OUT=${CMAKE_BINARY_DIR}/piglit-more")
# scripts/piglit-run.sh's lock on the socket path and its refusal of a server it did not
# start, on a path of its own with a stand-in piglit (~6 s; no Mesa, no piglit needed)
add_test(NAME vtest.piglit_lock
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/vtest/test_piglit_lock.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE:texvm>)
set_tests_properties(vtest.piglit_lock PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS vtest)
