/* Job data: lookups, sizes, freeing. */
#include "job_internal.h"
#include "job_scene.h"

#include <stdlib.h>
#include <string.h>

int job_texture_find(const job *j, const char *name)
{
    for (size_t i = 0; i < j->num_textures; i++)
        if (j->textures[i].name && !strcmp(j->textures[i].name, name))
            return (int)i;
    return -1;
}

int job_buffer_find(const job *j, const char *name)
{
    for (size_t i = 0; i < j->num_buffers; i++)
        if (j->buffers[i].name && !strcmp(j->buffers[i].name, name))
            return (int)i;
    return -1;
}

int job_sampler_find(const job *j, const char *name)
{
    for (size_t i = 0; i < j->num_samplers; i++)
        if (j->samplers[i].name && !strcmp(j->samplers[i].name, name))
            return (int)i;
    return -1;
}

uint32_t job_full_levels(uint32_t w, uint32_t h, uint32_t d)
{
    uint32_t m = w > h ? w : h;
    if (d > m)
        m = d;
    uint32_t n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

uint32_t job_texture_layers(const job_texture *t, uint32_t level)
{
    if (t->type == TV_TEX_3D)
        return job_level_size(t->depth, level);
    return t->layers;
}

size_t job_texture_level_bytes(const job_texture *t, uint32_t level)
{
    const tv_format_info *fi = tv_format_get(t->format);
    if (!fi)
        return 0;
    size_t w = job_level_size(t->width, level), h = job_level_size(t->height, level);
    size_t bw = (w + fi->block_w - 1) / fi->block_w, bh = (h + fi->block_h - 1) / fi->block_h;
    return bw * bh * fi->block_bytes * job_texture_layers(t, level) * t->samples;
}

void job_source_free(job_source *s)
{
    free(s->path);
    free(s->values.w);
    s->path = NULL;
    s->values.w = NULL;
}

void tv_job_free(job *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->num_programs; i++) {
        free(j->programs[i].name);
        free(j->programs[i].tgsi_path);
        free(j->programs[i].text);
        free(j->programs[i].glsl_path);
    }
    free(j->programs);
    for (size_t i = 0; i < j->frag.num_inputs; i++)
        free(j->frag.inputs[i].glsl_name);
    free(j->frag.inputs);
    for (size_t i = 0; i < j->vert.num_attribs; i++) {
        free(j->vert.attribs[i].values.w);
        free(j->vert.attribs[i].glsl_name);
    }
    free(j->vert.attribs);
    for (size_t i = 0; i < j->geom.num_inputs; i++)
        free(j->geom.inputs[i].values.w);
    free(j->geom.inputs);
    for (size_t i = 0; i < j->num_constants; i++) {
        free(j->constants[i].data);
        free(j->constants[i].glsl_block);
    }
    free(j->constants);
    for (size_t i = 0; i < j->num_textures; i++) {
        job_texture *t = &j->textures[i];
        free(t->name);
        job_source_free(&t->source);
        for (size_t k = 0; k < t->num_level_sources; k++)
            job_source_free(&t->level_sources[k]);
        free(t->level_sources);
        for (size_t k = 0; k < t->num_layer_sources; k++)
            job_source_free(&t->layer_sources[k]);
        free(t->layer_sources);
        free(t->overrides);
        free(t->data);
    }
    free(j->textures);
    for (size_t i = 0; i < j->num_samplers; i++)
        free(j->samplers[i].name);
    free(j->samplers);
    for (size_t i = 0; i < j->num_buffers; i++) {
        free(j->buffers[i].name);
        free(j->buffers[i].data);
    }
    free(j->buffers);
    free(j->images);
    for (size_t i = 0; i < j->num_hwatomics; i++)
        free(j->hwatomics[i].data);
    free(j->hwatomics);
    for (size_t i = 0; i < j->num_memory; i++)
        free(j->memory[i].data);
    free(j->memory);
    for (size_t i = 0; i < j->num_outputs; i++)
        free(j->outputs[i].path);
    free(j->outputs);
    for (size_t i = 0; i < j->num_checks; i++) {
        free(j->checks[i].values.w);
        free(j->checks[i].reference);
    }
    free(j->checks);
    job_scene_free(j->scene);
    free(j->description);
    free(j->path);
    free(j->dir);
    free(j);
}

bool jl_is_uint_in(double d, double max)
{
    return d >= 0 && d <= max && d == (double)(uint32_t)d;
}
