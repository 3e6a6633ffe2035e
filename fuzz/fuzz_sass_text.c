/* libFuzzer target: the SASS text parser. Whatever parses must print, re-parse to the
 * same instruction, and survive encode -> decode unchanged (text-only fields aside). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/sass.h"

static void strip_text_only(tv_sass_insn *in)
{
    in->legacy_tid = 0;
    in->ann_req = in->ann_rd = in->ann_wr = -1;
    memset(in->ann_sched, 0, sizeof in->ann_sched);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    tv_sass_insn a, b, c;
    tv_error err;
    if (tv_sass_parse(text, &a, &err) == TV_OK) {
        char buf[512];
        int n = tv_sass_print(&a, buf, sizeof buf);
        if (n <= 0 || (size_t)n >= sizeof buf)
            abort();
        if (tv_sass_parse(buf, &b, &err) != TV_OK || memcmp(&a, &b, sizeof a) != 0)
            abort();   /* print -> parse must be the identity */
        uint64_t word;
        uint32_t ctrl;
        if (tv_sass_encode(&a, &word, &ctrl, &err) != TV_OK)
            abort();   /* a parsed instruction always has an encoding */
        if (tv_sass_decode(word, ctrl, &c, &err) != TV_OK)
            abort();
        strip_text_only(&a);
        if (memcmp(&a, &c, sizeof a) != 0)
            abort();   /* decode(encode(i)) == i */
        (void)tv_sass_check_registers(&a, &err);
    }
    free(text);
    return 0;
}
