/* texvm — a software GPU shader core: TGSI programs on the CPU, one hardware-faithful
 * texture unit, NVIDIA SASS texture instructions at register level.
 *
 * This header holds what every layer shares: version, status codes and the error record.
 * The library never prints; every fallible call returns a tv_status and fills a tv_error. */
#ifndef TEXVM_TEXVM_H
#define TEXVM_TEXVM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TV_VERSION_MAJOR 0
#define TV_VERSION_MINOR 1
#define TV_VERSION_PATCH 0
#define TV_VERSION_STRING "0.1.0"

const char *tv_version(void);

/* Status codes. 0 is success; the rest say which layer refused and why. */
typedef enum tv_status {
    TV_OK = 0,
    TV_ERR_PARSE,        /* text could not be parsed (line:column set) */
    TV_ERR_INVALID,      /* parsed, but the validator rejected it */
    TV_ERR_UNSUPPORTED,  /* a feature texvm does not implement (named in the message) */
    TV_ERR_RUNTIME,      /* a fault while running (budget, bounds, misaligned register …) */
    TV_ERR_IO,           /* a file could not be read or written */
    TV_ERR_NOMEM,        /* an allocation failed or a configured memory limit was hit */
    TV_ERR_ARG           /* a bad argument to an API call */
} tv_status;

/* One error: the code, a message, and where it applies (file/line/column are 0/NULL
 * when they do not). `text` holds the offending text when there is one. */
typedef struct tv_error {
    tv_status code;
    char message[512];
    char file[256];      /* empty when not from a file */
    uint32_t line;       /* 1-based; 0 = no position */
    uint32_t column;     /* 1-based; 0 = no position */
    char text[128];      /* the offending token or line fragment, may be empty */
} tv_error;

const char *tv_status_name(tv_status s);

/* Format an error as `file:line:column: message` (parts omitted when absent) into buf.
 * Returns the number of characters that the full text needs (like snprintf). */
int tv_error_format(const tv_error *e, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
