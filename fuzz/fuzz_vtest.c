/* libFuzzer target for the vtest server (docs/vtest.md): the bytes are what a client
 * sends. They are served as a whole connection (framing, VCMD_* requests, SUBMIT_CMD
 * decoding; replies go to /dev/null, so fd passing fails and ends a protocol-2
 * connection as a real send failure would) and, separately, decoded as one virgl
 * command buffer into a fresh context, and replayed as a record file (tv_vtest_replay;
 * the "TVVTREC1" header is put in front when the bytes lack it, so the chunk parser is
 * reached). Either works or fails with a logged reason;
 * nothing may crash, hang or leak. Quota 1 MiB per client; launches and draws run with
 * 20000 instructions per warp, 2^22 warp instructions each and 2^24 in all.
 *   scripts/fuzz 600 fuzz_vtest */
#define _GNU_SOURCE
#include "texvm/vtest.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int null_fd = -1;
    if (null_fd < 0)
        null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    /* 1 MiB, 20000 instructions per warp and 2^22 warp instructions per launch */
    tv_vtest_config cfg = {.max_memory = 1u << 20, .max_instructions = 20000,
                           .max_work = 1u << 22, .max_client_work = 1u << 24};

    int in = memfd_create("fuzz-vtest", MFD_CLOEXEC);
    if (in < 0 || (size && write(in, data, size) != (ssize_t)size))
        abort();
    lseek(in, 0, SEEK_SET);
    tv_vtest_serve(in, null_fd, &cfg);
    close(in);

    size_t ndw = size / 4;
    uint32_t *dw = malloc(ndw * 4 + 4);
    if (!dw)
        abort();
    memcpy(dw, data, ndw * 4);
    char err[320];
    tv_vtest_decode_buffer(dw, ndw, &cfg, err, sizeof err);
    free(dw);

    uint8_t *rec = malloc(size + 8);
    if (!rec)
        abort();
    bool has_magic = size >= 8 && !memcmp(data, "TVVTREC1", 8);
    memcpy(rec, "TVVTREC1", 8);
    memcpy(rec + (has_magic ? 0 : 8), data, size);
    tv_vtest_replay(rec, size + (has_magic ? 0 : 8), &cfg, NULL, NULL);
    free(rec);
    return 0;
}
