# The job library's tests (the folder keeps its name: they began as the CLI's): they link
# texvm_job and see its internal headers (src/job).
foreach(src ${tests})
  get_filename_component(name ${src} NAME_WE)
  target_link_libraries(cli_${name} PRIVATE texvm_job)
  target_include_directories(cli_${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/job)
endforeach()
