/* The engine's opcode table: how each TGSI opcode is lowered (class, source types for
 * modifiers, handler, LEGACY_MATH_RULES variant, special lowering function). Opcodes with
 * no row are rejected at lowering with "not implemented". */
#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"

/* Classes: CH per channel, CHN per channel as one channel-group micro-op, SC scalar replicated, DOT, V4 vec4, CF control flow,
 * SP special lowering, TX texture (issue 5). */
#define CH(nsrc, types, fn) {VM_L_CH, VM_K_ALU, nsrc, types, vm_h_##fn, NULL, NULL, 0}
#define CHN(nsrc, types, fn) {VM_L_CHN, VM_K_ALU, nsrc, types, vm_h_##fn##_n, NULL, NULL, 0}
#define CHNL(nsrc, types, fn) \
    {VM_L_CHN, VM_K_ALU, nsrc, types, vm_h_##fn##_n, vm_h_##fn##_legacy_n, NULL, 0}
#define SC(nsrc, fn) {VM_L_SC, VM_K_ALU, nsrc, "ff", vm_h_##fn, NULL, NULL, 0}
/* scalar with a channel-group handler: one channel, so consecutive ones can be fused */
#define SCN(fn) {VM_L_SC, VM_K_ALU, 1, "ff", vm_h_##fn##_n, NULL, NULL, 0}
#define DOT(n) {VM_L_DOT, VM_K_ALU, 2, "ff", vm_h_dot, vm_h_dot_legacy, NULL, n}
#define V4(nsrc, types, fn) {VM_L_V4, VM_K_ALU, nsrc, types, vm_h_##fn, NULL, NULL, 0}
#define V4L(nsrc, types, fn) {VM_L_V4, VM_K_ALU, nsrc, types, vm_h_##fn, vm_h_##fn##_legacy, NULL, 0}
#define CF(kind, nsrc, types) {VM_L_CF, kind, nsrc, types, NULL, NULL, NULL, 0}
#define SP(nsrc, fn) {VM_L_SPECIAL, VM_K_ALU, nsrc, "nnnnn", NULL, NULL, fn, 0}
#define TX {VM_L_TEX, VM_K_ALU, 0, "", NULL, NULL, NULL, 0}

#define O(name) [TV_TGSI_OP_##name]
static const vm_optab_row optab[TV_TGSI_OP_LAST] = {
    O(ARL) = CHN(1, "f", arl),          O(MOV) = CHN(1, "f", mov),
    O(LIT) = V4(1, "f", lit),          O(RCP) = SC(1, rcp),
    O(RSQ) = SC(1, rsq),               O(EXP) = V4(1, "f", exp),
    O(LOG) = V4(1, "f", log),          O(MUL) = CHNL(2, "ff", mul),
    O(ADD) = CHN(2, "ff", add),         O(DP3) = DOT(3),
    O(DP4) = DOT(4),                   O(DST) = V4L(2, "ff", dst),
    O(MIN) = CHN(2, "ff", min),         O(MAX) = CHN(2, "ff", max),
    O(SLT) = CHN(2, "ff", slt),         O(SGE) = CHN(2, "ff", sge),
    O(MAD) = CHNL(3, "fff", mad),       O(TEX_LZ) = TX,
    O(LRP) = CHNL(3, "fff", lrp),       O(FMA) = CHNL(3, "fff", fma),
    O(SQRT) = SC(1, sqrt),             O(LDEXP) = CH(2, "fi", ldexp),
    O(F2U64) = V4(1, "f", f2u64),      O(F2I64) = V4(1, "f", f2i64),
    O(FRC) = CHN(1, "f", frc),          O(TXF_LZ) = TX,
    O(FLR) = CHN(1, "f", flr),          O(ROUND) = CHN(1, "f", round),
    O(EX2) = SC(1, ex2),               O(LG2) = SC(1, lg2),
    O(POW) = SC(2, pow),               O(DEMOTE) = CF(VM_K_DEMOTE, 0, ""),
    O(U2I64) = V4(1, "u", u2i64),      O(CLOCK) = SP(0, vm_lower_warpop),
    O(I2I64) = V4(1, "i", i2i64),      O(READ_HELPER) = SP(0, vm_lower_frag),
    O(COS) = SCN(cos),                  O(DDX) = CH(1, "f", ddx),
    O(DDY) = CH(1, "f", ddy),          O(KILL) = CF(VM_K_KILL, 0, ""),
    O(PK2H) = V4(1, "f", pk2h),        O(PK2US) = V4(1, "f", pk2us),
    O(PK4B) = V4(1, "f", pk4b),        O(PK4UB) = V4(1, "f", pk4ub),
    O(D2U64) = V4(1, "d", d2u64),      O(SEQ) = CHN(2, "ff", seq),
    O(D2I64) = V4(1, "d", d2i64),      O(SGT) = CHN(2, "ff", sgt),
    O(SIN) = SCN(sin),                  O(SLE) = CHN(2, "ff", sle),
    O(SNE) = CHN(2, "ff", sne),         O(U642D) = V4(1, "l", u642d),
    O(TEX) = TX, O(TXD) = TX, O(TXP) = TX,
    O(UP2H) = V4(1, "u", up2h),        O(UP2US) = V4(1, "u", up2us),
    O(UP4B) = V4(1, "u", up4b),        O(UP4UB) = V4(1, "u", up4ub),
    O(U642F) = V4(1, "l", u642f),      O(I642F) = V4(1, "l", i642f),
    O(ARR) = CHN(1, "f", arr),          O(I642D) = V4(1, "l", i642d),
    O(CAL) = CF(VM_K_CAL, 0, ""),      O(RET) = CF(VM_K_RET, 0, ""),
    O(SSG) = CHN(1, "f", ssg),          O(CMP) = CHN(3, "fff", cmp),
    O(TXB) = TX,                       O(FBFETCH) = SP(1, vm_lower_frag),
    O(DIV) = CHN(2, "ff", div),         O(DP2) = DOT(2),
    O(TXL) = TX,                       O(BRK) = CF(VM_K_BRK, 0, ""),
    O(IF) = CF(VM_K_IF, 1, "f"),       O(UIF) = CF(VM_K_UIF, 1, "u"),
    O(READ_INVOC) = SP(2, vm_lower_warpop),
    O(ELSE) = CF(VM_K_ELSE, 0, ""),    O(ENDIF) = CF(VM_K_ENDIF, 0, ""),
    O(DDX_FINE) = CH(1, "f", ddx_fine), O(DDY_FINE) = CH(1, "f", ddy_fine),
    O(CEIL) = CHN(1, "f", ceil),        O(I2F) = CHN(1, "i", i2f),
    O(NOT) = CHN(1, "u", not),          O(TRUNC) = CHN(1, "f", trunc),
    O(SHL) = CHN(2, "uu", shl),         O(BALLOT) = SP(1, vm_lower_warpop),
    O(AND) = CHN(2, "uu", and),         O(OR) = CHN(2, "uu", or),
    O(MOD) = CHN(2, "ii", mod),         O(XOR) = CHN(2, "uu", xor),
    O(TXF) = TX, O(TXQ) = TX,
    O(CONT) = CF(VM_K_CONT, 0, ""),    O(EMIT) = CF(VM_K_EMIT, 1, "u"),
    O(ENDPRIM) = CF(VM_K_ENDPRIM, 1, "u"),
    O(BGNLOOP) = CF(VM_K_BGNLOOP, 0, ""), O(BGNSUB) = CF(VM_K_BGNSUB, 0, ""),
    O(ENDLOOP) = CF(VM_K_ENDLOOP, 0, ""), O(ENDSUB) = CF(VM_K_ENDSUB, 0, ""),
    O(ATOMFADD) = SP(3, vm_lower_mem), O(TXQS) = TX,
    O(RESQ) = SP(1, vm_lower_resq),    O(READ_FIRST) = SP(1, vm_lower_warpop),
    O(NOP) = CF(VM_K_NOP, 0, ""),
    O(FSEQ) = CHN(2, "ff", fseq),       O(FSGE) = CHN(2, "ff", fsge),
    O(FSLT) = CHN(2, "ff", fslt),       O(FSNE) = CHN(2, "ff", fsne),
    O(MEMBAR) = CF(VM_K_NOP, 0, ""),   O(KILL_IF) = CF(VM_K_KILL_IF, 1, "f"),
    O(END) = CF(VM_K_END, 0, ""),      O(DFMA) = V4(3, "ddd", dfma),
    O(F2I) = CHN(1, "f", f2i),          O(IDIV) = CHN(2, "ii", idiv),
    O(IMAX) = CHN(2, "ii", imax),       O(IMIN) = CHN(2, "ii", imin),
    O(INEG) = CHN(1, "i", ineg),        O(ISGE) = CHN(2, "ii", isge),
    O(ISHR) = CHN(2, "iu", ishr),       O(ISLT) = CHN(2, "ii", islt),
    O(F2U) = CHN(1, "f", f2u),          O(U2F) = CHN(1, "u", u2f),
    O(UADD) = CHN(2, "uu", uadd),       O(UDIV) = CHN(2, "uu", udiv),
    O(UMAD) = CHN(3, "uuu", umad),      O(UMAX) = CHN(2, "uu", umax),
    O(UMIN) = CHN(2, "uu", umin),       O(UMOD) = CHN(2, "uu", umod),
    O(UMUL) = CHN(2, "uu", umul),       O(USEQ) = CHN(2, "uu", useq),
    O(USGE) = CHN(2, "uu", usge),       O(USHR) = CHN(2, "uu", ushr),
    O(USLT) = CHN(2, "uu", uslt),       O(USNE) = CHN(2, "uu", usne),
    O(SWITCH) = CF(VM_K_SWITCH, 1, "u"), O(CASE) = CF(VM_K_CASE, 1, "u"),
    O(DEFAULT) = CF(VM_K_DEFAULT, 0, ""), O(ENDSWITCH) = CF(VM_K_ENDSWITCH, 0, ""),
    O(SAMPLE) = TX, O(SAMPLE_I) = TX, O(SAMPLE_I_MS) = TX, O(SAMPLE_B) = TX,
    O(SAMPLE_C) = TX, O(SAMPLE_C_LZ) = TX, O(SAMPLE_D) = TX, O(SAMPLE_L) = TX,
    O(GATHER4) = TX, O(SVIEWINFO) = TX, O(SAMPLE_POS) = TX, O(SAMPLE_INFO) = TX,
    O(UARL) = CHN(1, "u", uarl),        O(UCMP) = CHN(3, "unn", ucmp),
    O(IABS) = CHN(1, "i", iabs),        O(ISSG) = CHN(1, "i", issg),
    O(LOAD) = SP(2, vm_lower_mem),     O(STORE) = SP(2, vm_lower_mem),
    O(IMG2HND) = SP(1, vm_lower_hnd),  O(SAMP2HND) = SP(1, vm_lower_hnd),
    O(BARRIER) = CF(VM_K_BARRIER, 0, ""),
    O(ATOMUADD) = SP(3, vm_lower_mem), O(ATOMXCHG) = SP(3, vm_lower_mem),
    O(ATOMCAS) = SP(4, vm_lower_mem),  O(ATOMAND) = SP(3, vm_lower_mem),
    O(ATOMOR) = SP(3, vm_lower_mem),   O(ATOMXOR) = SP(3, vm_lower_mem),
    O(ATOMUMIN) = SP(3, vm_lower_mem), O(ATOMUMAX) = SP(3, vm_lower_mem),
    O(ATOMIMIN) = SP(3, vm_lower_mem), O(ATOMIMAX) = SP(3, vm_lower_mem),
    O(TEX2) = TX, O(TXB2) = TX, O(TXL2) = TX,
    O(IMUL_HI) = CHN(2, "ii", imul_hi), O(UMUL_HI) = CHN(2, "uu", umul_hi),
    O(TG4) = TX, O(LODQ) = TX,
    O(IBFE) = CHN(3, "iuu", ibfe),      O(UBFE) = CHN(3, "uuu", ubfe),
    O(BFI) = CH(4, "uuuu", bfi),       O(BREV) = CHN(1, "u", brev),
    O(POPC) = CHN(1, "u", popc),        O(LSB) = CHN(1, "u", lsb),
    O(IMSB) = CHN(1, "i", imsb),        O(UMSB) = CHN(1, "u", umsb),
    O(INTERP_CENTROID) = SP(1, vm_lower_frag), O(INTERP_SAMPLE) = SP(2, vm_lower_frag),
    O(INTERP_OFFSET) = SP(2, vm_lower_frag),
    O(F2D) = V4(1, "f", f2d),          O(D2F) = V4(1, "d", d2f),
    O(DABS) = V4(1, "n", dabs),        O(DNEG) = V4(1, "n", dneg),
    O(DADD) = V4(2, "dd", dadd),       O(DMUL) = V4(2, "dd", dmul),
    O(DMAX) = V4(2, "dd", dmax),       O(DMIN) = V4(2, "dd", dmin),
    O(DSLT) = V4(2, "dd", dslt),       O(DSGE) = V4(2, "dd", dsge),
    O(DSEQ) = V4(2, "dd", dseq),       O(DSNE) = V4(2, "dd", dsne),
    O(DRCP) = V4(1, "d", drcp),        O(DSQRT) = V4(1, "d", dsqrt),
    O(DMAD) = V4(3, "ddd", dmad),      O(DFRAC) = V4(1, "d", dfrac),
    O(DLDEXP) = V4(2, "di", dldexp),   O(D2I) = V4(1, "d", d2i),
    O(I2D) = V4(1, "i", i2d),          O(D2U) = V4(1, "d", d2u),
    O(U2D) = V4(1, "u", u2d),          O(DRSQ) = V4(1, "d", drsq),
    O(DTRUNC) = V4(1, "d", dtrunc),    O(DCEIL) = V4(1, "d", dceil),
    O(DFLR) = V4(1, "d", dflr),        O(DROUND) = V4(1, "d", dround),
    O(DSSG) = V4(1, "d", dssg),
    O(VOTE_ANY) = SP(1, vm_lower_warpop), O(VOTE_ALL) = SP(1, vm_lower_warpop),
    O(VOTE_EQ) = SP(1, vm_lower_warpop),
    O(U64SEQ) = V4(2, "ll", u64seq),   O(U64SNE) = V4(2, "ll", u64sne),
    O(I64SLT) = V4(2, "ll", i64slt),   O(U64SLT) = V4(2, "ll", u64slt),
    O(I64SGE) = V4(2, "ll", i64sge),   O(U64SGE) = V4(2, "ll", u64sge),
    O(I64MIN) = V4(2, "ll", i64min),   O(U64MIN) = V4(2, "ll", u64min),
    O(I64MAX) = V4(2, "ll", i64max),   O(U64MAX) = V4(2, "ll", u64max),
    O(I64ABS) = V4(1, "l", i64abs),    O(I64SSG) = V4(1, "l", i64ssg),
    O(I64NEG) = V4(1, "l", i64neg),    O(U64ADD) = V4(2, "ll", u64add),
    O(U64MUL) = V4(2, "ll", u64mul),   O(U64SHL) = V4(2, "lu", u64shl),
    O(I64SHR) = V4(2, "lu", i64shr),   O(U64SHR) = V4(2, "lu", u64shr),
    O(I64DIV) = V4(2, "ll", i64div),   O(U64DIV) = V4(2, "ll", u64div),
    O(I64MOD) = V4(2, "ll", i64mod),   O(U64MOD) = V4(2, "ll", u64mod),
    O(DDIV) = V4(2, "dd", ddiv),       O(LOD) = TX,
    O(ATOMINC_WRAP) = SP(3, vm_lower_mem), O(ATOMDEC_WRAP) = SP(3, vm_lower_mem),
};

const vm_optab_row *vm_optab_get(unsigned opcode)
{
    if (opcode >= TV_TGSI_OP_LAST || optab[opcode].lclass == VM_L_NONE)
        return NULL;
    return &optab[opcode];
}

static const char *const opnames[TV_TGSI_OP_LAST] = {
#define TV_TGSI_OP(num, name, ndst, nsrc, mode, flags) [num] = #name,
#define TV_TGSI_GAP(num)
#include "texvm/tgsi_opcodes.def"
#undef TV_TGSI_OP
#undef TV_TGSI_GAP
};

const char *vm_opname(unsigned opcode)
{
    if (opcode >= TV_TGSI_OP_LAST || !opnames[opcode])
        return "?";
    return opnames[opcode];
}

/* Number of destination operands from the TGSI opcode table. */
static const uint8_t opndst[TV_TGSI_OP_LAST] = {
#define TV_TGSI_OP(num, name, ndst, nsrc, mode, flags) [num] = ndst,
#define TV_TGSI_GAP(num)
#include "texvm/tgsi_opcodes.def"
#undef TV_TGSI_OP
#undef TV_TGSI_GAP
};

unsigned vm_op_ndst(unsigned opcode)
{
    return opcode < TV_TGSI_OP_LAST ? opndst[opcode] : 0;
}
