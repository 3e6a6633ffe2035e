/* Scene loader internals (job_load_scene*.c): the "scene" section of a job file. */
#ifndef TEXVM_SRC_JOB_JOB_LOAD_SCENE_H
#define TEXVM_SRC_JOB_JOB_LOAD_SCENE_H

#include "job_internal.h"
#include "job_scene.h"

/* The "scene" section (docs/jobs-scenes.md); an error when it is given without
 * "run": "SCENE" or missing with it. */
bool jl_scene(jl *c, const cJSON *root);

/* Draw state: GL's defaults, then the keys of a "state" object applied over it. */
void jl_scene_state_default(job_scene_state *s);
bool jl_scene_state(jl *c, const cJSON *o, job_scene_state *s);
/* Constant rows: vec4s and {"matrix": [...]} / {"normal_matrix": [...]} items, as float
 * words (malloc'ed), 4 a row. */
bool jl_scene_rows(jl *c, const cJSON *a, uint32_t **words, size_t *count);

#endif
