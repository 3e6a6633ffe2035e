# tests/vtest: piglit's shader_tests through Mesa's virgl driver against this build's
# `texvm vtest` (scripts/piglit.sh, docs/fidelity-piglit.md §1); skipped (exit 77) where
# piglit is not installed (scripts/setup.sh --piglit). Serial: Mesa 22.3 connects to the
# fixed path /tmp/.virgl_test. VTEST_LOCK_WAIT=300: another suite's run holding the path's
# lock (scripts/piglit-run.sh) is waited for at most 300 s, so that a test still waiting
# fails with piglit-run's message (exit 2, "still held after 300 s") and the run after the
# wait has the 600 s left of TIMEOUT (the 939 tests took 176-350 s on the 2-vCPU VMs);
# the script's own default, 1800 s, is past TIMEOUT, which would kill the test unexplained.
add_test(NAME vtest.piglit
         COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/piglit.sh --if-installed)
set_tests_properties(vtest.piglit PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "vtest;piglit" RUN_SERIAL TRUE
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  ENVIRONMENT "TEXVM_BIN=$<TARGET_FILE:texvm>;PIGLIT_OUT=${CMAKE_BINARY_DIR}/piglit;VTEST_LOCK_WAIT=300")
# Folders beyond the anchor list: GL 4.1, derivative control, enhanced layouts, layers
# (tests/vtest/piglit-more-list.txt); serial, and the lock's wait bounded, for the same reasons.
add_test(NAME vtest.piglit_more
         COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/piglit.sh --if-installed
                 ${CMAKE_SOURCE_DIR}/tests/vtest/piglit-more-list.txt)
set_tests_properties(vtest.piglit_more PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "vtest;piglit" RUN_SERIAL TRUE
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  ENVIRONMENT "TEXVM_BIN=$<TARGET_FILE:texvm>;PIGLIT_OUT=${CMAKE_BINARY_DIR}/piglit-more;VTEST_LOCK_WAIT=300")
# scripts/piglit-run.sh's lock on the socket path and its refusal of a server it did not
# start, on a path of its own with a stand-in piglit (~6 s; no Mesa, no piglit needed)
add_test(NAME vtest.piglit_lock
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/vtest/test_piglit_lock.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE:texvm>)
set_tests_properties(vtest.piglit_lock PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS vtest)
