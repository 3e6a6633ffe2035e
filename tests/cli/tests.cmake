# The job library's tests (the folder keeps its name: they began as the CLI's): they link
# texvm_job and see its internal headers (src/job).
# (and their helpers, cli_test_helpers, alike)
foreach(_t cli_test_helpers ${tests})
  get_filename_component(name ${_t} NAME_WE)
  if(NOT _t STREQUAL "cli_test_helpers")
    set(_t cli_${name})
  endif()
  target_link_libraries(${_t} PRIVATE texvm_job)
  target_include_directories(${_t} PRIVATE ${CMAKE_SOURCE_DIR}/src/job)
endforeach()
