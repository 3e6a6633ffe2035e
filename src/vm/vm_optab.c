/* The engine's opcode table: how each TGSI opcode is lowered (class, source types for
 * modifiers, handler op (vm_handlers.h), LEGACY_MATH_RULES variant, special lowering function). Opcodes with
 * no row are rejected at lowering with "not implemented". */
#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"

/* Classes: CH per channel, CHN per channel as one channel-group micro-op, SC scalar
 * replicated, DOT, V4 vec4, CF control flow, SP special lowering, TX texture (issue 5).
 * Operand counts are not repeated here: the lowering takes them from the opcode table
 * (vm_op_nsrc); `types` gives a modifier type for each source the class reads
 * (tests/vm/test_optab.c checks there are enough), and a CF row reads its one source
 * only when it names a type. */
#define CH(types, fn) {VM_L_CH, VM_K_ALU, types, VM_OP_##fn, 0, NULL, 0, false}
/* per channel, reading the quad's other lanes (derivatives) */
#define CHQ(types, fn) {VM_L_CH, VM_K_ALU, types, VM_OP_##fn, 0, NULL, 0, true}
#define CHN(types, fn) {VM_L_CHN, VM_K_ALU, types, VM_OP_##fn##_n, 0, NULL, 0, false}
#define CHNL(types, fn) {VM_L_CHN, VM_K_ALU, types, VM_OP_##fn##_n, VM_OP_##fn##_legacy_n, NULL, 0, false}
#define SC(fn) {VM_L_SC, VM_K_ALU, "ff", VM_OP_##fn, 0, NULL, 0, false}
/* scalar with a channel-group handler: one channel, so consecutive ones can be fused */
#define SCN(fn) {VM_L_SC, VM_K_ALU, "ff", VM_OP_##fn##_n, 0, NULL, 0, false}
#define DOT(n) {VM_L_DOT, VM_K_ALU, "ff", VM_OP_dot, VM_OP_dot_legacy, NULL, n, false}
#define V4(types, fn) {VM_L_V4, VM_K_ALU, types, VM_OP_##fn, 0, NULL, 0, false}
#define V4L(types, fn) {VM_L_V4, VM_K_ALU, types, VM_OP_##fn, VM_OP_##fn##_legacy, NULL, 0, false}
#define CF(kind, types) {VM_L_CF, kind, types, VM_OP_NONE, 0, NULL, 0, false}
#define SP(fn) {VM_L_SPECIAL, VM_K_ALU, "nnnnn", VM_OP_NONE, 0, fn, 0, false}
#define TX {VM_L_TEX, VM_K_ALU, "", VM_OP_NONE, 0, NULL, 0, false}

#define O(name) [TV_TGSI_OP_##name]
static const vm_optab_row optab[TV_TGSI_OP_LAST] = {
    O(ARL) = CHN("f", arl),         O(MOV) = CHN("f", mov),
    O(LIT) = V4("f", lit),          O(RCP) = SC(rcp),
    O(RSQ) = SC(rsq),               O(EXP) = V4("f", exp),
    O(LOG) = V4("f", log),          O(MUL) = CHNL("ff", mul),
    O(ADD) = CHN("ff", add),        O(DP3) = DOT(3),
    O(DP4) = DOT(4),                O(DST) = V4L("ff", dst),
    O(MIN) = CHN("ff", min),        O(MAX) = CHN("ff", max),
    O(SLT) = CHN("ff", slt),        O(SGE) = CHN("ff", sge),
    O(MAD) = CHNL("fff", mad),      O(TEX_LZ) = TX,
    O(LRP) = CHNL("fff", lrp),      O(FMA) = CHNL("fff", fma),
    O(SQRT) = SC(sqrt),             O(LDEXP) = CH("fi", ldexp),
    O(F2U64) = V4("f", f2u64),      O(F2I64) = V4("f", f2i64),
    O(FRC) = CHN("f", frc),         O(TXF_LZ) = TX,
    O(FLR) = CHN("f", flr),         O(ROUND) = CHN("f", round),
    O(EX2) = SC(ex2),               O(LG2) = SC(lg2),
    O(POW) = SC(pow),               O(DEMOTE) = CF(VM_K_DEMOTE, ""),
    O(U2I64) = V4("u", u2i64),      O(CLOCK) = SP(vm_lower_warpop),
    O(I2I64) = V4("i", i2i64),      O(READ_HELPER) = SP(vm_lower_frag),
    O(COS) = SCN(cos),              O(DDX) = CHQ("f", ddx),
    O(DDY) = CHQ("f", ddy),          O(KILL) = CF(VM_K_KILL, ""),
    O(PK2H) = V4("f", pk2h),        O(PK2US) = V4("f", pk2us),
    O(PK4B) = V4("f", pk4b),        O(PK4UB) = V4("f", pk4ub),
    O(D2U64) = V4("d", d2u64),      O(SEQ) = CHN("ff", seq),
    O(D2I64) = V4("d", d2i64),      O(SGT) = CHN("ff", sgt),
    O(SIN) = SCN(sin),              O(SLE) = CHN("ff", sle),
    O(SNE) = CHN("ff", sne),        O(U642D) = V4("l", u642d),
    O(TEX) = TX,                    O(TXD) = TX, O(TXP) = TX,
    O(UP2H) = V4("u", up2h),        O(UP2US) = V4("u", up2us),
    O(UP4B) = V4("u", up4b),        O(UP4UB) = V4("u", up4ub),
    O(U642F) = V4("l", u642f),      O(I642F) = V4("l", i642f),
    O(ARR) = CHN("f", arr),         O(I642D) = V4("l", i642d),
    O(CAL) = CF(VM_K_CAL, ""),      O(RET) = CF(VM_K_RET, ""),
    O(SSG) = CHN("f", ssg),         O(CMP) = CHN("fff", cmp),
    O(TXB) = TX,                    O(FBFETCH) = SP(vm_lower_frag),
    O(DIV) = CHN("ff", div),        O(DP2) = DOT(2),
    O(TXL) = TX,                    O(BRK) = CF(VM_K_BRK, ""),
    O(IF) = CF(VM_K_IF, "f"),       O(UIF) = CF(VM_K_UIF, "u"),
    O(READ_INVOC) = SP(vm_lower_warpop),
    O(ELSE) = CF(VM_K_ELSE, ""),    O(ENDIF) = CF(VM_K_ENDIF, ""),
    O(DDX_FINE) = CHQ("f", ddx_fine), O(DDY_FINE) = CHQ("f", ddy_fine),
    O(CEIL) = CHN("f", ceil),       O(I2F) = CHN("i", i2f),
    O(NOT) = CHN("u", not),         O(TRUNC) = CHN("f", trunc),
    O(SHL) = CHN("uu", shl),        O(BALLOT) = SP(vm_lower_warpop),
    O(AND) = CHN("uu", and),        O(OR) = CHN("uu", or),
    O(MOD) = CHN("ii", mod),        O(XOR) = CHN("uu", xor),
    O(TXF) = TX,                    O(TXQ) = TX,
    O(CONT) = CF(VM_K_CONT, ""),    O(EMIT) = CF(VM_K_EMIT, "u"),
    O(ENDPRIM) = CF(VM_K_ENDPRIM, "u"),
    O(BGNLOOP) = CF(VM_K_BGNLOOP, ""), O(BGNSUB) = CF(VM_K_BGNSUB, ""),
    O(ENDLOOP) = CF(VM_K_ENDLOOP, ""), O(ENDSUB) = CF(VM_K_ENDSUB, ""),
    O(ATOMFADD) = SP(vm_lower_mem), O(TXQS) = TX,
    O(RESQ) = SP(vm_lower_resq),    O(READ_FIRST) = SP(vm_lower_warpop),
    O(NOP) = CF(VM_K_NOP, ""),
    O(FSEQ) = CHN("ff", fseq),      O(FSGE) = CHN("ff", fsge),
    O(FSLT) = CHN("ff", fslt),      O(FSNE) = CHN("ff", fsne),
    O(MEMBAR) = CF(VM_K_NOP, ""),   O(KILL_IF) = CF(VM_K_KILL_IF, "f"),
    O(END) = CF(VM_K_END, ""),      O(DFMA) = V4("ddd", dfma),
    O(F2I) = CHN("f", f2i),         O(IDIV) = CHN("ii", idiv),
    O(IMAX) = CHN("ii", imax),      O(IMIN) = CHN("ii", imin),
    O(INEG) = CHN("i", ineg),       O(ISGE) = CHN("ii", isge),
    O(ISHR) = CHN("iu", ishr),      O(ISLT) = CHN("ii", islt),
    O(F2U) = CHN("f", f2u),         O(U2F) = CHN("u", u2f),
    O(UADD) = CHN("uu", uadd),      O(UDIV) = CHN("uu", udiv),
    O(UMAD) = CHN("uuu", umad),     O(UMAX) = CHN("uu", umax),
    O(UMIN) = CHN("uu", umin),      O(UMOD) = CHN("uu", umod),
    O(UMUL) = CHN("uu", umul),      O(USEQ) = CHN("uu", useq),
    O(USGE) = CHN("uu", usge),      O(USHR) = CHN("uu", ushr),
    O(USLT) = CHN("uu", uslt),      O(USNE) = CHN("uu", usne),
    O(SWITCH) = CF(VM_K_SWITCH, "u"), O(CASE) = CF(VM_K_CASE, "u"),
    O(DEFAULT) = CF(VM_K_DEFAULT, ""), O(ENDSWITCH) = CF(VM_K_ENDSWITCH, ""),
    O(SAMPLE) = TX,                 O(SAMPLE_I) = TX, O(SAMPLE_I_MS) = TX, O(SAMPLE_B) = TX,
    O(SAMPLE_C) = TX,               O(SAMPLE_C_LZ) = TX, O(SAMPLE_D) = TX, O(SAMPLE_L) = TX,
    O(GATHER4) = TX,                O(SVIEWINFO) = TX, O(SAMPLE_POS) = TX, O(SAMPLE_INFO) = TX,
    O(UARL) = CHN("u", uarl),       O(UCMP) = CHN("unn", ucmp),
    O(IABS) = CHN("i", iabs),       O(ISSG) = CHN("i", issg),
    O(LOAD) = SP(vm_lower_mem),     O(STORE) = SP(vm_lower_mem),
    O(IMG2HND) = SP(vm_lower_hnd),  O(SAMP2HND) = SP(vm_lower_hnd),
    O(BARRIER) = CF(VM_K_BARRIER, ""),
    O(ATOMUADD) = SP(vm_lower_mem), O(ATOMXCHG) = SP(vm_lower_mem),
    O(ATOMCAS) = SP(vm_lower_mem),  O(ATOMAND) = SP(vm_lower_mem),
    O(ATOMOR) = SP(vm_lower_mem),   O(ATOMXOR) = SP(vm_lower_mem),
    O(ATOMUMIN) = SP(vm_lower_mem), O(ATOMUMAX) = SP(vm_lower_mem),
    O(ATOMIMIN) = SP(vm_lower_mem), O(ATOMIMAX) = SP(vm_lower_mem),
    O(TEX2) = TX,                   O(TXB2) = TX, O(TXL2) = TX,
    O(IMUL_HI) = CHN("ii", imul_hi), O(UMUL_HI) = CHN("uu", umul_hi),
    O(TG4) = TX,                    O(LODQ) = TX,
    O(IBFE) = CHN("iuu", ibfe),     O(UBFE) = CHN("uuu", ubfe),
    O(BFI) = CH("uuuu", bfi),       O(BREV) = CHN("u", brev),
    O(POPC) = CHN("u", popc),       O(LSB) = CHN("u", lsb),
    O(IMSB) = CHN("i", imsb),       O(UMSB) = CHN("u", umsb),
    O(INTERP_CENTROID) = SP(vm_lower_frag), O(INTERP_SAMPLE) = SP(vm_lower_frag),
    O(INTERP_OFFSET) = SP(vm_lower_frag),
    O(F2D) = V4("f", f2d),          O(D2F) = V4("d", d2f),
    O(DABS) = V4("n", dabs),        O(DNEG) = V4("n", dneg),
    O(DADD) = V4("dd", dadd),       O(DMUL) = V4("dd", dmul),
    O(DMAX) = V4("dd", dmax),       O(DMIN) = V4("dd", dmin),
    O(DSLT) = V4("dd", dslt),       O(DSGE) = V4("dd", dsge),
    O(DSEQ) = V4("dd", dseq),       O(DSNE) = V4("dd", dsne),
    O(DRCP) = V4("d", drcp),        O(DSQRT) = V4("d", dsqrt),
    O(DMAD) = V4("ddd", dmad),      O(DFRAC) = V4("d", dfrac),
    O(DLDEXP) = V4("di", dldexp),   O(D2I) = V4("d", d2i),
    O(I2D) = V4("i", i2d),          O(D2U) = V4("d", d2u),
    O(U2D) = V4("u", u2d),          O(DRSQ) = V4("d", drsq),
    O(DTRUNC) = V4("d", dtrunc),    O(DCEIL) = V4("d", dceil),
    O(DFLR) = V4("d", dflr),        O(DROUND) = V4("d", dround),
    O(DSSG) = V4("d", dssg),
    O(VOTE_ANY) = SP(vm_lower_warpop), O(VOTE_ALL) = SP(vm_lower_warpop),
    O(VOTE_EQ) = SP(vm_lower_warpop),
    O(U64SEQ) = V4("ll", u64seq),   O(U64SNE) = V4("ll", u64sne),
    O(I64SLT) = V4("ll", i64slt),   O(U64SLT) = V4("ll", u64slt),
    O(I64SGE) = V4("ll", i64sge),   O(U64SGE) = V4("ll", u64sge),
    O(I64MIN) = V4("ll", i64min),   O(U64MIN) = V4("ll", u64min),
    O(I64MAX) = V4("ll", i64max),   O(U64MAX) = V4("ll", u64max),
    O(I64ABS) = V4("l", i64abs),    O(I64SSG) = V4("l", i64ssg),
    O(I64NEG) = V4("l", i64neg),    O(U64ADD) = V4("ll", u64add),
    O(U64MUL) = V4("ll", u64mul),   O(U64SHL) = V4("lu", u64shl),
    O(I64SHR) = V4("lu", i64shr),   O(U64SHR) = V4("lu", u64shr),
    O(I64DIV) = V4("ll", i64div),   O(U64DIV) = V4("ll", u64div),
    O(I64MOD) = V4("ll", i64mod),   O(U64MOD) = V4("ll", u64mod),
    O(DDIV) = V4("dd", ddiv),       O(LOD) = TX,
    O(ATOMINC_WRAP) = SP(vm_lower_mem), O(ATOMDEC_WRAP) = SP(vm_lower_mem),
};

const vm_optab_row *vm_optab_get(unsigned opcode)
{
    if (opcode >= TV_TGSI_OP_LAST || optab[opcode].lclass == VM_L_NONE)
        return NULL;
    return &optab[opcode];
}

/* Names and operand counts come from the TGSI opcode table (tgsi_opcodes.def). */
const char *vm_opname(unsigned opcode)
{
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(opcode);
    return info ? info->name : "?";
}

unsigned vm_op_ndst(unsigned opcode)
{
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(opcode);
    return info ? info->num_dst : 0;
}

unsigned vm_op_nsrc(unsigned opcode)
{
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(opcode);
    return info ? info->num_src : 0;
}
