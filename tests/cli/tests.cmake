# The CLI sources are not in libtexvm: compile them (all but main.c) once as an object
# library and link it into every tests/cli test.
file(GLOB TEXVM_CLI_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cli/*.c)
list(FILTER TEXVM_CLI_TEST_SOURCES EXCLUDE REGEX ".*/main\\.c$")
add_library(texvm_cli_objects OBJECT ${TEXVM_CLI_TEST_SOURCES})
target_link_libraries(texvm_cli_objects PUBLIC texvm_static PkgConfig::PNG PkgConfig::CJSON)
target_include_directories(texvm_cli_objects PUBLIC ${CMAKE_SOURCE_DIR}/src/cli)
foreach(src ${tests})
  get_filename_component(name ${src} NAME_WE)
  target_link_libraries(cli_${name} PRIVATE texvm_cli_objects)
endforeach()
