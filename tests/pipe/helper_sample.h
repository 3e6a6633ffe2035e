/* One texture lookup through the pipe layer, for the sampling tests (test_compressed.c,
 * test_texture_view.c, test_srgb_sampling.c): a one-thread compute shader runs a TGSI
 * texture opcode at given coordinates through a sampler view and sampler, and stores the
 * result in a buffer the helper reads back. */
#ifndef TEXVM_TESTS_PIPE_HELPER_SAMPLE_H
#define TEXVM_TESTS_PIPE_HELPER_SAMPLE_H

#include <stdint.h>

#include "texvm/pipe.h"

/* OP (TXF, TXL, ...; its source the four words COORD, as CONST[0][0]) through VIEW (a
 * view of TGSI target TT: "2D", "CUBE", ...) with sampler SAMP in slot 0 of the compute
 * stage; the result's four words into OUT (zeros first). Returns the launch's result: 0,
 * or -1 with the reason in tv_pipe_error. Uses resource handle PIPE_TEST_SAMPLE_BUFFER for
 * the result (made on first use) and a new shader object each call. */
enum { PIPE_TEST_SAMPLE_BUFFER = 91 };
int pipe_test_sample(tv_pipe_ctx *ctx, const tv_pipe_sampler_view *view,
                     const tv_pipe_sampler_state *samp, const char *tt, const char *op,
                     const uint32_t coord[4], uint32_t out[4]);

#endif
