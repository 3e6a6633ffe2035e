/* Primitive assembly (src/pipe/pipe_prim.c): every topology's primitives, vertex order and
 * provoking vertex (both conventions) worked by hand from GL 4.6 §10.1, tables 10.1 and
 * 13.2; incomplete primitives; indexed draws with 8/16/32-bit indices, base vertex,
 * primitive restart (IDs keep counting) and indices past the buffer; the list form the
 * draws take for non-indexed lists against prim_assemble. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "pipe/pipe_draw.h"
#include "pipe/pipe_prim.h"

#include <stdio.h>
#include <string.h>

typedef struct got {
    char text[1024];
    size_t len;
} got;

/* "v,v,v/prov#id " per primitive */
static bool record(void *user, const prim_out *p)
{
    got *g = user;
    for (uint8_t k = 0; k < p->n; k++)
        g->len += (size_t)snprintf(g->text + g->len, sizeof g->text - g->len, "%s%u",
                                   k ? "," : "", p->v[k]);
    g->len += (size_t)snprintf(g->text + g->len, sizeof g->text - g->len, "/%u#%u ",
                               p->provoking, p->id);
    return true;
}

static void expect(unsigned t, uint32_t n, unsigned pv, bool last, long count, const char *want)
{
    got g = {{0}, 0};
    long r = prim_assemble(t, n, pv, last, 0, record, &g);
    if (r != count || strcmp(g.text, want))
        fail_msg("%s n=%u %s: %ld primitives \"%s\", want %ld \"%s\"", prim_get(t)->name, n,
                 last ? "last" : "first", r, g.text, count, want);
}

static void test_lists(void **state)
{
    (void)state;
    expect(PRIM_POINTS, 2, 0, true, 2, "0/0#0 1/1#1 ");
    expect(PRIM_LINES, 5, 0, false, 2, "0,1/0#0 2,3/2#1 ");
    expect(PRIM_LINES, 5, 0, true, 2, "0,1/1#0 2,3/3#1 ");
    expect(PRIM_TRIANGLES, 7, 0, true, 2, "0,1,2/2#0 3,4,5/5#1 ");
    expect(PRIM_TRIANGLES, 7, 0, false, 2, "0,1,2/0#0 3,4,5/3#1 ");
    expect(PRIM_TRIANGLES, 2, 0, false, 0, "");
    expect(PRIM_PATCHES, 7, 3, false, 2, "0,1,2/0#0 3,4,5/3#1 ");
}

/* prim_list_form (the draw's straight-through list, pipe_draw_assemble.c) describes what
 * prim_assemble gives for the list topologies, every count to 40 and both conventions;
 * the others have no list form. The entries are the draw's own (draw_assembly_prim, which
 * builds an implicit list's entries and writes the explicit ones), field by field against
 * what collect() keeps of prim_assemble's primitives: vertices, provoking vertex, ID and
 * the first-of-strip flag. */
typedef struct prims {
    prim_out p[64];
    unsigned n;
} prims;

static bool keep(void *user, const prim_out *p)
{
    prims *g = user;
    if (g->n < 64)
        g->p[g->n] = *p;
    g->n++;
    return true;
}

static void test_list_form(void **state)
{
    (void)state;
    for (unsigned t = 0; t < PRIM_COUNT + 1; t++)
        for (int last = 0; last < 2; last++) {
            unsigned k;
            uint32_t mul, add;
            const bool list = t == PRIM_POINTS || t == PRIM_LINES || t == PRIM_TRIANGLES;
            assert_int_equal(prim_list_form(t, last, &k, &mul, &add), list);
            if (!list)
                continue;
            draw_assembly a;
            memset(&a, 0, sizeof a);
            a.list_k = (uint8_t)k;
            a.list_mul = mul;
            a.list_add = add;
            for (uint32_t n = 0; n <= 40; n++) {
                prims g;
                memset(&g, 0, sizeof g);
                const long r = prim_assemble(t, n, 0, last, 0, keep, &g);
                if (r != (long)(n / k) || g.n != n / k)
                    fail_msg("%s n=%u: %ld primitives, the list form has %u",
                             prim_get(t)->name, n, r, n / k);
                for (uint32_t p = 0; p < n / k; p++) {
                    draw_tri tmp;
                    const draw_tri *e = draw_assembly_prim(&a, p, &tmp);
                    const prim_out *o = &g.p[p];
                    bool same = e->n == o->n && e->provoking == o->provoking &&
                                e->id == o->id && e->first == o->first;
                    for (unsigned j = 0; j < k; j++)
                        same = same && e->v[j] == o->v[j];
                    if (!same)
                        fail_msg("%s n=%u %s, primitive %u: %u vertices (%u %u %u) provoking "
                                 "%u id %u first %d; prim_assemble's %u (%u %u %u) %u %u %d",
                                 prim_get(t)->name, n, last ? "last" : "first", p, e->n,
                                 e->v[0], k > 1 ? e->v[1] : 0, k > 2 ? e->v[2] : 0,
                                 e->provoking, e->id, e->first, o->n, o->v[0],
                                 k > 1 ? o->v[1] : 0, k > 2 ? o->v[2] : 0, o->provoking,
                                 o->id, o->first);
                }
            }
        }
}

static void test_strips_fans_loops(void **state)
{
    (void)state;
    expect(PRIM_LINE_STRIP, 3, 0, true, 2, "0,1/1#0 1,2/2#1 ");
    expect(PRIM_LINE_LOOP, 3, 0, true, 3, "0,1/1#0 1,2/2#1 2,0/0#2 ");
    expect(PRIM_LINE_LOOP, 3, 0, false, 3, "0,1/0#0 1,2/1#1 2,0/2#2 ");
    /* odd strip triangles swap their first two vertices to keep the winding */
    expect(PRIM_TRIANGLE_STRIP, 5, 0, true, 3, "0,1,2/2#0 2,1,3/3#1 2,3,4/4#2 ");
    expect(PRIM_TRIANGLE_STRIP, 5, 0, false, 3, "0,1,2/0#0 2,1,3/1#1 2,3,4/2#2 ");
    expect(PRIM_TRIANGLE_FAN, 5, 0, false, 3, "0,1,2/1#0 0,2,3/2#1 0,3,4/3#2 ");
    expect(PRIM_TRIANGLE_FAN, 5, 0, true, 3, "0,1,2/2#0 0,2,3/3#1 0,3,4/4#2 ");
    expect(PRIM_TRIANGLE_STRIP, 2, 0, true, 0, "");
}

static void test_quads_polygons(void **state)
{
    (void)state;
    expect(PRIM_QUADS, 9, 0, true, 2, "0,1,3/3#0 1,2,3/3#0 4,5,7/7#1 5,6,7/7#1 ");
    expect(PRIM_QUADS, 9, 0, false, 2, "0,1,3/0#0 1,2,3/0#0 4,5,7/4#1 5,6,7/4#1 ");
    /* quad strip: quad p is 2p, 2p+1, 2p+3, 2p+2 around its boundary */
    expect(PRIM_QUAD_STRIP, 7, 0, true, 2, "0,1,2/3#0 1,3,2/3#0 2,3,4/5#1 3,5,4/5#1 ");
    expect(PRIM_POLYGON, 5, 0, true, 1, "0,1,2/0#0 0,2,3/0#0 0,3,4/0#0 ");
    expect(PRIM_POLYGON, 2, 0, true, 0, "");
}

static void test_adjacency(void **state)
{
    (void)state;
    expect(PRIM_LINES_ADJACENCY, 9, 0, false, 2, "0,1,2,3/1#0 4,5,6,7/5#1 ");
    expect(PRIM_LINES_ADJACENCY, 9, 0, true, 2, "0,1,2,3/2#0 4,5,6,7/6#1 ");
    expect(PRIM_LINE_STRIP_ADJACENCY, 6, 0, false, 3,
           "0,1,2,3/1#0 1,2,3,4/2#1 2,3,4,5/3#2 ");
    expect(PRIM_TRIANGLES_ADJACENCY, 12, 0, true, 2, "0,1,2,3,4,5/4#0 6,7,8,9,10,11/10#1 ");
    /* GL 4.6 table 10.1: vertex, neighbour of the edge to the next vertex, ... */
    expect(PRIM_TRIANGLE_STRIP_ADJACENCY, 6, 0, true, 1, "0,1,2,5,4,3/4#0 ");
    expect(PRIM_TRIANGLE_STRIP_ADJACENCY, 10, 0, false, 3,
           "0,1,2,6,4,3/0#0 4,0,2,5,6,8/2#1 4,2,6,9,8,7/4#2 ");
    /* what is rasterised: the middle of a line, the even vertices of a triangle */
    prim_out in = {{0, 1, 2, 3}, 4, 2, 0, false}, out;
    prim_rasterised(&in, &out);
    assert_true(out.n == 2 && out.v[0] == 1 && out.v[1] == 2 && out.provoking == 2);
    prim_out tin = {{4, 0, 2, 5, 6, 8}, 6, 2, 1, false};
    prim_rasterised(&tin, &out);
    assert_true(out.n == 3 && out.v[0] == 4 && out.v[1] == 2 && out.v[2] == 6);
}

static void test_invalid(void **state)
{
    (void)state;
    got g = {{0}, 0};
    assert_int_equal(prim_assemble(PRIM_COUNT, 3, 0, true, 0, record, &g), -1);
    assert_int_equal(prim_assemble(PRIM_PATCHES, 3, 0, true, 0, record, &g), -1);
    assert_int_equal(prim_assemble(PRIM_PATCHES, 64, 33, true, 0, record, &g), -1);
    assert_int_equal(g.len, 0);
    assert_int_equal(prim_assemble_indexed(PRIM_POINTS, "", 0, 3, 0, 1, 0, false, 0, 0, true,
                                           record, &g), -1);
}

static void test_indexed_restart(void **state)
{
    (void)state;
    const uint16_t idx[] = {0, 1, 2, 0xffff, 3, 4, 5, 6};
    got g = {{0}, 0};
    long n = prim_assemble_indexed(PRIM_TRIANGLE_STRIP, idx, sizeof idx, 2, 0, 8, 10, true,
                                   0xffff, 0, true, record, &g);
    assert_int_equal(n, 3);
    /* runs 0,1,2 and 3,4,5,6; IDs continue across the restart; base vertex added after */
    assert_string_equal(g.text, "10,11,12/12#0 13,14,15/15#1 15,14,16/16#2 ");
    /* without restart 0xffff is a vertex (wrapping with the base vertex as 32-bit) */
    memset(&g, 0, sizeof g);
    const uint32_t big[] = {0xffffffffu, 0, 1};
    n = prim_assemble_indexed(PRIM_TRIANGLES, big, sizeof big, 4, 0, 3, 2, false, 0xffffffffu,
                              0, true, record, &g);
    assert_int_equal(n, 1);
    assert_string_equal(g.text, "1,2,3/3#0 ");
    /* 8-bit indices from an offset; elements past the buffer read as index 0 */
    memset(&g, 0, sizeof g);
    const uint8_t small[] = {9, 7, 5, 3};
    n = prim_assemble_indexed(PRIM_LINES, small, sizeof small, 1, 2, 4, 0, false, 0, 0, false,
                              record, &g);
    assert_int_equal(n, 2);
    assert_string_equal(g.text, "5,3/5#0 0,0/0#1 ");
    assert_int_equal(prim_index(small, sizeof small, 1, 3), 3);
    assert_int_equal(prim_index(small, sizeof small, 2, 2), 0);   /* bytes 4-5: outside */
    assert_int_equal(prim_index(small, sizeof small, 2, 1), 0x0305);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_strips_fans_loops),
        cmocka_unit_test(test_quads_polygons),
        cmocka_unit_test(test_adjacency),
        cmocka_unit_test(test_list_form),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_indexed_restart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
