# tests/install: the installed library as an outside project sees it (run.sh). Not in the
# sanitizer build: an outside program links the plain library.
if(NOT TEXVM_SANITIZE)
  add_test(NAME install.package
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install/run.sh ${CMAKE_BINARY_DIR}
                   ${PROJECT_VERSION})
  set_tests_properties(install.package PROPERTIES LABELS "install" TIMEOUT 300
                       WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endif()
