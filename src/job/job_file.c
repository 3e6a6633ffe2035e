/* Reading input files safely and writing outputs inside their folder (texvm/job.h). */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* realpath */
#endif
#include "texvm/job.h"

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
        return TV_EXIT_IO;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(why, whysize, "is a directory");
        return TV_EXIT_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whysize, "not a regular file (%s)", kind_of(st.st_mode));
        return TV_EXIT_IO;
    }
    if ((uint64_t)st.st_size > max) {
        snprintf(why, whysize, "has %llu bytes, more than the limit of %llu bytes",
                 (unsigned long long)st.st_size, (unsigned long long)max);
        return TV_EXIT_INVALID;
    }
    return 0;
}

int tv_file_open(const char *path, uint64_t max, int *fd, char *why, size_t whysize)
{
    *fd = -1;
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f < 0) {
        snprintf(why, whysize, "%s", errno == EISDIR ? "is a directory" : strerror(errno));
        return TV_EXIT_IO;
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
        return TV_EXIT_INVALID;
    }
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                snprintf(why, whysize, "has more than the limit of %llu bytes",
                         (unsigned long long)max);
                return TV_EXIT_INVALID;
            }
            size_t nc = cap * 2 > max + 1 ? (size_t)max + 1 : cap * 2;
            uint8_t *nb = realloc(buf, nc + 1);
            if (!nb) {
                free(buf);
                snprintf(why, whysize, "out of memory");
                return TV_EXIT_INVALID;
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
            return TV_EXIT_IO;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > max) {
        free(buf);
        snprintf(why, whysize, "has more than the limit of %llu bytes", (unsigned long long)max);
        return TV_EXIT_INVALID;
    }
    buf[n] = 0;
    *data = buf;
    *size = n;
    return 0;
}

int tv_file_read(const char *path, bool stdin_ok, uint64_t max, uint8_t **data, size_t *size,
                  char *why, size_t whysize)
{
    *data = NULL;
    *size = 0;
    if (stdin_ok && !strcmp(path, "-"))
        return read_fd(0, max, data, size, why, whysize);
    int fd;
    int rc = tv_file_open(path, max, &fd, why, whysize);
    if (rc)
        return rc;
    rc = read_fd(fd, max, data, size, why, whysize);
    close(fd);
    return rc;
}

/* ---- output files ---------------------------------------------------------------------- */

/* Open the folder of REL under ROOT (component by component, no symbolic links, creating
 * missing folders); *NAME gets the last component. Returns a directory descriptor or -1. */
static int open_parent(const char *root, const char *rel, const char **name, int *rc, char *why,
                       size_t whysize)
{
    *rc = TV_EXIT_IO;
    int dfd = open(root && root[0] ? root : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(why, whysize, "the output folder \"%s\": %s", root && root[0] ? root : ".",
                 strerror(errno));
        return -1;
    }
    const char *p = rel;
    for (;;) {
        while (*p == '/')
            p++;
        const char *slash = strchr(p, '/');
        if (!slash)
            break;
        char comp[256];
        size_t n = (size_t)(slash - p);
        if (n >= sizeof comp) {
            close(dfd);
            snprintf(why, whysize, "a folder name is longer than 255 bytes");
            return -1;
        }
        memcpy(comp, p, n);
        comp[n] = 0;
        p = slash + 1;
        if (!strcmp(comp, ".") || !n)
            continue;
        int nd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (nd < 0 && errno == ENOENT && mkdirat(dfd, comp, 0777) == 0)
            nd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (nd < 0) {
            int e = errno;
            struct stat st;
            bool link = fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
            close(dfd);
            if (link || e == ELOOP) {
                *rc = TV_EXIT_INVALID;
                snprintf(why, whysize, "the folder \"%s\" is a symbolic link (an output stays "
                                       "inside the output folder)", comp);
            } else {
                snprintf(why, whysize, "the folder \"%s\": %s", comp,
                         e == ENOTDIR ? "not a folder" : strerror(e));
            }
            return -1;
        }
        close(dfd);
        dfd = nd;
    }
    *name = p;
    struct stat st;
    if (fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(st.st_mode)) {
            close(dfd);
            *rc = TV_EXIT_INVALID;
            snprintf(why, whysize, "is a symbolic link (an output stays inside the output "
                                   "folder)");
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            close(dfd);
            snprintf(why, whysize, "%s", S_ISDIR(st.st_mode) ? "is a directory"
                                                              : "not a regular file");
            return -1;
        }
    }
    *rc = 0;
    return dfd;
}

int tv_out_check(const char *root, const char *rel, char *why, size_t whysize)
{
    const char *name;
    int rc;
    int dfd = open_parent(root, rel, &name, &rc, why, whysize);
    if (dfd >= 0)
        close(dfd);
    return rc;
}

int tv_out_open(tv_out *o, const char *root, const char *rel, char *why, size_t whysize)
{
    static unsigned counter;
    memset(o, 0, sizeof *o);
    o->dirfd = -1;
    int rc;
    int dfd = open_parent(root, rel, &o->name, &rc, why, whysize);
    if (dfd < 0)
        return rc;
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        snprintf(o->tmp, sizeof o->tmp, ".texvm-%ld-%u.tmp", (long)getpid(), counter++);
        fd = openat(dfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
        snprintf(why, whysize, "%s", strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlinkat(dfd, o->tmp, 0);
        }
        close(dfd);
        return TV_EXIT_IO;
    }
    o->dirfd = dfd;
    return 0;
}

void tv_out_abort(tv_out *o)
{
    if (o->f)
        fclose(o->f);
    if (o->dirfd >= 0) {
        unlinkat(o->dirfd, o->tmp, 0);
        close(o->dirfd);
    }
    o->f = NULL;
    o->dirfd = -1;
}

int tv_out_commit(tv_out *o, char *why, size_t whysize)
{
    bool bad = ferror(o->f) != 0;
    bad = fclose(o->f) != 0 || bad;
    o->f = NULL;
    if (!bad && renameat(o->dirfd, o->tmp, o->dirfd, o->name) == 0) {
        close(o->dirfd);
        o->dirfd = -1;
        return 0;
    }
    snprintf(why, whysize, "%s", strerror(errno));
    tv_out_abort(o);
    return TV_EXIT_IO;
}

const char *tv_short_path(const char *path, char buf[TV_SHORT_PATH])
{
    size_t n = strlen(path);
    if (n < TV_SHORT_PATH)
        return path;
    snprintf(buf, TV_SHORT_PATH, "%.60s...%s", path, path + n - 90);
    return buf;
}

char *tv_path_from(const char *base, const char *path)
{
    if (path[0] == '/')
        return strdup(path);
    char *rb = realpath(base && base[0] ? base : ".", NULL);
    char *cwd = realpath(".", NULL);
    char *out = NULL;
    if (!rb || !cwd)
        goto done;
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *abs = malloc(n);
    if (!abs)
        goto done;
    snprintf(abs, n, "%s/%s", strcmp(cwd, "/") ? cwd : "", path);
    /* the longest common folder prefix of rb and abs */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        bool rend = rb[i] == 0 || rb[i] == '/';
        bool aend = abs[i] == '/';
        if (rend && aend)
            common = i;
        if (rb[i] == 0 || rb[i] != abs[i])
            break;
    }
    if (!strcmp(rb, "/"))
        common = 0;
    unsigned ups = 0;
    for (const char *p = rb + common; *p; p++)
        ups += *p == '/';
    size_t len = 3 * (size_t)ups + strlen(abs + common) + 2;
    out = malloc(len);
    if (out) {
        out[0] = 0;
        for (unsigned i = 0; i < ups; i++)
            strcat(out, "../");
        strcat(out, abs + common + 1);
    }
    free(abs);
done:
    free(rb);
    free(cwd);
    return out;
}

void tv_job_print_error(const tv_error *err)
{
    char buf[1024];
    tv_error_format(err, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    if (err->text[0])
        fprintf(stderr, "    near: %s\n", err->text);
}
