/* mesa-run: constant buffers. Slot 0 is GLSL's default uniform block laid out as softpipe's
 * TGSI sees it (CONST[0][n]); slot n >= 1 is uniform block n - 1. */
#include "mr.h"

#include <stdlib.h>
#include <string.h>

/* Matrix columns and components per column of a uniform type (1 column otherwise). */
static void shape(GLenum type, int *cols, int *rows)
{
    static const struct {
        GLenum t;
        int c, r;
    } k[] = {
        {GL_FLOAT_VEC2, 1, 2}, {GL_FLOAT_VEC3, 1, 3}, {GL_FLOAT_VEC4, 1, 4},
        {GL_INT_VEC2, 1, 2}, {GL_INT_VEC3, 1, 3}, {GL_INT_VEC4, 1, 4},
        {GL_UNSIGNED_INT_VEC2, 1, 2}, {GL_UNSIGNED_INT_VEC3, 1, 3},
        {GL_UNSIGNED_INT_VEC4, 1, 4}, {GL_BOOL_VEC2, 1, 2}, {GL_BOOL_VEC3, 1, 3},
        {GL_BOOL_VEC4, 1, 4}, {GL_FLOAT_MAT2, 2, 2}, {GL_FLOAT_MAT3, 3, 3},
        {GL_FLOAT_MAT4, 4, 4}, {GL_FLOAT_MAT2x3, 2, 3}, {GL_FLOAT_MAT2x4, 2, 4},
        {GL_FLOAT_MAT3x2, 3, 2}, {GL_FLOAT_MAT3x4, 3, 4}, {GL_FLOAT_MAT4x2, 4, 2},
        {GL_FLOAT_MAT4x3, 4, 3},
    };
    *cols = 1;
    *rows = 1;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (k[i].t == type) {
            *cols = k[i].c;
            *rows = k[i].r;
        }
}

static bool plain_type(GLenum t)
{
    static const GLenum k[] = {
        GL_FLOAT, GL_FLOAT_VEC2, GL_FLOAT_VEC3, GL_FLOAT_VEC4, GL_INT, GL_INT_VEC2,
        GL_INT_VEC3, GL_INT_VEC4, GL_UNSIGNED_INT, GL_UNSIGNED_INT_VEC2,
        GL_UNSIGNED_INT_VEC3, GL_UNSIGNED_INT_VEC4, GL_BOOL, GL_BOOL_VEC2, GL_BOOL_VEC3,
        GL_BOOL_VEC4, GL_FLOAT_MAT2, GL_FLOAT_MAT3, GL_FLOAT_MAT4, GL_FLOAT_MAT2x3,
        GL_FLOAT_MAT2x4, GL_FLOAT_MAT3x2, GL_FLOAT_MAT3x4, GL_FLOAT_MAT4x2, GL_FLOAT_MAT4x3};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (k[i] == t)
            return true;
    return false;
}

typedef struct uentry {
    char name[128];          /* without "[0]" */
    GLint loc, size;
    GLenum type;
    int cols, rows;
    int slot;                /* first CONST[0] vec4 */
} uentry;

/* Default-block uniforms in location order with their CONST[0] slots: one vec4 per
 * column and per array element (softpipe does not pack uniforms). */
static int collect(GLuint prog, uentry *out, int max)
{
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
    int count = 0;
    for (GLint i = 0; i < n && count < max; i++) {
        GLuint idx = (GLuint)i;
        GLint block = -1;
        glGetActiveUniformsiv(prog, 1, &idx, GL_UNIFORM_BLOCK_INDEX, &block);
        uentry e;
        memset(&e, 0, sizeof e);
        glGetActiveUniform(prog, idx, sizeof e.name, NULL, &e.size, &e.type, e.name);
        if (block >= 0 || !plain_type(e.type) || !strncmp(e.name, "gl_", 3))
            continue;
        char *br = strstr(e.name, "[0]");
        if (br && br[3] == '\0')
            *br = '\0';
        e.loc = glGetUniformLocation(prog, e.name);
        shape(e.type, &e.cols, &e.rows);
        int k = count++;
        while (k > 0 && out[k - 1].loc > e.loc) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = e;
    }
    int slot = 0;
    for (int i = 0; i < count; i++) {
        out[i].slot = slot;
        slot += out[i].size * out[i].cols;
    }
    return count;
}

void mr_print_layout(mr_state *s, FILE *out)
{
    uentry u[256];
    int n = collect(s->prog, u, 256);
    int next = 0;
    fprintf(out, "CONST[0] layout (default uniform block, one vec4 per column/element):\n");
    for (int i = 0; i < n; i++) {
        fprintf(out, "  CONST[0][%d..%d]  %s (%d x %d components, %d element%s)\n", u[i].slot,
                u[i].slot + u[i].size * u[i].cols - 1, u[i].name, u[i].cols, u[i].rows,
                u[i].size, u[i].size == 1 ? "" : "s");
        next = u[i].slot + u[i].size * u[i].cols;
    }
    fprintf(out, "  CONST[0][%d]...   Mesa state values follow (e.g. gl_FbWposYTransform = "
                 "(-1, 0, 1, 0) for mesa-run's framebuffer)\n", next);
    GLint blocks = 0;
    glGetProgramiv(s->prog, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
    for (GLint b = 0; b < blocks; b++) {
        char name[128];
        glGetActiveUniformBlockName(s->prog, (GLuint)b, sizeof name, NULL, name);
        fprintf(out, "  CONST[%d][...]    uniform block %s (binding %d)\n", b + 1, name, b);
    }
}

static int upload_default(mr_state *s, const job_constbuf *cb)
{
    uentry u[256];
    int n = collect(s->prog, u, 256);
    size_t words = cb->size / 4;
    for (int i = 0; i < n; i++) {
        int per = u[i].cols * u[i].rows, total = per * u[i].size;
        uint32_t *w = calloc((size_t)total, 4);
        if (!w)
            return mr_fail(s, TV_EXIT_INVALID, "out of memory");
        for (int e = 0; e < u[i].size; e++)
            for (int c = 0; c < u[i].cols; c++)
                for (int r = 0; r < u[i].rows; r++) {
                    size_t src = (size_t)(u[i].slot + e * u[i].cols + c) * 4 + (size_t)r;
                    uint32_t v = 0;
                    if (src < words)
                        memcpy(&v, cb->data + src * 4, 4);
                    w[e * per + c * u[i].rows + r] = v;
                }
        bool ok = glref_uniform(s->g, s->prog, u[i].name, w, u[i].size);
        free(w);
        if (!ok)
            return mr_fail(s, TV_EXIT_INVALID, "constants slot 0: %s", glref_error(s->g));
    }
    return 0;
}

static int upload_block(mr_state *s, const job_constbuf *cb)
{
    GLuint index;
    if (cb->glsl_block)
        index = glGetUniformBlockIndex(s->prog, cb->glsl_block);
    else
        index = cb->slot - 1;
    GLint blocks = 0;
    glGetProgramiv(s->prog, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
    if (index == GL_INVALID_INDEX || (GLint)index >= blocks)
        return mr_fail(s, TV_EXIT_INVALID, "constants slot %u: no uniform block %s%s", cb->slot,
                       cb->glsl_block ? "named " : "for this slot", cb->glsl_block ? cb->glsl_block : "");
    GLint need = 0;
    glGetActiveUniformBlockiv(s->prog, index, GL_UNIFORM_BLOCK_DATA_SIZE, &need);
    size_t size = cb->size > (size_t)need ? cb->size : (size_t)need;
    uint8_t *data = calloc(1, size ? size : 1);
    if (!data)
        return mr_fail(s, TV_EXIT_INVALID, "out of memory");
    memcpy(data, cb->data, cb->size);
    GLuint buf = glref_buffer(s->g, data, size);
    free(data);
    if (!buf)
        return mr_fail(s, TV_EXIT_INVALID, "constants slot %u: %s", cb->slot, glref_error(s->g));
    glUniformBlockBinding(s->prog, index, index);
    /* kept until mr_resources_free: deleting a bound buffer unbinds it */
    if (cb->slot < JOB_MAX_SLOTS) {
        glref_buffer_delete(s->g, s->ubo[cb->slot]);
        s->ubo[cb->slot] = buf;
    }
    if (!glref_bind_buffer(s->g, GL_UNIFORM_BUFFER, index, buf))
        return mr_fail(s, TV_EXIT_INVALID, "constants slot %u: %s", cb->slot, glref_error(s->g));
    return 0;
}

static int apply_overrides(mr_state *s)
{
    for (int i = 0; i < s->opts->num_uniforms; i++) {
        uint32_t words[64];
        int n = 0;
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", s->opts->uniform_value[i]);
        for (char *tok = strtok(buf, ","); tok && n < 64; tok = strtok(NULL, ",")) {
            char msg[256];
            if (!job_word_from_string(tok, JOB_TYPE_FLOAT, &words[n++], msg, sizeof msg))
                return mr_fail(s, TV_EXIT_USAGE, "--uniform %s: %s", s->opts->uniform_name[i], msg);
        }
        GLint loc = glGetUniformLocation(s->prog, s->opts->uniform_name[i]);
        if (loc < 0)
            return mr_fail(s, TV_EXIT_USAGE, "--uniform: no active uniform %s",
                           s->opts->uniform_name[i]);
        /* one element; the value count must fit its type */
        if (!glref_uniform(s->g, s->prog, s->opts->uniform_name[i], words, 1))
            return mr_fail(s, TV_EXIT_USAGE, "--uniform: %s", glref_error(s->g));
    }
    return 0;
}

int mr_uniforms(mr_state *s)
{
    const job *j = s->j;
    for (size_t i = 0; i < j->num_constants; i++) {
        int rc = j->constants[i].slot == 0 && !j->constants[i].glsl_block
                     ? upload_default(s, &j->constants[i])
                     : upload_block(s, &j->constants[i]);
        if (rc)
            return rc;
    }
    return apply_overrides(s);
}
