/* conf_d3d: rewrite the TEX-family texture instructions of a TGSI file into the D3D10-style
 * SAMPLE* forms that compute the same thing, so the conformance suite can check SAMPLE,
 * SAMPLE_B, SAMPLE_L, SAMPLE_D, SAMPLE_C, SAMPLE_I, GATHER4, SVIEWINFO and LOD against the
 * Mesa outputs of the GLSL case (Mesa's nir_to_tgsi never emits them).
 *   conf_d3d IN.tgsi OUT.tgsi
 * Only the FRAG program is rewritten; the others are copied. Mappings (SAMP[n] and
 * SVIEW[n] are the same unit in Mesa's output):
 *   TEX d, c, SAMP[n], T            -> SAMPLE d, c, SVIEW[n], SAMP[n]
 *   TEX d, c, SAMP[n], SHADOW*      -> SAMPLE_C d, c, SVIEW[n], SAMP[n], c.<ref>
 *   TXB d, c, SAMP[n], T            -> SAMPLE_B d, c, SVIEW[n], SAMP[n], c.wwww
 *   TXL d, c, SAMP[n], T            -> SAMPLE_L d, c, SVIEW[n], SAMP[n], c.wwww
 *   TXD d, c, dx, dy, SAMP[n], T    -> SAMPLE_D d, c, SVIEW[n], SAMP[n], dx, dy
 *   TXF d, c, SAMP[n], T            -> SAMPLE_I d, c, SVIEW[n]
 *   TXQ d, l, SAMP[n], T            -> SVIEWINFO d, l, SVIEW[n]
 *   LODQ d, c, SAMP[n], T           -> LOD d, c, SVIEW[n], SAMP[n]
 *   TG4 d, c, IMM[k].x, SAMP[n], T  -> GATHER4 d, c, SVIEW[n], SAMP[n].<component>
 * texel offsets stay. Other instructions (TXP, shadow TXL/TG4, …) stay as they are.
 * Prints the number of rewritten instructions; exit 0, 1 when nothing was rewritten, 2 on
 * errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common_file.h"
#include "texvm/tgsi.h"

static int ref_component(unsigned target)
{
    switch (target) {
    case TV_TGT_SHADOW1D: case TV_TGT_SHADOW2D: case TV_TGT_SHADOWRECT:
    case TV_TGT_SHADOW1D_ARRAY:
        return 2;
    case TV_TGT_SHADOW2D_ARRAY: case TV_TGT_SHADOWCUBE:
        return 3;
    default:
        return -1;
    }
}

static tv_tgsi_src scalar_of(const tv_tgsi_src *s, unsigned comp)
{
    tv_tgsi_src r = *s;
    for (unsigned c = 0; c < 4; c++)
        r.swizzle[c] = s->swizzle[comp];
    return r;
}

static tv_tgsi_src sview_of(const tv_tgsi_src *samp)
{
    tv_tgsi_src r;
    memset(&r, 0, sizeof r);
    r.reg = samp->reg;
    r.reg.file = TV_FILE_SVIEW;
    for (unsigned c = 0; c < 4; c++)
        r.swizzle[c] = (uint8_t)c;
    return r;
}

/* Rewrite one instruction; returns true if it was. */
static bool rewrite(const tv_tgsi_program *p, tv_tgsi_instruction *in)
{
    tv_tgsi_src s[TV_TGSI_MAX_SRC];
    memcpy(s, in->src, sizeof s);
    int ref = ref_component(in->tex_target);
    unsigned k = 0;
    switch (in->opcode) {
    case TV_TGSI_OP_TEX:
        if (s[1].reg.file != TV_FILE_SAMP)
            return false;
        in->src[k++] = s[0];
        in->src[k++] = sview_of(&s[1]);
        in->src[k++] = s[1];
        if (ref >= 0) {
            in->opcode = TV_TGSI_OP_SAMPLE_C;
            in->src[k++] = scalar_of(&s[0], (unsigned)ref);
        } else if (in->tex_target == TV_TGT_SHADOWCUBE_ARRAY) {
            return false;
        } else {
            in->opcode = TV_TGSI_OP_SAMPLE;
        }
        break;
    case TV_TGSI_OP_TXB:
    case TV_TGSI_OP_TXL:
        if (ref >= 0 || s[1].reg.file != TV_FILE_SAMP)
            return false;
        in->opcode = in->opcode == TV_TGSI_OP_TXB ? TV_TGSI_OP_SAMPLE_B : TV_TGSI_OP_SAMPLE_L;
        in->src[k++] = s[0];
        in->src[k++] = sview_of(&s[1]);
        in->src[k++] = s[1];
        in->src[k++] = scalar_of(&s[0], 3);
        break;
    case TV_TGSI_OP_TXD:
        if (ref >= 0 || s[3].reg.file != TV_FILE_SAMP)
            return false;
        in->opcode = TV_TGSI_OP_SAMPLE_D;
        in->src[k++] = s[0];
        in->src[k++] = sview_of(&s[3]);
        in->src[k++] = s[3];
        in->src[k++] = s[1];
        in->src[k++] = s[2];
        break;
    case TV_TGSI_OP_TXF:
    case TV_TGSI_OP_TXQ:
        if (s[1].reg.file != TV_FILE_SAMP || in->tex_target == TV_TGT_2D_MSAA ||
            in->tex_target == TV_TGT_2D_ARRAY_MSAA)
            return false;
        in->opcode = in->opcode == TV_TGSI_OP_TXF ? TV_TGSI_OP_SAMPLE_I : TV_TGSI_OP_SVIEWINFO;
        in->src[k++] = s[0];
        in->src[k++] = sview_of(&s[1]);
        break;
    case TV_TGSI_OP_LODQ:
        if (s[1].reg.file != TV_FILE_SAMP)
            return false;
        in->opcode = TV_TGSI_OP_LOD;
        in->src[k++] = s[0];
        in->src[k++] = sview_of(&s[1]);
        in->src[k++] = s[1];
        break;
    case TV_TGSI_OP_TG4: {
        if (ref >= 0 || in->tex_target == TV_TGT_SHADOWCUBE_ARRAY ||
            s[2].reg.file != TV_FILE_SAMP || s[1].reg.file != TV_FILE_IMM || s[1].reg.indirect ||
            s[1].reg.index < 0 || (uint32_t)s[1].reg.index >= p->num_imms)
            return false;
        uint32_t comp = p->imms[s[1].reg.index].u[s[1].swizzle[0]] & 3u;
        in->opcode = TV_TGSI_OP_GATHER4;
        in->src[k++] = s[0];
        in->src[k++] = sview_of(&s[2]);
        in->src[k] = s[2];
        for (unsigned c = 0; c < 4; c++)
            in->src[k].swizzle[c] = (uint8_t)comp;
        k++;
        break;
    }
    default:
        return false;
    }
    in->num_src = (uint8_t)k;
    in->has_texture = in->num_tex_offsets > 0;   /* D3D forms: target from DCL SVIEW */
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: conf_d3d IN.tgsi OUT.tgsi\n");
        return 2;
    }
    size_t len = 0;
    char *text = tc_slurp(argv[1], &len);
    if (!text) {
        fprintf(stderr, "conf_d3d: cannot read %s\n", argv[1]);
        return 2;
    }
    tv_tgsi_program *progs = NULL;
    size_t n = 0;
    tv_error err;
    if (tv_tgsi_parse(text, len, argv[1], TV_TGSI_MODE_DEFAULT, &progs, &n, &err) != TV_OK) {
        fprintf(stderr, "conf_d3d: %s:%u: %s\n", argv[1], err.line, err.message);
        free(text);
        return 2;
    }
    free(text);
    unsigned done = 0;
    for (size_t i = 0; i < n; i++)
        if (progs[i].processor == TV_TGSI_FRAG)
            for (uint32_t k = 0; k < progs[i].num_insns; k++)
                done += rewrite(&progs[i], &progs[i].insns[k]);
    FILE *f = fopen(argv[2], "w");
    int rc = f ? 0 : 2;
    for (size_t i = 0; i < n && f; i++) {
        char *s = tv_tgsi_print_alloc(&progs[i]);
        if (!s || fputs(s, f) < 0)
            rc = 2;
        free(s);
    }
    if (f && fclose(f))
        rc = 2;
    tv_tgsi_programs_free(progs, n);
    if (rc)
        fprintf(stderr, "conf_d3d: cannot write %s\n", argv[2]);
    else
        printf("%u\n", done);
    return rc ? rc : (done ? 0 : 1);
}
