/* libFuzzer target for the image loaders of `texvm run` (src/job/image_png.c): the bytes
 * become a file that image_png_info and image_png_read open, as a job's PNG source or
 * --tex N=FILE.png would. Every input must load or fail with a message naming the file;
 * a loaded image must be self-consistent. Written files are written back and re-read
 * (the writer round-trips what the reader produced).
 *   scripts/fuzz 600 fuzz_png */
#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char in_path[64], out_path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!in_path[0]) {
        snprintf(in_path, sizeof in_path, "/tmp/texvm_fuzz_png_%ld.png", (long)getpid());
        snprintf(out_path, sizeof out_path, "/tmp/texvm_fuzz_png_%ld_out.png", (long)getpid());
    }
    if (size > 1 << 20)
        return 0;
    FILE *f = fopen(in_path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    char msg[512];
    image_info info;
    msg[0] = '\0';
    int ri = image_png_info(in_path, &info, msg, sizeof msg);
    if (ri != 0 && (ri != 1 || !strstr(msg, in_path)))
        abort(); /* a bad file is exit class 1 with a message naming it */
    image img;
    msg[0] = '\0';
    int r = image_png_read(in_path, &img, msg, sizeof msg);
    if (r != 0) {
        if (r != 1 || !strstr(msg, in_path))
            abort();
        return 0;
    }
    if (ri != 0 || info.width != img.width || info.height != img.height ||
        info.channels != img.channels || info.bits != img.bits || !img.px)
        abort(); /* info and read agree */
    size_t samples = (size_t)img.width * img.height * (size_t)img.channels;
    uint32_t max = img.bits == 8 ? 255 : 65535;
    for (size_t i = 0; i < samples; i++)
        if (img.px[i] > max)
            abort();
    if (samples <= 1 << 16) { /* round trip small images through the writer */
        if (image_png_write(out_path, &img, msg, sizeof msg) != 0)
            abort();
        image back;
        if (image_png_read(out_path, &back, msg, sizeof msg) != 0)
            abort();
        if (back.width != img.width || back.height != img.height ||
            back.channels != img.channels || back.bits != img.bits ||
            memcmp(back.px, img.px, samples * sizeof *img.px) != 0)
            abort();
        image_free(&back);
    }
    image_free(&img);
    return 0;
}
