/* Reading input files safely: regular files only, bounded sizes (cli_file.h). */
#include "cli_file.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a plain file";
}

/* Check an open descriptor: a regular file of at most MAX bytes. */
static int check_fd(int fd, uint64_t max, char *why, size_t whysize)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(why, whysize, "%s", strerror(errno));
        return CLI_EXIT_IO;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(why, whysize, "is a directory");
        return CLI_EXIT_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whysize, "not a regular file (%s)", kind_of(st.st_mode));
        return CLI_EXIT_IO;
    }
    if ((uint64_t)st.st_size > max) {
        snprintf(why, whysize, "has %llu bytes, more than the limit of %llu bytes",
                 (unsigned long long)st.st_size, (unsigned long long)max);
        return CLI_EXIT_INVALID;
    }
    return 0;
}

int cli_file_open(const char *path, uint64_t max, int *fd, char *why, size_t whysize)
{
    *fd = -1;
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f < 0) {
        snprintf(why, whysize, "%s", errno == EISDIR ? "is a directory" : strerror(errno));
        return CLI_EXIT_IO;
    }
    int rc = check_fd(f, max, why, whysize);
    if (rc) {
        close(f);
        return rc;
    }
    int fl = fcntl(f, F_GETFL);
    if (fl >= 0)
        (void)fcntl(f, F_SETFL, fl & ~O_NONBLOCK);
    *fd = f;
    return 0;
}

/* Read FD to its end or to MAX + 1 bytes (then too large). */
static int read_fd(int fd, uint64_t max, uint8_t **data, size_t *size, char *why, size_t whysize)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap + 1);
    if (!buf) {
        snprintf(why, whysize, "out of memory");
        return CLI_EXIT_INVALID;
    }
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                snprintf(why, whysize, "has more than the limit of %llu bytes",
                         (unsigned long long)max);
                return CLI_EXIT_INVALID;
            }
            size_t nc = cap * 2 > max + 1 ? (size_t)max + 1 : cap * 2;
            uint8_t *nb = realloc(buf, nc + 1);
            if (!nb) {
                free(buf);
                snprintf(why, whysize, "out of memory");
                return CLI_EXIT_INVALID;
            }
            buf = nb;
            cap = nc;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(why, whysize, "%s", strerror(errno));
            free(buf);
            return CLI_EXIT_IO;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > max) {
        free(buf);
        snprintf(why, whysize, "has more than the limit of %llu bytes", (unsigned long long)max);
        return CLI_EXIT_INVALID;
    }
    buf[n] = 0;
    *data = buf;
    *size = n;
    return 0;
}

int cli_file_read(const char *path, bool stdin_ok, uint64_t max, uint8_t **data, size_t *size,
                  char *why, size_t whysize)
{
    *data = NULL;
    *size = 0;
    if (stdin_ok && !strcmp(path, "-"))
        return read_fd(0, max, data, size, why, whysize);
    int fd;
    int rc = cli_file_open(path, max, &fd, why, whysize);
    if (rc)
        return rc;
    rc = read_fd(fd, max, data, size, why, whysize);
    close(fd);
    return rc;
}
