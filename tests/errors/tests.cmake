# errors.fuzz_smoke: each fuzz target ~20 s (scripts/fuzz 20) when clang has libFuzzer.
# Only in the plain build: the fuzz build is itself ASan+UBSan, so the sanitizer build of
# the suite (build-asan) does not run it a second time. About 3 minutes plus the first
# build of build-fuzz/.
if(NOT TEXVM_SANITIZE)
  add_test(NAME errors.fuzz_smoke COMMAND ${CMAKE_SOURCE_DIR}/tests/errors/fuzz_smoke.sh 20)
  set_tests_properties(errors.fuzz_smoke PROPERTIES
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} LABELS "errors;fuzz" TIMEOUT 1500
    SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endif()
