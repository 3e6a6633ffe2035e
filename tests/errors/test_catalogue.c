/* The bad-input catalogue (docs/errors-catalogue.md, section "Catalogue"): every case of
 * tests/errors/cases/NAME.cases runs through the texvm program ($TEXVM_BIN) in a fresh folder
 * holding the case's files, and must print exactly the expected lines on stderr and exit
 * with the expected code. A second test checks that docs/errors-catalogue.md lists every
 * case (id, first message line, exit code) and lists no case that has no test.
 *
 * Case file format (one case after another):
 *   == ID title                 starts a case (ID: letters and digits, e.g. T01)
 *   > NAME                      a file; its lines follow as `|TEXT` (a newline is added)
 *   > NAME hex                  a binary file; `|HEX` lines of hex digits
 *   > NAME repeat N             a file of the following `|TEXT` lines repeated N times
 *                               (a NAME given again appends to the file)
 *   > NAME fifo                 a FIFO (nothing ever writes to it)
 *   > NAME dir                  a folder
 *   > NAME symlink TARGET       a symbolic link to TARGET
 *   < NAME                      standard input from NAME (else /dev/null)
 *   $ ARGS                      texvm's arguments, separated by spaces
 *   ! TEXT                      one expected stderr line (exactly; `!` alone = empty line)
 *   stderr empty                nothing on stderr (the docs row says `` (nothing) ``)
 *   ~ TEXT                      stderr contains TEXT (for messages that include sizes
 *                               internal to the engine; used instead of `!` lines)
 *   exit N                      the expected exit code
 *   # ...                       a comment */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#define MAX_CASES 512
#define MAX_FILES 8
#define MAX_LINES 16
#define MAX_ARGS 24

typedef struct tc_file {
    char name[64];
    bool hex;
    unsigned repeat;
    char special[16];          /* "fifo", "dir", "symlink" or "" */
    char target[256];
    char *data;
    size_t size, cap;
} tc_file;

typedef struct tc_case {
    char id[16];
    char title[160];
    char where[1100];          /* file:line of the case */
    char in[256];              /* `< NAME` */
    tc_file files[MAX_FILES];
    unsigned num_files;
    char *args[MAX_ARGS];
    unsigned num_args;
    char *err[MAX_LINES];
    unsigned num_err;
    int exit_code;
    bool empty;                /* `stderr empty` */
    char *has[MAX_LINES];      /* `~ TEXT` */
    unsigned num_has;
} tc_case;

static tc_case cases[MAX_CASES];
static unsigned num_cases;
static int loaded; /* 0 not yet, 1 loaded, -1 a case file is malformed */

static char *dup_str(const char *s)
{
    char *d = strdup(s);
    assert_non_null(d);
    return d;
}

static void append(tc_file *f, const char *s, size_t n)
{
    if (f->size + n + 1 > f->cap) {
        f->cap = (f->size + n + 1) * 2;
        f->data = realloc(f->data, f->cap);
        assert_non_null(f->data);
    }
    memcpy(f->data + f->size, s, n);
    f->size += n;
    f->data[f->size] = '\0';
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void parse_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    unsigned lineno = 0;
    tc_case *c = NULL;
    tc_file *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            line[--n] = '\0';
        if (!strncmp(line, "== ", 3)) {
            if (num_cases >= MAX_CASES)
                fail_msg("too many cases");
            c = &cases[num_cases++];
            memset(c, 0, sizeof *c);
            c->exit_code = -1;
            if (sscanf(line + 3, "%15s", c->id) != 1)
                fail_msg("%s:%u: case without an id", path, lineno);
            snprintf(c->title, sizeof c->title, "%s", line + 3 + strlen(c->id));
            snprintf(c->where, sizeof c->where, "%s:%u", path, lineno);
            cur = NULL;
            continue;
        }
        if (!n || line[0] == '#')
            continue;
        if (!c)
            fail_msg("%s:%u: text before the first case", path, lineno);
        if (line[0] == '>') {
            if (c->num_files >= MAX_FILES)
                fail_msg("%s:%u: too many files", path, lineno);
            cur = &c->files[c->num_files++];
            char mode[16] = "", arg[256] = "";
            if (sscanf(line + 1, "%63s %15s %255s", cur->name, mode, arg) < 1)
                fail_msg("%s:%u: a file needs a name", path, lineno);
            cur->hex = !strcmp(mode, "hex");
            cur->repeat = !strcmp(mode, "repeat") ? (unsigned)atoi(arg) : 1;
            if (!strcmp(mode, "fifo") || !strcmp(mode, "dir") || !strcmp(mode, "symlink")) {
                snprintf(cur->special, sizeof cur->special, "%s", mode);
                snprintf(cur->target, sizeof cur->target, "%s", arg);
                cur = NULL;
                continue;
            }
            append(cur, "", 0);
        } else if (line[0] == '|') {
            if (!cur)
                fail_msg("%s:%u: file text outside a file", path, lineno);
            if (cur->hex) {
                for (const char *p = line + 1; *p; p++) {
                    if (*p == ' ')
                        continue;
                    if (hexval(p[0]) < 0 || hexval(p[1]) < 0)
                        fail_msg("%s:%u: bad hex", path, lineno);
                    char b = (char)(hexval(p[0]) * 16 + hexval(p[1]));
                    append(cur, &b, 1);
                    p++;
                }
            } else {
                append(cur, line + 1, n - 1);
                append(cur, "\n", 1);
            }
        } else if (line[0] == '<') {
            cur = NULL;
            if (sscanf(line + 1, "%255s", c->in) != 1)
                fail_msg("%s:%u: `<` needs a file name", path, lineno);
        } else if (line[0] == '$') {
            cur = NULL;
            char *save = NULL;
            for (char *t = strtok_r(line + 1, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
                if (c->num_args >= MAX_ARGS)
                    fail_msg("%s:%u: too many arguments", path, lineno);
                c->args[c->num_args++] = dup_str(t);
            }
        } else if (line[0] == '!') {
            cur = NULL;
            if (c->num_err >= MAX_LINES)
                fail_msg("%s:%u: too many lines", path, lineno);
            c->err[c->num_err++] = dup_str(line[1] == ' ' ? line + 2 : line + 1);
        } else if (line[0] == '~') {
            cur = NULL;
            if (c->num_has >= MAX_LINES)
                fail_msg("%s:%u: too many lines", path, lineno);
            c->has[c->num_has++] = dup_str(line[1] == ' ' ? line + 2 : line + 1);
        } else if (!strcmp(line, "stderr empty")) {
            cur = NULL;
            c->empty = true;
        } else if (!strncmp(line, "exit ", 5)) {
            cur = NULL;
            c->exit_code = atoi(line + 5);
        } else {
            fail_msg("%s:%u: unknown line: %s", path, lineno, line);
        }
    }
    fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_cases(void)
{
    if (loaded < 0)
        fail_msg("the case files are malformed (see the first test)");
    if (loaded)
        return;
    loaded = -1; /* until every file parsed */
    const char *dir = TEXVM_SOURCE_DIR "/tests/errors/cases";
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[64];
    unsigned nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 64) {
        size_t l = strlen(e->d_name);
        if (l > 6 && !strcmp(e->d_name + l - 6, ".cases"))
            names[nn++] = dup_str(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_str);
    for (unsigned i = 0; i < nn; i++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        parse_file(p);
        free(names[i]);
    }
    for (unsigned i = 0; i < num_cases; i++) {
        unsigned forms = (cases[i].num_err > 0) + cases[i].empty + (cases[i].num_has > 0);
        if (!cases[i].num_args || cases[i].exit_code < 0 || forms != 1)
            fail_msg("%s: case %s needs `$ ARGS`, `! MESSAGE` (or `stderr empty`) and `exit N`",
                     cases[i].where,
                     cases[i].id);
        for (unsigned k = 0; k < i; k++)
            if (!strcmp(cases[k].id, cases[i].id))
                fail_msg("%s: case id %s is used twice", cases[i].where, cases[i].id);
    }
    loaded = 1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            cap *= 2;
            b = realloc(b, cap);
        }
    }
    fclose(f);
    if (b)
        b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

/* Run one case in its own folder; returns true when stderr and the exit code match. */
static bool run_case(const tc_case *c, const char *bin)
{
    char dir[] = "/tmp/texvm_errors_XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (unsigned i = 0; i < c->num_files; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, c->files[i].name);
        const char *sp = c->files[i].special;
        if (sp[0]) {
            int r = !strcmp(sp, "fifo") ? mkfifo(p, 0600)
                  : !strcmp(sp, "dir")  ? mkdir(p, 0700)
                                        : symlink(c->files[i].target, p);
            assert_int_equal(r, 0);
            continue;
        }
        bool again = false;
        for (unsigned k = 0; k < i; k++)
            again = again || !strcmp(c->files[k].name, c->files[i].name);
        FILE *f = fopen(p, again ? "ab" : "wb");
        assert_non_null(f);
        for (unsigned r = 0; r < c->files[i].repeat; r++)
            if (c->files[i].size)
                assert_int_equal(fwrite(c->files[i].data, 1, c->files[i].size, f),
                                 c->files[i].size);
        fclose(f);
    }
    char errpath[512];
    snprintf(errpath, sizeof errpath, "%s/.stderr", dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        alarm(60); /* a case that blocks fails instead of hanging the suite */
        int fe = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fo = open("/dev/null", O_WRONLY);
        int fi = open(c->in[0] ? c->in : "/dev/null", O_RDONLY);
        if (fe < 0 || fo < 0 || fi < 0)
            _exit(126);
        dup2(fe, 2);
        dup2(fo, 1);
        dup2(fi, 0);
        char *argv[MAX_ARGS + 2];
        argv[0] = (char *)bin;
        for (unsigned i = 0; i < c->num_args; i++)
            argv[i + 1] = c->args[i];
        argv[c->num_args + 1] = NULL;
        execv(bin, argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    char *got = read_all(errpath, NULL);
    assert_non_null(got);
    /* the expected text: the lines joined with newlines */
    size_t want_len = 0;
    for (unsigned i = 0; i < c->num_err; i++)
        want_len += strlen(c->err[i]) + 1;
    char *want = calloc(want_len + 1, 1);
    assert_non_null(want);
    for (unsigned i = 0; i < c->num_err; i++) {
        strcat(want, c->err[i]);
        strcat(want, "\n");
    }
    bool ok = code == c->exit_code;
    if (c->num_has) {
        for (unsigned i = 0; i < c->num_has; i++)
            ok = ok && strstr(got, c->has[i]) != NULL;
        free(want);
        want = calloc(1, 16 + 64 * MAX_LINES + 4096);
        assert_non_null(want);
        for (unsigned i = 0; i < c->num_has; i++) {
            strcat(want, "(contains) ");
            strncat(want, c->has[i], 4000 / MAX_LINES);
            strcat(want, "\n");
        }
    } else {
        ok = ok && !strcmp(got, want);
    }
    if (!ok)
        print_error("%s: case %s%s\n  expected exit %d, stderr:\n%s  got exit %d, stderr:\n%s",
                    c->where, c->id, c->title, c->exit_code, want, code, got);
    free(want);
    free(got);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        print_error("cannot remove %s\n", dir);
    return ok;
}

static void test_cases(void **state)
{
    (void)state;
    load_cases();
    const char *bin = getenv("TEXVM_BIN");
    assert_non_null(bin);
    unsigned failed = 0;
    for (unsigned i = 0; i < num_cases; i++)
        if (!run_case(&cases[i], bin))
            failed++;
    print_message("catalogue: %u cases, %u failed\n", num_cases, failed);
    assert_true(num_cases >= 50);
    assert_int_equal(failed, 0);
}

/* A catalogue row: `| ID | ... | `` MESSAGE `` | EXIT |` with `|` in MESSAGE as `\|`. */
static void test_docs(void **state)
{
    (void)state;
    load_cases();
    char *doc = read_all(TEXVM_SOURCE_DIR "/docs/errors-catalogue.md", NULL);
    assert_non_null(doc);
    char *cat = strstr(doc, "\n## Catalogue");
    if (!cat)
        fail_msg("docs/errors-catalogue.md has no `## Catalogue` section");
    char *end = strstr(cat + 1, "\n## ");
    if (end)
        *end = '\0';
    unsigned failed = 0;
    for (unsigned i = 0; i < num_cases; i++) {
        const tc_case *c = &cases[i];
        char key[32];
        snprintf(key, sizeof key, "\n| %s |", c->id);
        char *row = strstr(cat, key);
        if (!row) {
            print_error("docs/errors-catalogue.md: case %s (%s) is not in the catalogue\n", c->id,
                        c->where);
            failed++;
            continue;
        }
        char *eol = strchr(row + 1, '\n');
        size_t rl = eol ? (size_t)(eol - row) : strlen(row);
        char *r = calloc(rl + 1, 1);
        assert_non_null(r);
        memcpy(r, row + 1, rl - 1);
        /* the message as the docs write it */
        char msg[1200] = "`` ";
        size_t m = 3;
        const char *first = c->empty ? "(nothing)" : c->num_has ? c->has[0] : c->err[0];
        for (const char *p = first; *p && m < sizeof msg - 8; p++) {
            if (*p == '|')
                msg[m++] = '\\';
            msg[m++] = *p;
        }
        memcpy(msg + m, " ``", 4);
        char tail[32];
        snprintf(tail, sizeof tail, "| %d |", c->exit_code);
        size_t tl = strlen(tail), l = strlen(r);
        if (!strstr(r, msg) || l < tl || strcmp(r + l - tl, tail) != 0) {
            print_error("docs/errors-catalogue.md: row of %s must contain %s and end with %s\n"
                        "  row: %s\n",
                        c->id, msg, tail, r);
            failed++;
        }
        free(r);
    }
    /* every id in the catalogue has a case */
    for (char *p = strstr(cat, "\n| "); p; p = strstr(p + 1, "\n| ")) {
        char id[16];
        if (sscanf(p + 3, "%15[A-Za-z0-9]", id) != 1 || !strchr("0123456789", id[strlen(id) - 1]))
            continue;
        bool found = false;
        for (unsigned i = 0; i < num_cases && !found; i++)
            found = !strcmp(cases[i].id, id);
        if (!found) {
            print_error("docs/errors-catalogue.md: catalogue row %s has no case in "
                        "tests/errors/cases\n", id);
            failed++;
        }
    }
    free(doc);
    assert_int_equal(failed, 0);
}

static bool have_case(const char *id)
{
    for (unsigned i = 0; i < num_cases; i++)
        if (!strcmp(cases[i].id, id))
            return true;
    return false;
}

/* docs/limits.md: every limit row of its tables names the catalogue cases that test it in
 * its last column (ids, `A-B` ranges of one prefix, or test names in backquotes / in
 * parentheses); every id named must be a case, and a row without any test must say why in
 * parentheses. */
static void test_limits_doc(void **state)
{
    (void)state;
    load_cases();
    char *doc = read_all(TEXVM_SOURCE_DIR "/docs/limits.md", NULL);
    assert_non_null(doc);
    unsigned failed = 0, rows = 0, ids = 0;
    for (char *line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
        size_t n = strlen(line);
        if (line[0] != '|' || n < 2 || line[n - 1] != '|' || strstr(line, "|---") ||
            !strncmp(line, "| limit |", 9))
            continue;
        line[n - 1] = '\0';
        char *last = strrchr(line, '|');   /* the test column */
        rows++;
        bool any = strchr(last, '`') || strchr(last, '(');
        for (char *p = last + 1; *p; p++) {
            char id[16], id2[16];
            int len = 0;
            if (!((p == last + 1 || strchr(" ,", p[-1])) && p[0] >= 'A' && p[0] <= 'Z' &&
                  sscanf(p, "%15[A-Z]%*[0-9]%n", id, &len) == 1 && len > 1))
                continue;
            snprintf(id, sizeof id, "%.*s", len, p);
            p += len - 1;
            any = true;
            if (p[1] == '-' && sscanf(p + 2, "%15[A-Z0-9]", id2) == 1) {
                /* A01-A05: every id of the range */
                size_t pre = strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
                int lo = atoi(id + pre), hi = atoi(id2 + pre);
                for (int k = lo; k <= hi; k++) {
                    char one[16];
                    snprintf(one, sizeof one, "%.*s%02d", (int)pre, id, k);
                    ids++;
                    if (!have_case(one)) {
                        print_error("docs/limits.md: %s (in %s-%s) is not a catalogue case\n",
                                    one, id, id2);
                        failed++;
                    }
                }
                p += 1 + strlen(id2);
                continue;
            }
            ids++;
            if (!have_case(id)) {
                print_error("docs/limits.md: %s is not a catalogue case\n", id);
                failed++;
            }
        }
        if (!any) {
            print_error("docs/limits.md: a limit row names no test: %s\n", line);
            failed++;
        }
    }
    print_message("limits.md: %u rows, %u case ids\n", rows, ids);
    assert_true(rows >= 15);
    free(doc);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_docs),
        cmocka_unit_test(test_limits_doc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
