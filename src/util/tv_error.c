/* Error records and status names shared by every layer. */
#include "texvm/texvm.h"
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *tv_version(void) { return TV_VERSION_STRING; }

static const char *const status_names[] = {
    [TV_OK] = "ok",
    [TV_ERR_PARSE] = "parse error",
    [TV_ERR_INVALID] = "invalid program",
    [TV_ERR_UNSUPPORTED] = "unsupported",
    [TV_ERR_RUNTIME] = "runtime fault",
    [TV_ERR_IO] = "i/o error",
    [TV_ERR_NOMEM] = "out of memory",
    [TV_ERR_ARG] = "bad argument",
};

const char *tv_status_name(tv_status s)
{
    if ((unsigned)s < sizeof status_names / sizeof status_names[0] && status_names[s])
        return status_names[s];
    return "unknown status";
}

int tv_error_format(const tv_error *e, char *buf, size_t size)
{
    char pos[320] = "";
    if (e->file[0] && e->line)
        snprintf(pos, sizeof pos, "%s:%u:%u: ", e->file, e->line, e->column);
    else if (e->file[0])
        snprintf(pos, sizeof pos, "%s: ", e->file);
    else if (e->line)
        snprintf(pos, sizeof pos, "%u:%u: ", e->line, e->column);
    return snprintf(buf, size, "%s%s", pos, e->message);
}

tv_status tv_error_set(tv_error *e, tv_status code, uint32_t line, uint32_t column,
                       const char *fmt, ...)
{
    if (!e)
        return code;
    e->code = code;
    e->line = line;
    e->column = column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return code;
}

void tv_error_clear(tv_error *e)
{
    if (e)
        memset(e, 0, sizeof *e);
}
