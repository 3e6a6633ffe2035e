/* PNG and raw image files (libpng's classic API; errors come back through setjmp). */
#include "image.h"
#include "job_limits.h"
#include "texvm/job.h"
#include <unistd.h>

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct png_err {
    char text[256];
} png_err;

static void on_error(png_structp png, png_const_charp text)
{
    png_err *e = png_get_error_ptr(png);
    if (e)
        snprintf(e->text, sizeof e->text, "%s", text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text)
{
    (void)png;
    (void)text;
}

/* Open and read the header with expansions set; on success the PNG structures and the file are live. */
static int open_read(const char *path, FILE **fp, png_structp *pngp, png_infop *infop,
                     png_err *perr, image_info *ii, char *msg, size_t msgsize)
{
    int fd;
    char why[160];
    int orc = tv_file_open(path, job_max_memory(), &fd, why, sizeof why);
    if (orc) {
        snprintf(msg, msgsize, orc == 3 ? "cannot read \"%s\": %s" : "\"%s\" %s (--max-job-memory)",
                 path, why);
        return orc;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        snprintf(msg, msgsize, "cannot read \"%s\": %s", path, strerror(errno));
        return 3;
    }
    unsigned char sig[8];
    if (fread(sig, 1, 8, f) != 8 || png_sig_cmp(sig, 0, 8)) {
        fclose(f);
        snprintf(msg, msgsize, "\"%s\" is not a PNG file", path);
        return 1;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, perr, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        fclose(f);
        snprintf(msg, msgsize, "\"%s\": out of memory", path);
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        snprintf(msg, msgsize, "\"%s\": bad PNG: %s", path, perr->text);
        return 1;
    }
    png_init_io(png, f);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    int ct = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (ct == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (ct == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_tRNS_to_alpha(png);
    png_read_update_info(png, info);
    ii->width = png_get_image_width(png, info);
    ii->height = png_get_image_height(png, info);
    ii->channels = png_get_channels(png, info);
    ii->bits = png_get_bit_depth(png, info);
    *fp = f;
    *pngp = png;
    *infop = info;
    return 0;
}

int image_png_info(const char *path, image_info *info, char *msg, size_t msgsize)
{
    FILE *f;
    png_structp png;
    png_infop pi;
    png_err perr = {""};
    int r = open_read(path, &f, &png, &pi, &perr, info, msg, msgsize);
    if (r)
        return r;
    png_destroy_read_struct(&png, &pi, NULL);
    fclose(f);
    return 0;
}

int image_png_read(const char *path, image *out, char *msg, size_t msgsize)
{
    FILE *f;
    png_structp png;
    png_infop info;
    png_err perr = {""};
    image_info ii;
    memset(out, 0, sizeof *out);
    int r = open_read(path, &f, &png, &info, &perr, &ii, msg, msgsize);
    if (r)
        return r;
    size_t rowbytes = png_get_rowbytes(png, info);
    size_t samples = (size_t)ii.width * ii.height * (size_t)ii.channels;
    if (ii.width == 0 || ii.height == 0 || ii.width > 65536 || ii.height > 65536 ||
        (ii.bits != 8 && ii.bits != 16) || ii.channels < 1 || ii.channels > 4) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        snprintf(msg, msgsize, "\"%s\": unsupported PNG (%ux%u, %d channels, %d bits)", path,
                 ii.width, ii.height, ii.channels, ii.bits);
        return 1;
    }
    /* a few KiB of PNG can claim gigabytes: the decode buffers count against the job memory
     * limit (docs/limits.md) */
    uint64_t need = (uint64_t)rowbytes * ii.height + (uint64_t)samples * sizeof(uint16_t);
    if (need > job_max_memory()) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        snprintf(msg, msgsize,
                 "\"%s\": a %ux%u PNG needs %llu bytes to decode, more than the job memory "
                 "limit of %llu bytes (--max-job-memory)",
                 path, ii.width, ii.height, (unsigned long long)need,
                 (unsigned long long)job_max_memory());
        return 1;
    }
    uint8_t *volatile raw = malloc(rowbytes * ii.height);
    uint8_t **volatile rows = malloc(ii.height * sizeof *rows);
    uint16_t *px = malloc(samples * sizeof *px);
    if (!raw || !rows || !px) {
        free(raw);
        free(rows);
        free(px);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        snprintf(msg, msgsize, "\"%s\": out of memory", path);
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(raw);
        free(rows);
        free(px);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        snprintf(msg, msgsize, "\"%s\": bad PNG: %s", path, perr.text);
        return 1;
    }
    for (uint32_t y = 0; y < ii.height; y++)
        rows[y] = raw + y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    for (size_t i = 0; i < samples; i++) {
        if (ii.bits == 16) {
            px[i] = (uint16_t)(raw[2 * i] << 8 | raw[2 * i + 1]); /* PNG is big-endian */
        } else {
            px[i] = raw[i];
        }
    }
    free(raw);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    out->width = ii.width;
    out->height = ii.height;
    out->channels = ii.channels;
    out->bits = ii.bits;
    out->px = px;
    return 0;
}

int image_png_write_to(FILE *f, const char *path, const image *img, char *msg, size_t msgsize)
{
    static const int types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                 PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    if (img->channels < 1 || img->channels > 4 || (img->bits != 8 && img->bits != 16) ||
        !img->width || !img->height) {
        snprintf(msg, msgsize, "\"%s\": cannot write a %ux%u image of %d channels, %d bits",
                 path, img->width, img->height, img->channels, img->bits);
        return 1;
    }
    png_err perr = {""};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &perr, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    size_t bps = (size_t)img->bits / 8;
    size_t rowbytes = (size_t)img->width * (size_t)img->channels * bps;
    uint8_t *volatile row = malloc(rowbytes);
    if (!info || !row) {
        png_destroy_write_struct(&png, &info);
        free(row);
        snprintf(msg, msgsize, "\"%s\": out of memory", path);
        return 3;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        snprintf(msg, msgsize, "cannot write \"%s\": %s", path, perr.text);
        return 3;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, img->width, img->height, img->bits, types[img->channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    size_t per_row = (size_t)img->width * (size_t)img->channels;
    for (uint32_t y = 0; y < img->height; y++) {
        const uint16_t *src = img->px + (size_t)y * per_row;
        for (size_t i = 0; i < per_row; i++) {
            if (bps == 2) {
                row[2 * i] = (uint8_t)(src[i] >> 8); /* PNG is big-endian */
                row[2 * i + 1] = (uint8_t)src[i];
            } else {
                row[i] = (uint8_t)src[i];
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (fflush(f) || ferror(f)) {
        snprintf(msg, msgsize, "cannot write \"%s\": %s", path, strerror(errno));
        return 3;
    }
    return 0;
}

int image_png_write(const char *path, const image *img, char *msg, size_t msgsize)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(msg, msgsize, "cannot write \"%s\": %s", path, strerror(errno));
        return 3;
    }
    int rc = image_png_write_to(f, path, img, msg, msgsize);
    if (fclose(f) && !rc) {
        snprintf(msg, msgsize, "cannot write \"%s\": %s", path, strerror(errno));
        rc = 3;
    }
    return rc;
}

void image_free(image *img)
{
    free(img->px);
    img->px = NULL;
}

int image_raw_write(const char *path, const void *data, size_t size, char *msg, size_t msgsize)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(msg, msgsize, "cannot write \"%s\": %s", path, strerror(errno));
        return 3;
    }
    size_t n = size ? fwrite(data, 1, size, f) : 0;
    int bad = n != size;
    if (fclose(f))
        bad = 1;
    if (bad) {
        snprintf(msg, msgsize, "cannot write \"%s\": %s", path, strerror(errno));
        return 3;
    }
    return 0;
}
