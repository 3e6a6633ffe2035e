# Random programs with the JIT's inline x86 instructions in the 4-lane form of a host without
# AVX (vm_jit_ops.c x86_op; TEXVM_JIT_SIMD, tests/vm/tests.cmake).
add_test(NAME tv.test_tv_random.simd4 COMMAND tv_test_tv_random)
set_tests_properties(tv.test_tv_random.simd4 PROPERTIES
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} LABELS "tv;unit" TIMEOUT 600
  ENVIRONMENT "TEXVM_JIT_SIMD=4;TV_PROGRAMS=1500;TEXVM_BIN=$<TARGET_FILE:texvm>;TEXVM_SHARED_DIR=${TEXVM_SHARED_DIR}")
