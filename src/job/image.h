/* Images in and out of texvm run: PNG (libpng; 8 and 16 bits; gray, gray+alpha, RGB,
 * RGBA) and raw files. No VM or texture-unit calls. */
#ifndef TEXVM_SRC_JOB_IMAGE_H
#define TEXVM_SRC_JOB_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct image_info {
    uint32_t width, height;
    int channels;            /* 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA (after expansion) */
    int bits;                /* 8 or 16 (after expansion) */
} image_info;

/* Pixels: width*height*channels samples, rows top to bottom, each sample 0..255 (8 bits)
 * or 0..65535 (16 bits). */
typedef struct image {
    uint32_t width, height;
    int channels, bits;
    uint16_t *px;
} image;

/* Return 0 on success, else an exit-code class (1 invalid file, 3 cannot read/write) with a
 * message naming the file. Palette images expand to RGB(A), gray below 8 bits to 8 bits,
 * tRNS to an alpha channel. */
int image_png_info(const char *path, image_info *info, char *msg, size_t msgsize);
int image_png_read(const char *path, image *out, char *msg, size_t msgsize);
int image_png_write(const char *path, const image *img, char *msg, size_t msgsize);
/* image_png_write to an open file F (not closed; PATH names it in messages). */
int image_png_write_to(FILE *f, const char *path, const image *img, char *msg, size_t msgsize);
void image_free(image *img);

/* Raw files: write `size` bytes; 0 or 3 as above. */
int image_raw_write(const char *path, const void *data, size_t size, char *msg, size_t msgsize);

#endif
