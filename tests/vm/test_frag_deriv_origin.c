/* Derivatives and FS_COORD_ORIGIN / FS_COORD_PIXEL_CENTER (issue 13 §2): the properties
 * change POSITION's y only; DDY and DDY_FINE are always BL − TL of the quad in the
 * target's row order, as softpipe and llvmpipe compute them. Expected values by hand for
 * an 8x4 target with IN[0] = (u, v) = (0,0) top-left .. (1,1) bottom-right. */
#include <stdio.h>

#include "helper_vm.h"

enum { W = 8, H = 4 };

/* OUT[0] = (DDY(v*v*64), DDY(POSITION.y), POSITION.y, DDY_FINE(POSITION.y)),
 * OUT[0].w is overwritten with DDY_FINE(v*v*64) in the FINE variant. */
static void run(const char *props, bool fine, uint32_t *out)
{
    char text[1024];
    snprintf(text, sizeof text,
             "FRAG\n%s"
             "DCL IN[0].xy, GENERIC[0], PERSPECTIVE\n"
             "DCL IN[1], POSITION, LINEAR\n"
             "DCL OUT[0], COLOR\n"
             "DCL TEMP[0..1]\n"
             "IMM[0] FLT32 {64.0, 0.0, 0.0, 0.0}\n"
             "MUL TEMP[0].x, IN[0].yyyy, IN[0].yyyy\n"
             "MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
             "%s TEMP[1].x, TEMP[0].xxxx\n"
             "%s TEMP[1].y, IN[1].yyyy\n"
             "MOV TEMP[1].z, IN[1].yyyy\n"
             "DDY_FINE TEMP[1].w, IN[1].yyyy\n"
             "MOV OUT[0], TEMP[1]\n"
             "END\n",
             props, fine ? "DDY_FINE" : "DDY", fine ? "DDY_FINE" : "DDY");
    float attr[4][TV_VM_MAX_ATTRIBS][4] = {{{0}}};
    const float uv[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    for (int v = 0; v < 4; v++) {
        attr[v][0][0] = uv[v][0];
        attr[v][0][1] = uv[v][1];
    }
    tv_error err;
    if (hv_frag(text, W, H, (const float(*)[TV_VM_MAX_ATTRIBS][4])attr, out, &err) != TV_OK)
        fail_msg("%s", err.message);
}

static void check(const char *props, bool lower_left, bool integer_centre)
{
    for (int fine = 0; fine < 2; fine++) {
        uint32_t out[W * H * 4];
        run(props, fine, out);
        for (unsigned y = 0; y < H; y++)
            for (unsigned x = 0; x < W; x++) {
                const uint32_t *px = &out[(y * W + x) * 4];
                /* v at the rows of this pixel's quad: (2q + 0.5)/4 and (2q + 1.5)/4;
                   v*v*64 there: rows 0/1: 1, 9 -> 8; rows 2/3: 25, 49 -> 24 */
                float dattr = (y < 2) ? 8.0f : 24.0f;
                /* POSITION.y: the pixel centre y + 0.5 measured from the top (UPPER_LEFT) or
                   H - (y + 0.5) from the bottom (LOWER_LEFT); INTEGER centres are 0.5
                   less */
                float pos = lower_left ? (float)H - ((float)y + 0.5f) : (float)y + 0.5f;
                if (integer_centre)
                    pos -= 0.5f;
                float dpos = lower_left ? -1.0f : 1.0f;
                float got[4];
                for (int c = 0; c < 4; c++)
                    got[c] = tv_bits_f32(px[c]);
                if (got[0] != dattr || got[1] != dpos || got[2] != pos || got[3] != dpos)
                    fail_msg("%s%s pixel (%u,%u): (%g, %g, %g, %g), want (%g, %g, %g, %g)",
                             props[0] ? props : "(no properties) ", fine ? "fine" : "coarse",
                             x, y, got[0], got[1], got[2], got[3], dattr, dpos, pos, dpos);
            }
    }
}

static void t_upper_left(void **s)
{
    (void)s;
    check("", false, false);
    check("PROPERTY FS_COORD_ORIGIN UPPER_LEFT\n", false, false);
}

static void t_lower_left(void **s)
{
    (void)s;
    check("PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n", true, false);
}

static void t_integer_centres(void **s)
{
    (void)s;
    check("PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n", false, true);
    check("PROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n", true,
          true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_upper_left),
        cmocka_unit_test(t_lower_left),
        cmocka_unit_test(t_integer_centres),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
