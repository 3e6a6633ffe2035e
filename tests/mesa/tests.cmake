# tests/mesa: differential tests against Mesa's software GL drivers through tools/glref.
# Built against glref when EGL + desktop GL are available (the same check as tools/);
# without them the test programs compile to a cmocka skip.
pkg_check_modules(MESA_TEST_EGL QUIET egl)
pkg_check_modules(MESA_TEST_GL QUIET opengl)

# texvm's texture unit is wired into the differential test once its entry points exist.
set(_mesa_tex_api ON)
foreach(_fn tv_tex_create tv_tex_execute tv_tic_texel_address tv_tic_size_bytes
            tv_tex_set_header_pool)
  file(GLOB _tex_srcs ${CMAKE_SOURCE_DIR}/src/tex/*.c)
  set(_found OFF)
  foreach(_s ${_tex_srcs})
    file(STRINGS ${_s} _hit REGEX "^[a-z].*[ *]${_fn}\\(")
    if(_hit)
      set(_found ON)
    endif()
  endforeach()
  if(NOT _found)
    set(_mesa_tex_api OFF)
  endif()
endforeach()

# (the folder's helpers, mesa_test_helpers, are built the way its tests are)
file(GLOB _mesa_tests ${CMAKE_CURRENT_SOURCE_DIR}/mesa/test_*.c)
foreach(_t mesa_test_helpers ${_mesa_tests})
  get_filename_component(_name ${_t} NAME_WE)
  if(NOT _t STREQUAL "mesa_test_helpers")
    set(_t mesa_${_name})
  endif()
  if(MESA_TEST_EGL_FOUND AND MESA_TEST_GL_FOUND)
    target_link_libraries(${_t} PRIVATE glref)
    target_compile_definitions(${_t} PRIVATE TEXVM_HAVE_GLREF=1)
    if(_mesa_tex_api)
      target_compile_definitions(${_t} PRIVATE TEXVM_DIFF_HAVE_TEX=1)
    endif()
  endif()
  if(_t STREQUAL "mesa_test_helpers")
    continue()
  endif()
  # Mesa's drivers allocate for the process lifetime; LeakSanitizer would report them.
  set_property(TEST mesa.${_name} APPEND PROPERTY ENVIRONMENT
               "GALLIVM_PERF=no_quad_lod,no_aos_sampling"
               "LP_NUM_THREADS=1"
               "ASAN_OPTIONS=detect_leaks=0")
endforeach()
