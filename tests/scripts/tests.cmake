# tests/scripts: the project's scripts that are tools in their own right, tested on inputs
# built here (shell tests; no cmocka program in this folder). Labelled `scripts`, not
# `unit`: the plain and ASan builds run them (scripts/test.sh runs every test there), the
# builds of the unit test programs alone (scripts/build-tests.sh) have no program of theirs
# to build.
add_test(NAME scripts.same_code
         COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/test_same_code.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(scripts.same_code PROPERTIES LABELS "scripts" TIMEOUT 120
                     ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
