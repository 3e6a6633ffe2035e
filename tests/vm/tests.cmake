# The JIT's inline x86 instructions in the narrower forms of hosts with less than this one
# (vm_jit_ops.c x86_op: 4 lanes an instruction without AVX, 8 without AVX-512;
# TEXVM_JIT_SIMD asks for them, never wider than the host): the JIT's own tests, whose NaN
# operands decide which operand an instruction returns (random programs compiled so:
# tests/tv/tests.cmake).
foreach(lanes 4 8)
  add_test(NAME vm.test_jit.simd${lanes} COMMAND vm_test_jit)
  set_tests_properties(vm.test_jit.simd${lanes} PROPERTIES
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} LABELS "vm;unit;tv" TIMEOUT 600
    ENVIRONMENT "TEXVM_JIT_SIMD=${lanes};TEXVM_BIN=$<TARGET_FILE:texvm>;TEXVM_SHARED_DIR=${TEXVM_SHARED_DIR}")
endforeach()
