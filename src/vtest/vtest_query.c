/* Queries over the wire: create_object query (handle, type | index << 16, offset,
 * resource), begin_query, end_query and get_query_result, which writes the result where
 * Mesa's virgl driver polls for it — a struct virgl_host_query_state {query_state,
 * result_size, result} at the query's offset in its resource, both in the resource's
 * storage and in the shared memory the client maps. Results are complete when end_query
 * returns, so the state written is always DONE. */
#include "vtest_internal.h"

#include <stdlib.h>
#include <string.h>

/* VIRGL_QUERY_* (virgl's numbering) -> PIPE_QUERY_* (the pipe layer's, Gallium's). */
static const uint8_t pipe_type_of_virgl[] = {
    TV_PIPE_QUERY_OCCLUSION_COUNTER, TV_PIPE_QUERY_OCCLUSION_PREDICATE,
    TV_PIPE_QUERY_TIMESTAMP, TV_PIPE_QUERY_TIMESTAMP_DISJOINT, TV_PIPE_QUERY_TIME_ELAPSED,
    TV_PIPE_QUERY_PRIMITIVES_GENERATED, TV_PIPE_QUERY_PRIMITIVES_EMITTED,
    TV_PIPE_QUERY_SO_STATISTICS, TV_PIPE_QUERY_SO_OVERFLOW_PREDICATE,
    TV_PIPE_QUERY_GPU_FINISHED, TV_PIPE_QUERY_PIPELINE_STATISTICS,
    TV_PIPE_QUERY_OCCLUSION_PREDICATE_CONSERVATIVE, TV_PIPE_QUERY_SO_OVERFLOW_ANY_PREDICATE};

enum { QUERY_STATE_DONE = 1, HOST_STATE_BYTES = 16 };


int vtest_query_create(vtest_conn *c, const uint32_t *p, uint32_t len)
{
    if (len != 4) {
        vtest_fail(c, "create_object query: %u dwords, 4 expected", len);
        return -1;
    }
    uint32_t handle = p[0], vtype = p[1] & 0xffff, index = p[1] >> 16;
    if (vtype >= sizeof pipe_type_of_virgl) {
        vtest_fail(c, "create_object query %u: unknown query type %u", handle, vtype);
        return -1;
    }
    size_t size = tv_pipe_resource_size(c->pipe, p[3]);
    if (!size || p[2] > size || size - p[2] < HOST_STATE_BYTES) {
        vtest_fail(c, "create_object query %u: its result at %u in resource %u does not fit "
                   "(%zu bytes)", handle, p[2], p[3], size);
        return -1;
    }
    vtest_query *q = calloc(1, sizeof *q);
    if (!q) {
        vtest_fail(c, "create_object query %u: out of memory", handle);
        return -1;
    }
    if (tv_pipe_query_create(c->pipe, handle, pipe_type_of_virgl[vtype], index)) {
        free(q);
        return vtest_pipe_fail(c, "create_object");
    }
    q->handle = handle, q->offset = p[2], q->res = p[3];
    if (tv_handle_map_put(&c->sub.queries, handle, q)) {
        free(q);
        tv_pipe_object_destroy(c->pipe, TV_PIPE_OBJ_QUERY, handle);
        vtest_fail(c, "create_object query %u: out of memory", handle);
        return -1;
    }
    return 0;
}

void vtest_query_forget(vtest_conn *c, uint32_t handle)
{
    free(tv_handle_map_remove(&c->sub.queries, handle));
}

void vtest_queries_free(vtest_sub *s)
{
    for (size_t i = 0; i < s->queries.cap; i++)
        free(tv_handle_map_slot(&s->queries, i));
    tv_handle_map_free(&s->queries);
}

int vtest_h_begin_query(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    return tv_pipe_begin_query(c->pipe, p[0]) ? vtest_pipe_fail(c, "begin_query") : 0;
}

int vtest_h_end_query(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    return tv_pipe_end_query(c->pipe, p[0]) ? vtest_pipe_fail(c, "end_query") : 0;
}

int vtest_h_get_query_result(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    uint64_t result;
    if (tv_pipe_query_result(c->pipe, p[0], &result))
        return vtest_pipe_fail(c, "get_query_result");
    const vtest_query *q = tv_handle_map_find(&c->sub.queries, p[0]);
    if (!q) {
        vtest_fail(c, "get_query_result: no query %u", p[0]);
        return -1;
    }
    uint8_t state[HOST_STATE_BYTES];
    const uint32_t head[2] = {QUERY_STATE_DONE, 8};
    memcpy(state, head, 8);
    memcpy(state + 8, &result, 8);
    /* the resource may have been destroyed or replaced since the query was made */
    size_t size = tv_pipe_resource_size(c->pipe, q->res);
    if (!size || q->offset > size || size - q->offset < HOST_STATE_BYTES) {
        vtest_fail(c, "get_query_result %u: resource %u no longer holds the result", p[0],
                   q->res);
        return -1;
    }
    memcpy(tv_pipe_resource_data(c->pipe, q->res) + q->offset, state, HOST_STATE_BYTES);
    vtest_shm *m = vtest_shm_find(c, q->res);
    if (m && q->offset <= m->size && m->size - q->offset >= HOST_STATE_BYTES) {
        if (vtest_rec_shm(c, m))
            return -1;
        memcpy(m->ptr + q->offset, state, HOST_STATE_BYTES);
        vtest_rec_server_wrote(c, m);
    }
    return 0;
}

/* get_query_result_qbo (Gallium's get_query_result_resource): handle, buffer resource,
 * wait, result type (PIPE_QUERY_TYPE_I32, U32, I64, U64), byte offset, index (-1: whether
 * the result is available — always, operations being synchronous; SO statistics: 0
 * written, 1 needed; else the result). 32-bit types saturate, as GL asks. */
int vtest_h_get_query_result_qbo(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    uint32_t type = p[3], offset = p[4];
    int32_t index = (int32_t)p[5];
    if (type > 3) {
        vtest_fail(c, "get_query_result_qbo %u: result type %u (0..3: I32, U32, I64, U64)",
                   p[0], type);
        return -1;
    }
    uint64_t written, needed, value;
    if (tv_pipe_query_result_so(c->pipe, p[0], &written, &needed))
        return vtest_pipe_fail(c, "get_query_result_qbo");
    value = index < 0 ? 1 : index == 1 ? needed : written;
    unsigned bytes = type >= 2 ? 8 : 4;
    size_t size = tv_pipe_resource_size(c->pipe, p[1]);
    if (!size || offset > size || size - offset < bytes) {
        vtest_fail(c, "get_query_result_qbo %u: %u bytes at %u outside resource %u (%zu "
                   "bytes)", p[0], bytes, offset, p[1], size);
        return -1;
    }
    if (type == 0 && value > INT32_MAX)
        value = INT32_MAX;
    else if (type == 1 && value > UINT32_MAX)
        value = UINT32_MAX;
    uint32_t v32 = (uint32_t)value;
    memcpy(tv_pipe_resource_data(c->pipe, p[1]) + offset, bytes == 8 ? (void *)&value
                                                                     : (void *)&v32, bytes);
    return 0;
}
