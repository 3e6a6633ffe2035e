/* Job loader: valid files give the documented data (docs/jobs.md); every error path gives
 * its exact message. Expected values are written by hand from the format description. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helper_cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "'programs': [{'tgsi_text': 'FRAG\\n  0: END\\n'}]"
#define FRAG_OPEN "{'texvm_job': 1, " PROG ", 'frag': {'width': 4, 'height': 2"
#define HEAD "{'texvm_job': 1, " PROG ", 'frag': {'width': 4, 'height': 2}"
#define COMP_HEAD "{'texvm_job': 1, 'programs': [{'tgsi_text': 'COMP\\n  0: END\\n'}], " \
                  "'comp': {'grid': [2]}"

static void minimal_frag(void **state)
{
    (void)state;
    job *j = tcli_load_ok(HEAD "}");
    assert_int_equal(j->run, TV_TGSI_FRAG);
    assert_int_equal(j->num_programs, 1);
    assert_int_equal(j->programs[0].stage, TV_TGSI_FRAG);
    assert_string_equal(j->programs[0].text, "FRAG\n  0: END\n");
    assert_int_equal(j->frag.width, 4);
    assert_int_equal(j->frag.height, 2);
    assert_int_equal(j->frag.samples, 1);
    assert_int_equal(j->frag.prim, JOB_PRIM_RECT);
    assert_false(j->frag.has_positions);
    assert_true(j->frag.front_face);
    assert_int_equal(j->frag.num_targets, 1);
    assert_int_equal(j->frag.targets[0].format, tv_format_from_name("R32G32B32A32_FLOAT"));
    assert_int_equal(j->frag.targets[0].clear[0], 0);
    assert_false(j->frag.has_depth);
    assert_int_equal(j->options.threads, -1);
    for (int i = 0; i < JOB_MAX_SLOTS; i++) {
        assert_int_equal(j->sview[i], -1);
        assert_int_equal(j->samp[i], -1);
    }
    tv_job_free(j);
}

static void frag_inputs_and_targets(void **state)
{
    (void)state;
    job *j = tcli_load_ok(
        "{'texvm_job': 1, " PROG ", 'frag': {'size': [8, 6], 'samples': 4, 'primitive': 'triangle',"
        " 'positions': [[0, 0], [16, 0, 0.5], [0, 12, 0, 2]], 'front_face': false,"
        " 'inputs': [{'index': 3, 'values': [[1], [2, 3], [4, 5, 6]], 'interpolate': 'linear',"
        "             'location': 'centroid', 'glsl_name': 'v_x'},"
        "            {'index': 1, 'type': 'int', 'values': [[-1], ['0x10'], ['f:0.5']]}],"
        " 'targets': [{'format': 'R8G8B8A8_UNORM', 'clear': [0, 0, 0, 1]},"
        "             {'format': 'PIPE_FORMAT_R32_UINT', 'clear': 7}],"
        " 'depth': {'clear': 0.25}, 'stencil': {'clear': 3}}}");
    job_frag *f = &j->frag;
    assert_int_equal(f->width, 8);
    assert_int_equal(f->height, 6);
    assert_int_equal(f->samples, 4);
    assert_int_equal(f->prim, JOB_PRIM_TRIANGLE);
    assert_true(f->has_positions);
    /* [x, y] pads z = 0 and w = 1 */
    assert_true(f->positions[0][0] == 0.0f && f->positions[0][2] == 0.0f &&
                f->positions[0][3] == 1.0f);
    assert_true(f->positions[1][0] == 16.0f && f->positions[1][2] == 0.5f);
    assert_true(f->positions[2][1] == 12.0f && f->positions[2][3] == 2.0f);
    assert_false(f->front_face);
    assert_int_equal(f->num_inputs, 2);
    assert_int_equal(f->inputs[0].index, 3);
    assert_int_equal(f->inputs[0].interpolate, TV_INTERP_LINEAR);
    assert_int_equal(f->inputs[0].location, TV_LOC_CENTROID);
    assert_string_equal(f->inputs[0].glsl_name, "v_x");
    /* vertex 1 = (2, 3, 0, 1.0) */
    assert_int_equal(f->inputs[0].values[1][0], 0x40000000u);
    assert_int_equal(f->inputs[0].values[1][1], 0x40400000u);
    assert_int_equal(f->inputs[0].values[1][2], 0);
    assert_int_equal(f->inputs[0].values[1][3], 0x3f800000u);
    /* int type: -1, hex word, typed float; padding w = integer 1 */
    assert_int_equal(f->inputs[1].values[0][0], 0xffffffffu);
    assert_int_equal(f->inputs[1].values[0][3], 1);
    assert_int_equal(f->inputs[1].values[1][0], 0x10);
    assert_int_equal(f->inputs[1].values[2][0], 0x3f000000u);
    assert_int_equal(f->inputs[1].interpolate, -1);
    assert_int_equal(f->num_targets, 2);
    assert_int_equal(f->targets[0].format, tv_format_from_name("R8G8B8A8_UNORM"));
    assert_int_equal(f->targets[0].clear[3], 0x3f800000u);
    assert_int_equal(f->targets[1].format, tv_format_from_name("R32_UINT"));
    /* a single value is replicated; uint target: integer 7 */
    assert_int_equal(f->targets[1].clear[0], 7);
    assert_int_equal(f->targets[1].clear[3], 7);
    assert_true(f->has_depth && f->depth_clear == 0.25f);
    assert_true(f->has_stencil && f->stencil_clear == 3);
    tv_job_free(j);
}

static void typed_constants(void **state)
{
    (void)state;
    job *j = tcli_load_ok(
        HEAD ", 'constants': [{'slot': 0, 'values': [[1.5, -2], [0.25]]},"
        " {'slot': 2, 'type': 'uint', 'values': ['0x3f800000', 7, 'f:2.0', 'i:-3', 'u:9', 'nan',"
        "   'inf', '-inf', '-0']},"
        " {'slot': 3, 'type': 'int', 'values': [-5], 'size': 64, 'fill': '0xabcdef01'}]}");
    assert_int_equal(j->num_constants, 3);
    const uint32_t *w = (const uint32_t *)j->constants[0].data;
    assert_int_equal(j->constants[0].size, 32);
    assert_int_equal(w[0], 0x3fc00000u);
    assert_int_equal(w[1], 0xc0000000u);
    assert_int_equal(w[2], 0);
    assert_int_equal(w[3], 0);
    assert_int_equal(w[4], 0x3e800000u);
    w = (const uint32_t *)j->constants[1].data;
    assert_int_equal(j->constants[1].size, 48); /* 9 words rounded up to 16 bytes */
    static const uint32_t want[9] = {0x3f800000u, 7, 0x40000000u, 0xfffffffdu, 9,
                                     0x7fc00000u, 0x7f800000u, 0xff800000u, 0x80000000u};
    for (int i = 0; i < 9; i++)
        assert_int_equal(w[i], want[i]);
    assert_int_equal(w[9], 0);
    w = (const uint32_t *)j->constants[2].data;
    assert_int_equal(j->constants[2].size, 64);
    assert_int_equal(w[0], 0xfffffffbu);
    assert_int_equal(w[1], 0xabcdef01u);
    assert_int_equal(w[15], 0xabcdef01u);
    tv_job_free(j);
}

static void files_and_raw(void **state)
{
    (void)state;
    const uint8_t bytes[6] = {1, 2, 3, 4, 5, 6};
    tcli_write("cb.bin", bytes, sizeof bytes);
    uint8_t tex[2 * 2 * 4];
    for (int i = 0; i < 16; i++)
        tex[i] = (uint8_t)(100 + i);
    uint8_t padded[3 + sizeof tex];
    memcpy(padded + 3, tex, sizeof tex);
    tcli_write("tex.raw", padded, sizeof padded);
    tcli_write("shader.tgsi", "COMP\n  0: END\n", 14);
    tcli_write("shader.comp", "void main() {}\n", 15);
    job *j = tcli_load_ok(
        "{'texvm_job': 1, 'programs': [{'tgsi': 'shader.tgsi', 'glsl': 'shader.comp'}],"
        " 'comp': {'grid': [4, 2], 'block': [8, 8, 1], 'shared_bytes': 1024},"
        " 'constants': [{'slot': 1, 'file': 'cb.bin'}],"
        " 'buffers': [{'name': 'b', 'slot': 0, 'file': 'cb.bin', 'size': 8}],"
        " 'textures': [{'name': 't', 'format': 'R8G8B8A8_UNORM', 'width': 2, 'height': 2,"
        "   'source': {'raw': 'tex.raw', 'offset': 3}}]}");
    assert_int_equal(j->run, TV_TGSI_COMP);
    assert_string_equal(j->programs[0].tgsi_path, tcli_path("shader.tgsi"));
    assert_string_equal(j->programs[0].glsl_path, tcli_path("shader.comp"));
    assert_int_equal(j->comp.grid[0], 4);
    assert_int_equal(j->comp.grid[1], 2);
    assert_int_equal(j->comp.grid[2], 1);
    assert_int_equal(j->comp.block[0], 8);
    assert_int_equal(j->comp.shared_bytes, 1024);
    assert_int_equal(j->constants[0].size, 16);
    assert_memory_equal(j->constants[0].data, bytes, 6);
    assert_int_equal(j->constants[0].data[6], 0);
    assert_int_equal(j->buffers[0].size, 8);
    assert_memory_equal(j->buffers[0].data, bytes, 6);
    assert_int_equal(j->textures[0].data_size, 16);
    assert_memory_equal(j->textures[0].data, tex, 16);
    tv_job_free(j);
}

static void textures_samplers_bindings(void **state)
{
    (void)state;
    job *j = tcli_load_ok(
        HEAD ", 'textures': ["
        " {'name': 'a', 'format': 'R32G32B32A32_FLOAT', 'width': 2, 'height': 1,"
        "  'source': {'values': [[1, 2, 3, 4], [5]]}},"
        " {'name': 'c', 'type': 'CUBE', 'format': 'R8G8B8A8_UNORM', 'width': 4, 'height': 4,"
        "  'levels': 'all', 'mipmaps': 'pattern', 'source': {'pattern': 'levels'},"
        "  'view': {'min_level': 1, 'swizzle': 'bgr1', 'srgb': true, 'normalized': false},"
        "  'layout': 'block_linear', 'block': [0, 1, 0], 'header': {'max_anisotropy': 8,"
        "  'mip_lod_bias': 0.5}},"
        " {'format': 'R32_UINT', 'type': '2D_ARRAY', 'width': 3, 'height': 2, 'layers': 2,"
        "  'source': {'fill': [9]}, 'pitch': 64}],"
        " 'samplers': [{'name': 's', 'filter': 'trilinear', 'wrap': 'clamp_to_edge',"
        "   'wrap_p': 'mirror_once_border', 'border_color': [0, 0.5, 1, 1], 'lod_bias': -1.5,"
        "   'min_lod': 1, 'max_lod': 4, 'compare': 'gequal', 'max_anisotropy': 16,"
        "   'seamless_cube': false, 'unnormalized': true, 'reduction': 'max'},"
        "  {'min_filter': 'nearest', 'mag_filter': 'linear', 'mip_filter': 'point'}],"
        " 'bindings': {'units': [{'slot': 2, 'texture': 'c', 'sampler': 's'}],"
        "   'sviews': [{'slot': 0, 'texture': 0}], 'samplers': [{'slot': 5, 'sampler': 1}]}}");
    assert_int_equal(j->num_textures, 3);
    const job_texture *a = &j->textures[0], *c = &j->textures[1], *r = &j->textures[2];
    assert_int_equal(a->type, TV_TEX_2D);
    assert_int_equal(a->levels, 1);
    const float *af = (const float *)a->data;
    assert_true(af[0] == 1 && af[1] == 2 && af[2] == 3 && af[3] == 4);
    assert_true(af[4] == 5 && af[5] == 0 && af[6] == 0 && af[7] == 1); /* (0,0,0,1) padding */
    assert_int_equal(c->type, TV_TEX_CUBE);
    assert_int_equal(c->layers, 6);
    assert_int_equal(c->levels, 3);
    assert_int_equal(c->view_min_level, 1);
    assert_int_equal(c->view_max_level, 2);
    assert_memory_equal(c->swizzle, "bgr1", 4);
    assert_int_equal(c->srgb, 1);
    assert_false(c->normalized);
    assert_int_equal(c->layout, TV_TIC_BLOCKLINEAR);
    assert_int_equal(c->block[1], 1);
    assert_int_equal(c->num_overrides, 2);
    assert_int_equal(c->level_size[0], 4 * 4 * 4 * 6);
    assert_int_equal(c->level_size[1], 2 * 2 * 4 * 6);
    assert_int_equal(c->level_size[2], 1 * 1 * 4 * 6);
    /* levels pattern: level 0 red, 1 green, 2 blue (every face) */
    const uint8_t *l1 = c->data + c->level_offset[1] + 4 * 4 * 5; /* face 5, texel 0 */
    assert_int_equal(l1[0], 0);
    assert_int_equal(l1[1], 255);
    assert_int_equal(l1[2], 0);
    assert_int_equal(l1[3], 255);
    const uint8_t *l2 = c->data + c->level_offset[2];
    assert_int_equal(l2[2], 255);
    assert_int_equal(r->layers, 2);
    assert_int_equal(r->pitch, 64);
    assert_int_equal(r->data_size, 3 * 2 * 2 * 4);
    assert_int_equal(((const uint32_t *)r->data)[11], 9);

    const job_sampler *s = &j->samplers[0];
    assert_int_equal(s->min_filter, TV_MIN_ANISO); /* linear + anisotropy 16 */
    assert_int_equal(s->mag_filter, TV_MAG_LINEAR);
    assert_int_equal(s->mip_filter, TV_MIP_LINEAR);
    assert_int_equal(s->wrap[0], TV_WRAP_CLAMP_TO_EDGE);
    assert_int_equal(s->wrap[1], TV_WRAP_CLAMP_TO_EDGE);
    assert_int_equal(s->wrap[2], TV_WRAP_MIRROR_ONCE_BORDER);
    assert_int_equal(s->border[1], 0x3f000000u);
    assert_true(s->lod_bias == -1.5f && s->min_lod == 1.0f && s->max_lod == 4.0f);
    assert_int_equal(s->compare, TV_CMP_GEQUAL);
    assert_int_equal(s->max_anisotropy, 16);
    assert_false(s->seamless_cube);
    assert_true(s->unnormalized);
    assert_int_equal(s->reduction, 2);
    const job_sampler *s1 = &j->samplers[1];
    assert_int_equal(s1->min_filter, TV_MIN_POINT);
    assert_int_equal(s1->mag_filter, TV_MAG_LINEAR);
    assert_int_equal(s1->mip_filter, TV_MIP_POINT);
    assert_int_equal(s1->wrap[0], TV_WRAP_REPEAT);
    assert_true(s1->max_lod > 15.99f);
    assert_int_equal(s1->compare, -1);
    assert_true(s1->seamless_cube);

    assert_int_equal(j->sview[2], 1);
    assert_int_equal(j->samp[2], 0);
    assert_int_equal(j->sview[0], 0);
    assert_int_equal(j->samp[5], 1);
    assert_int_equal(j->sview[1], -1);
    tv_job_free(j);
}

static void default_bindings(void **state)
{
    (void)state;
    job *j = tcli_load_ok(HEAD ", 'textures': [{'format': 'R8_UNORM', 'width': 1},"
                          " {'format': 'R8_UNORM', 'width': 1}], 'samplers': [{}]}");
    assert_int_equal(j->sview[0], 0);
    assert_int_equal(j->sview[1], 1);
    assert_int_equal(j->sview[2], -1);
    assert_int_equal(j->samp[0], 0);
    assert_int_equal(j->samp[1], -1);
    tv_job_free(j);
}

static void generated_mips(void **state)
{
    (void)state;
    /* 4x2 R32_FLOAT with values 0..7; level 1 (2x1) = box averages, level 2 (1x1). */
    job *j = tcli_load_ok(
        HEAD ", 'textures': [{'format': 'R32_FLOAT', 'width': 4, 'height': 2,"
        " 'mipmaps': 'generate', 'source': {'values': [0, 1, 2, 3, 4, 5, 6, 7]}}]}");
    const job_texture *t = &j->textures[0];
    assert_int_equal(t->levels, 3);
    const float *l1 = (const float *)(t->data + t->level_offset[1]);
    assert_true(l1[0] == (0 + 1 + 4 + 5) / 4.0f);
    assert_true(l1[1] == (2 + 3 + 6 + 7) / 4.0f);
    const float *l2 = (const float *)(t->data + t->level_offset[2]);
    assert_true(l2[0] == (2.5f + 4.5f) / 2.0f);
    tv_job_free(j);
}

/* A raw texture output naming only `level` (or only `layer`) writes that one image; the
 * other index is 0 (issue 13 §4, jobs-outputs.md §1). */
static void texture_output_one_index(void **state)
{
    (void)state;
    job *j = tcli_load_ok(
        HEAD ", 'textures': [{'name': 't', 'type': '2D_ARRAY', 'format': 'R8_UNORM',"
        " 'width': 8, 'height': 8, 'layers': 3, 'levels': 2,"
        " 'source': {'pattern': 'checker'}}],"
        " 'outputs': [{'texture': 't', 'level': 1, 'raw': 'l1.bin'},"
        "             {'texture': 't', 'layer': 2, 'raw': 'a2.bin'},"
        "             {'texture': 't', 'raw': 'all.bin'}]}");
    assert_int_equal(j->num_outputs, 3);
    assert_int_equal(j->outputs[0].level, 1);
    assert_int_equal(j->outputs[0].layer, 0);
    assert_int_equal(j->outputs[1].level, 0);
    assert_int_equal(j->outputs[1].layer, 2);
    assert_int_equal(j->outputs[2].level, -1);
    assert_int_equal(j->outputs[2].layer, -1);
    tv_job_free(j);
}

static void vert_geom_outputs_checks(void **state)
{
    (void)state;
    job *j = tcli_load_ok(
        "{'texvm_job': 1, 'programs': [{'tgsi_text': 'VERT\\n  0: END\\n'},"
        "  {'stage': 'GEOM', 'tgsi_text': 'GEOM\\n  0: END\\n'}], 'run': 'VERT',"
        " 'vert': {'count': 3, 'instances': 2, 'base_vertex': -1, 'attributes': ["
        "   {'index': 0, 'values': [[0, 0], [1, 0], [0, 1]]},"
        "   {'index': 2, 'buffer': 'vb', 'format': 'R32G32_FLOAT', 'stride': 8, 'divisor': 1}]},"
        " 'geom': {'primitive': 'lines', 'count': 1, 'inputs': [{'index': 0, 'values': [[1], [2]]}]},"
        " 'buffers': [{'name': 'vb', 'size': 48}],"
        " 'hwatomics': [{'slot': 1, 'values': [5, 6], 'type': 'uint'}],"
        " 'memory': [{'address': '0x1000', 'size': 16}],"
        " 'outputs': [{'vertices': 'v.txt'}, {'buffer': 'vb', 'dump': 'vb.txt', 'type': 'float',"
        "   'columns': 2}, {'hwatomics': 1, 'raw': 'h.bin'}],"
        " 'checks': [{'buffer': 0, 'offset': 4, 'values': [0, 0]},"
        "   {'hwatomics': 1, 'values': [5]}],"
        " 'options': {'threads': 2, 'max_instructions': 1000, 'max_loop_iterations': 50,"
        "   'max_call_depth': 8, 'max_memory': '0x100000', 'precision': 'hardware',"
        "   'robust_access': false}}");
    assert_int_equal(j->run, TV_TGSI_VERT);
    assert_int_equal(j->vert.count, 3);
    assert_int_equal(j->vert.instances, 2);
    assert_int_equal(j->vert.base_vertex, -1);
    assert_int_equal(j->vert.num_attribs, 2);
    assert_int_equal(j->vert.attribs[0].values.count, 12);
    assert_int_equal(j->vert.attribs[0].values.w[7], 0x3f800000u); /* w of vertex 1 */
    assert_int_equal(j->vert.attribs[1].buffer, 0);
    assert_int_equal(j->vert.attribs[1].stride, 8);
    assert_int_equal(j->geom.primitive, JOB_GPRIM_LINES);
    assert_int_equal(j->geom.inputs[0].values.count, 8);
    assert_int_equal(j->hwatomics[0].size, 8);
    assert_int_equal(((uint32_t *)j->hwatomics[0].data)[1], 6);
    assert_int_equal(j->memory[0].address, 0x1000);
    assert_int_equal(j->num_outputs, 3);
    assert_int_equal(j->outputs[0].res, JOB_RES_VERTICES);
    assert_string_equal(j->outputs[0].path, "v.txt");
    assert_int_equal(j->outputs[1].writer, JOB_OUT_DUMP);
    assert_int_equal(j->outputs[1].type, JOB_TYPE_FLOAT);
    assert_int_equal(j->outputs[1].columns, 2);
    assert_int_equal(j->outputs[2].res, JOB_RES_HWATOMIC);
    assert_int_equal(j->checks[0].offset, 4);
    assert_int_equal(j->checks[1].values.w[0], 5);
    assert_int_equal(j->options.threads, 2);
    assert_int_equal(j->options.max_instructions, 1000);
    assert_int_equal(j->options.max_loop_iterations, 50);
    assert_int_equal(j->options.max_call_depth, 8);
    assert_int_equal(j->options.max_memory, 0x100000);
    assert_int_equal(j->options.precision, TV_TEX_PRECISION_HARDWARE);
    assert_int_equal(j->options.robust_access, 0);
    tv_job_free(j);
}

/* ---- errors -------------------------------------------------------------------------- */

#define TOP_KEYS "texvm_job, description, programs, run, frag, comp, vert, geom, constants, " \
                 "textures, samplers, bindings, buffers, images, hwatomics, memory, outputs, " \
                 "checks, options, scene"

static void errors_top(void **state)
{
    (void)state;
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'frag': {'width': 4, 'height': 2}, 'color': 1}",
                   TV_JOB_ERR_INVALID, "at key \"color\": unknown key (allowed: " TOP_KEYS ")");
    tcli_load_fail("{" PROG "}", TV_JOB_ERR_INVALID,
                   "at key \"texvm_job\": required key is missing");
    tcli_load_fail("{'texvm_job': 2, " PROG "}", TV_JOB_ERR_INVALID,
                   "at key \"texvm_job\": value 2 out of range [1, 1]");
    tcli_load_fail("[1]", TV_JOB_ERR_INVALID, "expected an object, got an array");
    tcli_load_fail("{'texvm_job': 1, 'texvm_job': 1}", TV_JOB_ERR_INVALID,
                   "at key \"texvm_job\": duplicate key");
    tcli_load_fail("{'texvm_job': 1}", TV_JOB_ERR_INVALID,
                   "at key \"programs\": required key is missing");
    tcli_load_fail("{'texvm_job': 1, 'programs': []}", TV_JOB_ERR_INVALID,
                   "at key \"programs\": expected a non-empty array of programs");
    /* JSON syntax: line and column of the error */
    tv_job_error err;
    const char *bad = "{\n  \"texvm_job\": [1,,2]\n}";
    job *j = tv_job_load_text(bad, strlen(bad), "x.json", &err);
    assert_null(j);
    assert_string_equal(err.message, "x.json:2:19: JSON syntax error");
    assert_int_equal(err.cls, TV_JOB_ERR_INVALID);
    /* missing job file */
    j = tv_job_load_file(tcli_path("nope.json"), &err);
    assert_null(j);
    char want[600];
    snprintf(want, sizeof want, "%s: cannot read \"%s\": No such file or directory",
             tcli_path("nope.json"), tcli_path("nope.json"));
    assert_string_equal(err.message, want);
    assert_int_equal(err.cls, TV_JOB_ERR_IO);
}

static void errors_programs(void **state)
{
    (void)state;
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi': 'a.tgsi', 'tgsi_text': 'FRAG'}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"programs[0]\": give exactly one of \"tgsi\" and \"tgsi_text\"");
    char want[700];
    snprintf(want, sizeof want,
             "at key \"programs[0].tgsi\": cannot read \"%s\": No such file or directory",
             tcli_path("missing.tgsi"));
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi': 'missing.tgsi'}]}", TV_JOB_ERR_IO, want);
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'stage': 'COMP', 'tgsi_text': 'FRAG\\nEND'}]}",
                   TV_JOB_ERR_INVALID, "at key \"programs[0]\": the TGSI text holds no COMP program");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'MOV'}]}", TV_JOB_ERR_INVALID,
                   "at key \"programs[0]\": the TGSI text does not start with VERT, FRAG, GEOM, "
                   "COMP, TESS_CTRL or TESS_EVAL; say \"stage\"");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}, {'tgsi_text': "
                   "'FRAG\\n'}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"programs[1]\": a second FRAG program (programs[0] is one)");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'stage': 'TESS', 'tgsi_text': 'FRAG'}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"programs[0].stage\": unknown value \"TESS\" (expected one of: "
                   "VERT, FRAG, GEOM, COMP, TESS_CTRL, TESS_EVAL)");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}, {'tgsi_text': "
                   "'VERT\\n'}], 'frag': {'width': 1, 'height': 1}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"run\": required key is missing (the job has 2 programs)");
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'run': 'COMP'}", TV_JOB_ERR_INVALID,
                   "at key \"run\": no COMP program in \"programs\"");
    snprintf(want, sizeof want,
             "at key \"programs[0].glsl\": cannot read \"%s\": No such file or directory",
             tcli_path("x.frag"));
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n', 'glsl': 'x.frag'}]}",
                   TV_JOB_ERR_IO, want);
}

static void errors_stages(void **state)
{
    (void)state;
    tcli_load_fail("{'texvm_job': 1, " PROG "}", TV_JOB_ERR_INVALID,
                   "at key \"frag\": required key is missing (the job runs FRAG)");
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'frag': {'width': 0, 'height': 2}}",
                   TV_JOB_ERR_INVALID, "at key \"frag.width\": value 0 out of range [1, 16384]");
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'frag': {'width': 1.5, 'height': 2}}",
                   TV_JOB_ERR_INVALID, "at key \"frag.width\": expected an integer, got 1.5");
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'frag': {'width': '4', 'height': 2}}",
                   TV_JOB_ERR_INVALID, "at key \"frag.width\": expected a number, got a string");
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'frag': {'width': 4}}", TV_JOB_ERR_INVALID,
                   "at key \"frag.height\": required key is missing");
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'frag': {'size': [4, 4], 'width': 4}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"frag.size\": give \"size\" or \"width\"/\"height\", not both");
    tcli_load_fail(FRAG_OPEN ", 'samples': 3}}", TV_JOB_ERR_INVALID,
                   "at key \"frag.samples\": samples must be 1, 2, 4, 8 or 16");
    tcli_load_fail(FRAG_OPEN ", 'inputs': [{'index': 0, 'values': [[0], [1], [2]]}]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"frag.inputs[0].values\": the rect has 4 vertices, this input gives "
                   "3 vectors");
    tcli_load_fail(FRAG_OPEN ", 'inputs': [{'index': 0, 'values': [[0], [1], [2], [3]]},"
                   " {'index': 0, 'values': [[0], [1], [2], [3]]}]}}",
                   TV_JOB_ERR_INVALID, "at key \"frag.inputs[1].index\": IN[0] is given twice");
    tcli_load_fail(FRAG_OPEN ", 'inputs': [{'index': 0, 'values': [[0], [1], [2], ['zz']]}]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"frag.inputs[0].values[3][0]\": bad value \"zz\" (expected a number, "
                   "\"0x\" and 1-8 hex digits, \"f:\", \"i:\" or \"u:\" and a number, \"nan\", "
                   "\"inf\", \"-inf\" or \"-0\")");
    tcli_load_fail(FRAG_OPEN ", 'inputs': [{'index': 0, 'values': [[0, 1, 2, 3, 4], [1], [2], [3]]}]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"frag.inputs[0].values[0]\": a vector has 1 to 4 elements, this one "
                   "has 5");
    tcli_load_fail(FRAG_OPEN ", 'targets': [{'format': 'Z32_FLOAT'}]}}", TV_JOB_ERR_INVALID,
                   "at key \"frag.targets[0].format\": Z32_FLOAT cannot be a colour target");
    tcli_load_fail(FRAG_OPEN ", 'primitive': 'quad'}}", TV_JOB_ERR_INVALID,
                   "at key \"frag.primitive\": unknown value \"quad\" (expected one of: triangle, "
                   "rect)");
    tcli_load_fail(FRAG_OPEN ", 'positions': [[0, 0], [1, 0]]}}", TV_JOB_ERR_INVALID,
                   "at key \"frag.positions\": expected 4 vectors [x, y, z, w], one per vertex");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'COMP\\n'}], 'comp': {}}",
                   TV_JOB_ERR_INVALID, "at key \"comp.grid\": required key is missing");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'COMP\\n'}], 'comp': {'grid': "
                   "[1, 0]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"comp.grid\": each size must be an integer in [1, 65535]");
    /* found by fuzz_job: a huge size was converted to uint32 before its range check (UB) */
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'COMP\\n'}], 'comp': {'grid': "
                   "[1e89]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"comp.grid\": each size must be an integer in [1, 65535]");
    tcli_load_fail("{'texvm_job': 1, " PROG ", 'frag': {'size': [4, 1e40]}}", TV_JOB_ERR_INVALID,
                   "at key \"frag.size\": width and height must be integers in [1, 16384]");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'VERT\\n'}], 'vert': {'count': 2,"
                   " 'attributes': [{'index': 0, 'values': [[1]]}]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"vert.attributes[0].values\": 1 vectors for 2 vertices");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'VERT\\n'}], 'vert': {'count': 2,"
                   " 'attributes': [{'index': 0, 'buffer': 'nobuf', 'format': 'R32_FLOAT'}]}}",
                   TV_JOB_ERR_INVALID, "at key \"vert.attributes[0].buffer\": unknown buffer \"nobuf\"");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'GEOM\\n'}], 'geom': {'count': 2,"
                   " 'inputs': [{'index': 0, 'values': [[1], [2], [3]]}]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"geom.inputs[0].values\": 3 vectors; 2 primitives of 3 vertices need 6");
}

static void errors_resources(void **state)
{
    (void)state;
    tcli_load_fail(HEAD ", 'constants': [{'slot': 0, 'values': [1]}, {'slot': 0, 'values': [2]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"constants[1].slot\": constant buffer 0 is given twice (constants[0])");
    tcli_load_fail(HEAD ", 'constants': [{'slot': 0, 'values': [1, [2]]}]}", TV_JOB_ERR_INVALID,
                   "at key \"constants[0].values[1]\": mixes vectors and single values (use all "
                   "[..] or none)");
    tcli_load_fail(HEAD ", 'constants': [{'slot': 0, 'type': 'uint', 'values': [-1]}]}",
                   TV_JOB_ERR_INVALID, "at key \"constants[0].values[0]\": -1 is not a uint32");
    tcli_load_fail(HEAD ", 'constants': [{'slot': 0, 'type': 'int', 'values': [3000000000]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"constants[0].values[0]\": 3000000000 is not an int32");
    tcli_load_fail(HEAD ", 'constants': [{'slot': 0}]}", TV_JOB_ERR_INVALID,
                   "at key \"constants[0]\": give \"values\", \"file\" or \"size\"");
    tcli_load_fail(HEAD ", 'constants': [{'slot': 0, 'type': 'double', 'values': [1]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"constants[0].type\": unknown value \"double\" (expected one of: "
                   "float, int, uint, hex)");
    tcli_load_fail(HEAD ", 'buffers': [{'name': 'b', 'size': 4}, {'name': 'b', 'size': 4}]}",
                   TV_JOB_ERR_INVALID, "at key \"buffers[1].name\": duplicate buffer name \"b\"");
    tcli_load_fail(HEAD ", 'buffers': [{'slot': 1, 'size': 4}, {'slot': 1, 'size': 4}]}",
                   TV_JOB_ERR_INVALID, "at key \"buffers[1].slot\": BUFFER[1] is bound twice");
    tcli_load_fail(HEAD ", 'memory': [{'address': 16, 'size': 32}, {'address': 32, 'size': 4}]}",
                   TV_JOB_ERR_INVALID, "at key \"memory[1].address\": overlaps memory[0]");
}

#define TEX(body) HEAD ", 'textures': [" body "]}"

static void errors_textures(void **state)
{
    (void)state;
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 1}, {'format': 'RGBA9', 'width': 1}"),
                   TV_JOB_ERR_INVALID, "at key \"textures[1].format\": unknown format \"RGBA9\"");
    tcli_load_fail(TEX("{'width': 1}"), TV_JOB_ERR_INVALID,
                   "at key \"textures[0].format\": required key is missing");
    tcli_load_fail(TEX("{'format': 'R8_UNORM'}"), TV_JOB_ERR_INVALID,
                   "at key \"textures[0].width\": required key is missing (no PNG source to take "
                   "it from)");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'type': 'CUBE', 'width': 4, 'height': 2}"),
                   TV_JOB_ERR_INVALID, "at key \"textures[0].height\": cube faces are square, not 4x2");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'layers': 2}"), TV_JOB_ERR_INVALID,
                   "at key \"textures[0].layers\": only array and cube textures have layers");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'type': 'CUBE_ARRAY', 'width': 4, 'height': 4, "
                       "'layers': 8}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].layers\": a cube array has 6 layers per cube, 8 is not a "
                   "multiple of 6");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'height': 4, 'levels': 4}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].levels\": 4 levels, but a 4x4x1 texture has 3");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'levels': 0}"), TV_JOB_ERR_INVALID,
                   "at key \"textures[0].levels\": expected a number of levels in [1, 16] or "
                   "\"all\"");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'type': '1D', 'width': 4, 'height': 2}"),
                   TV_JOB_ERR_INVALID, "at key \"textures[0].height\": a 1D texture has height 1");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'height': 4, 'levels': 2,"
                       " 'level_sources': [{'fill': [1]}]}"),
                   TV_JOB_ERR_INVALID, "at key \"textures[0].level_sources\": 1 sources for 2 levels");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'mipmaps': 'pattern', 'source': "
                       "{'fill': [1]}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].mipmaps\": \"pattern\" mip maps need a pattern source");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'source': {'fill': [1], 'png': 'a'}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].source\": a source has exactly one of \"png\", \"raw\", "
                   "\"values\", \"pattern\", \"fill\"");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'source': {'pattern': 'plasma'}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].source.pattern\": unknown value \"plasma\" (expected one "
                   "of: fill, checker, gradient, uv, noise, levels, layers, bricks)");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'source': {'pattern': 'uv', 'cell': 2}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].source.cell\": unknown key (allowed: pattern)");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'view': {'swizzle': 'rgbx'}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].view.swizzle\": bad swizzle \"rgbx\" (4 letters of r, g, "
                   "b, a, 0, 1)");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'header': {'nonsense': 1}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].header.nonsense\": unknown texture header field");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'pitch': 40}"), TV_JOB_ERR_INVALID,
                   "at key \"textures[0].pitch\": the pitch must be a multiple of 32");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 2, 'source': {'values': [1, 2, 3]}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].source\": 3 texel values, level 0 has 2 texels");
    tcli_load_fail(TEX("{'format': 'BC1_RGBA_UNORM', 'width': 4, 'height': 4, 'source': "
                       "{'fill': [1]}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].source\": BC1_RGBA_UNORM is block-compressed: give its "
                   "data as a \"raw\" source");
    tcli_load_fail(TEX("{'format': 'R8_UNORM', 'width': 4, 'height': 4, 'levels': 2, "
                       "'source': {'values': [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}}"),
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].source\": level 1 has no data: set \"mipmaps\" or give "
                   "\"level_sources\"");
    char want[700];
    snprintf(want, sizeof want,
             "at key \"textures[0].source\": \"%s\" is too short: 16 bytes needed from offset 0",
             tcli_path("short.raw"));
    tcli_write("short.raw", "abc", 3);
    tcli_load_fail(TEX("{'format': 'R8G8B8A8_UNORM', 'width': 2, 'height': 2, 'source': "
                       "{'raw': 'short.raw'}}"),
                   TV_JOB_ERR_INVALID, want);
}

static void errors_samplers_bindings(void **state)
{
    (void)state;
    tcli_load_fail(HEAD ", 'samplers': [{'wrap_u': 'wrap'}]}", TV_JOB_ERR_INVALID,
                   "at key \"samplers[0].wrap_u\": unknown value \"wrap\" (expected one of: repeat, "
                   "mirror, clamp_to_edge, border, clamp, mirror_once_clamp_to_edge, "
                   "mirror_once_border, mirror_once_clamp)");
    tcli_load_fail(HEAD ", 'samplers': [{'max_anisotropy': 3}]}", TV_JOB_ERR_INVALID,
                   "at key \"samplers[0].max_anisotropy\": max_anisotropy must be 1, 2, 4, 6, 8, "
                   "10, 12 or 16");
    /* drivers' out-of-range LOD limits are clamped to the descriptor's [0, 15.996] */
    job *jl = tcli_load_ok(HEAD ", 'samplers': [{'min_lod': -1000, 'max_lod': 1000}]}");
    assert_true(jl->samplers[0].min_lod == 0.0f && jl->samplers[0].max_lod == 15.99609375f);
    /* sRGB decoding is on unless the sampler says otherwise, as in GL */
    assert_true(jl->samplers[0].srgb_conversion);
    tv_job_free(jl);
    tcli_load_fail(HEAD ", 'samplers': [{'min_lod': 3, 'max_lod': 2}]}", TV_JOB_ERR_INVALID,
                   "at key \"samplers[0].min_lod\": min_lod 3 is above max_lod 2");
    tcli_load_fail(HEAD ", 'samplers': [{'lod_bias': 16}]}", TV_JOB_ERR_INVALID,
                   "at key \"samplers[0].lod_bias\": value 16 out of range [-16, 15.99609375]");
    tcli_load_fail(HEAD ", 'samplers': [{'compare': 'lt'}]}", TV_JOB_ERR_INVALID,
                   "at key \"samplers[0].compare\": unknown value \"lt\" (expected one of: none, "
                   "never, less, equal, lequal, greater, notequal, gequal, always)");
    tcli_load_fail(HEAD ", 'samplers': [{}], 'bindings': {'units': [{'slot': 0, 'texture': 'x', "
                   "'sampler': 0}]}}",
                   TV_JOB_ERR_INVALID, "at key \"bindings.units[0].texture\": unknown texture \"x\"");
    tcli_load_fail(HEAD ", 'textures': [{'format': 'R8_UNORM', 'width': 1}], 'bindings': "
                   "{'sviews': [{'slot': 0, 'texture': 5}]}}",
                   TV_JOB_ERR_INVALID,
                   "at key \"bindings.sviews[0].texture\": no texture with index 5 (the job has 1)");
    tcli_load_fail(HEAD ", 'textures': [{'format': 'R8_UNORM', 'width': 1}], 'samplers': [{}],"
                   " 'bindings': {'units': [{'slot': 0, 'texture': 0, 'sampler': 0}],"
                   " 'sviews': [{'slot': 0, 'texture': 0}]}}",
                   TV_JOB_ERR_INVALID, "at key \"bindings.sviews[0].slot\": SVIEW[0] is bound twice");
    tcli_load_fail(HEAD ", 'textures': [{'format': 'R8_UNORM', 'width': 4}], 'images': "
                   "[{'slot': 0, 'texture': 0, 'level': 1}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"images[0].level\": level 1, but the texture has 1 levels");
    tcli_load_fail(HEAD ", 'textures': [{'format': 'R8_UNORM', 'width': 4}], 'images': "
                   "[{'slot': 0, 'texture': 0, 'format': 'R32_UINT'}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"images[0].format\": R32_UINT has 4 bytes per texel, the texture's "
                   "R8_UNORM has 1");
}

static void errors_outputs_checks(void **state)
{
    (void)state;
    tcli_load_fail(HEAD ", 'buffers': [{'name': 'b', 'size': 4}], 'outputs': [{'buffer': 'b', "
                   "'png': 'b.png'}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"outputs[0].png\": PNG output is for targets, depth, stencil and "
                   "textures");
    tcli_load_fail(HEAD ", 'outputs': [{'target': 1, 'png': 'o.png'}]}", TV_JOB_ERR_INVALID,
                   "at key \"outputs[0].target\": target 1, but frag has 1 targets");
    tcli_load_fail(HEAD ", 'outputs': [{'target': 0, 'png': 'o.png', 'raw': 'o.raw'}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"outputs[0]\": give exactly one of \"png\", \"raw\", \"dump\"");
    tcli_load_fail(HEAD ", 'outputs': [{'png': 'o.png'}]}", TV_JOB_ERR_INVALID,
                   "at key \"outputs[0]\": name exactly one of \"target\", \"depth\", "
                   "\"stencil\", \"texture\", \"buffer\", \"hwatomics\", \"vertices\"");
    tcli_load_fail(HEAD ", 'outputs': [{'depth': true, 'raw': 'd.raw'}]}", TV_JOB_ERR_INVALID,
                   "at key \"outputs[0].depth\": the job has no frag.depth buffer");
    tcli_load_fail(HEAD ", 'outputs': [{'vertices': 'v.txt'}]}", TV_JOB_ERR_INVALID,
                   "at key \"outputs[0].vertices\": vertex outputs exist only in VERT and GEOM "
                   "jobs");
    tcli_load_fail(HEAD ", 'outputs': [{'target': 0, 'png': 'o.png', 'bits': 12}]}",
                   TV_JOB_ERR_INVALID, "at key \"outputs[0].bits\": bits must be 8 or 16");
    tcli_load_fail(COMP_HEAD ", 'outputs': [{'target': 0, 'png': 'o.png'}]}", TV_JOB_ERR_INVALID,
                   "at key \"outputs[0].target\": render targets exist only in FRAG jobs");
    tcli_load_fail(HEAD ", 'checks': [{'target': 0, 'pixel': [4, 0], 'values': [1]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"checks[0].pixel\": pixel (4, 0) is outside 4x2");
    tcli_load_fail(HEAD ", 'checks': [{'target': 0, 'values': [1]}]}", TV_JOB_ERR_INVALID,
                   "at key \"checks[0].pixel\": required key is missing");
    tcli_load_fail(HEAD ", 'buffers': [{'size': 8}], 'checks': [{'buffer': 0, 'offset': 4, "
                   "'values': [1, 2]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"checks[0].offset\": 2 words at byte 4 do not fit the 8 bytes (or the "
                   "offset is not a multiple of 4)");
    tcli_load_fail(HEAD ", 'buffers': [{'size': 8}], 'checks': [{'buffer': 0, 'reference': "
                   "'r.png'}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"checks[0].reference\": a reference image is for targets, depth, "
                   "stencil and textures");
    tcli_load_fail(HEAD ", 'checks': [{'target': 0, 'reference': 'r.png', 'pixel': [0, 0]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"checks[0].reference\": give \"reference\" or \"pixel\" and "
                   "\"values\", not both");
    tcli_load_fail(HEAD ", 'options': {'threads': -1}}", TV_JOB_ERR_INVALID,
                   "at key \"options.threads\": value -1 out of range [0, 1024]");
    tcli_load_fail(HEAD ", 'options': {'precision': 'exact'}}", TV_JOB_ERR_INVALID,
                   "at key \"options.precision\": unknown value \"exact\" (expected one of: "
                   "reference, hardware)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(minimal_frag),
        cmocka_unit_test(frag_inputs_and_targets),
        cmocka_unit_test(typed_constants),
        cmocka_unit_test(files_and_raw),
        cmocka_unit_test(textures_samplers_bindings),
        cmocka_unit_test(default_bindings),
        cmocka_unit_test(generated_mips),
        cmocka_unit_test(vert_geom_outputs_checks),
        cmocka_unit_test(texture_output_one_index),
        cmocka_unit_test(errors_top),
        cmocka_unit_test(errors_programs),
        cmocka_unit_test(errors_stages),
        cmocka_unit_test(errors_resources),
        cmocka_unit_test(errors_textures),
        cmocka_unit_test(errors_samplers_bindings),
        cmocka_unit_test(errors_outputs_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
