/* The texture unit's differential test against llvmpipe (test_tex_llvmpipe.c): its
 * operation families, each a generator of random (texture, sampler, coordinates) cases
 * into a diff_batch (helper_tex_cases.c) and its number of batches of 128 cases. */
#ifndef TEXVM_TESTS_MESA_TEX_CASES_H
#define TEXVM_TESTS_MESA_TEX_CASES_H

#include <stdint.h>

#include "diff.h"

#ifdef TEXVM_HAVE_GLREF

typedef struct tex_family {
    const char *name;
    void (*gen)(diff_batch *b, uint32_t *rng, int idx); /* batch IDX of the family */
    int batches;
} tex_family;

#define TEX_FAMILIES 12 /* the families in tex_families */
extern const tex_family tex_families[TEX_FAMILIES];

#endif

#endif /* TEXVM_TESTS_MESA_TEX_CASES_H */
