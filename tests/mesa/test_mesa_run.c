/* tools/mesa-run on small jobs whose results are known by construction: command-line and
 * GLSL errors, multisample texel order (texvm's raw order has samples innermost), cube face
 * order, uniform arrays in CONST[0] slots, a uniform block in constant slot 1, texture
 * arrays, and output orientation (texvm row 0 = top). Skips without mesa-run or EGL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define MESA_RUN TEXVM_BINARY_DIR "/tools/mesa-run"
#define WORK TEXVM_BINARY_DIR "/mesa-run-tests"

static bool g_skip;

static void put(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, WORK "/%s", name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Run mesa-run with `args` in WORK; returns the exit status, stderr in WORK/err.txt. */
static int run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '" WORK "' && '" MESA_RUN "' %s 2>err.txt >out.txt", args);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Whether WORK/name (out.txt: stdout, err.txt: stderr) holds `needle`. */
static bool file_contains(const char *name, const char *needle)
{
    char path[512];
    snprintf(path, sizeof path, WORK "/%s", name);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

static bool err_contains(const char *needle)
{
    return file_contains("err.txt", needle);
}

/* Read `count` float words of a raw output. */
static void read_floats(const char *name, float *out, size_t count)
{
    char path[512];
    snprintf(path, sizeof path, WORK "/%s", name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(out, 4, count, f), count);
    fclose(f);
}

static void test_usage_and_errors(void **state)
{
    (void)state;
    if (g_skip)
        skip();
    assert_int_equal(run("--driver nosuchpipe x.json"), 2);
    assert_int_equal(run("--tgsi x.tgsi x.json"), 2); /* --tgsi needs softpipe */
    assert_int_equal(run("missing.json"), 3);
    put("bad.frag", "#version 330 core\nout vec4 o;\nvoid main() { o = undefined_thing; }\n");
    put("bad.json", "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": "
                    "\"FRAG\\n  0: END\\n\", \"glsl\": \"bad.frag\" } ], \"frag\": { \"width\": 2, "
                    "\"height\": 2 } }");
    assert_int_equal(run("bad.json"), 1);
    assert_true(err_contains("does not compile"));
    put("ok.frag", "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n");
    put("st.json", "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": "
                   "\"FRAG\\n  0: END\\n\", \"glsl\": \"ok.frag\" } ], \"frag\": { \"width\": 2, "
                   "\"height\": 2, \"stencil\": { \"clear\": 0 } } }");
    assert_int_equal(run("st.json"), 4); /* stencil: unsupported, said so */
    assert_true(err_contains("not stencil"));
    put("nosrc.json", "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": "
                      "\"FRAG\\n  0: END\\n\" } ], \"frag\": { \"width\": 2, \"height\": 2 } }");
    assert_int_equal(run("nosrc.json"), 1);
    assert_true(err_contains("no \"glsl\" source"));
}

/* 2x1 texture, 4 samples: texel x, sample s holds (x, s, 10x + s, 1). */
static void test_multisample_order(void **state)
{
    (void)state;
    if (g_skip)
        skip();
    put("ms.frag", "#version 330 core\nuniform sampler2DMS t;\nout vec4 o;\n"
                   "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
                   "  o = texelFetch(t, ivec2(p.x / 4, 0), p.x % 4); }\n");
    put("ms.json",
        "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": \"FRAG\\n"
        "  0: END\\n\", \"glsl\": \"ms.frag\" } ],\n"
        "  \"frag\": { \"width\": 8, \"height\": 1 },\n"
        "  \"textures\": [ { \"type\": \"2D\", \"format\": \"R32G32B32A32_FLOAT\", \"width\": 2, "
        "\"height\": 1, \"samples\": 4, \"source\": { \"raw\": \"ms.bin\" } } ],\n"
        "  \"outputs\": [ { \"target\": 0, \"raw\": \"ms.out\" } ] }");
    float texels[2][4][4];
    for (int x = 0; x < 2; x++)
        for (int s = 0; s < 4; s++) {
            texels[x][s][0] = (float)x;
            texels[x][s][1] = (float)s;
            texels[x][s][2] = (float)(10 * x + s);
            texels[x][s][3] = 1.0f;
        }
    FILE *f = fopen(WORK "/ms.bin", "wb");
    assert_non_null(f);
    fwrite(texels, sizeof texels, 1, f);
    fclose(f);
    assert_int_equal(run("ms.json"), 0);
    float out[8][4];
    read_floats("ms.out", &out[0][0], 32);
    for (int px = 0; px < 8; px++) {
        assert_true(out[px][0] == (float)(px / 4));
        assert_true(out[px][1] == (float)(px % 4));
        assert_true(out[px][2] == (float)(10 * (px / 4) + px % 4));
    }
}

/* Cube 1x1 faces with value = face index; directions along each axis. Also checks that
 * texvm row 0 (top) is GL's highest window row. */
static void test_cube_faces_and_rows(void **state)
{
    (void)state;
    if (g_skip)
        skip();
    put("cube.frag", "#version 330 core\nuniform samplerCube c;\nout vec4 o;\n"
                     "void main() { int i = int(gl_FragCoord.x);\n"
                     "  vec3 d[6] = vec3[6](vec3(1,0,0), vec3(-1,0,0), vec3(0,1,0), vec3(0,-1,0),"
                     " vec3(0,0,1), vec3(0,0,-1));\n"
                     "  o = vec4(texture(c, d[i]).x, gl_FragCoord.y, 0.0, 1.0); }\n");
    put("cube.json",
        "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": \"FRAG\\n"
        "  0: END\\n\", \"glsl\": \"cube.frag\" } ],\n"
        "  \"frag\": { \"width\": 6, \"height\": 2 },\n"
        "  \"textures\": [ { \"type\": \"CUBE\", \"format\": \"R32_FLOAT\", \"width\": 1, "
        "\"height\": 1, \"layers\": 6, \"source\": { \"values\": [[0],[1],[2],[3],[4],[5]] } } ],\n"
        "  \"samplers\": [ { \"min_filter\": \"point\", \"mag_filter\": \"point\" } ],\n"
        "  \"outputs\": [ { \"target\": 0, \"raw\": \"cube.out\" } ] }");
    assert_int_equal(run("cube.json"), 0);
    float out[2][6][4];
    read_floats("cube.out", &out[0][0][0], 48);
    for (int y = 0; y < 2; y++)
        for (int i = 0; i < 6; i++) {
            assert_true(out[y][i][0] == (float)i);
            /* row 0 is the top: GL window y = 1, centre 1.5 */
            assert_true(out[y][i][1] == (y == 0 ? 1.5f : 0.5f));
        }
}

/* CONST[0]: float a; vec3 b[2]; CONST[1] = block { vec4 u; }; a 2D array texture layer pick. */
static void test_constants_and_arrays(void **state)
{
    (void)state;
    if (g_skip)
        skip();
    put("c.frag", "#version 330 core\nuniform float a;\nuniform vec3 b[2];\n"
                  "layout(std140) uniform Blk { vec4 u; };\nuniform sampler2DArray t;\n"
                  "out vec4 o;\nvoid main() { int x = int(gl_FragCoord.x);\n"
                  "  if (x == 0) o = vec4(a, b[0].z, b[1].y, 0.0);\n"
                  "  else if (x == 1) o = u;\n"
                  "  else o = texture(t, vec3(0.5, 0.5, float(x - 2))); }\n");
    put("c.json",
        "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": \"FRAG\\n"
        "  0: END\\n\", \"glsl\": \"c.frag\" } ],\n"
        "  \"frag\": { \"width\": 5, \"height\": 1 },\n"
        "  \"constants\": [ { \"slot\": 0, \"values\": [[7,0,0,0],[0,0,11,0],[0,13,0,0]] },\n"
        "                   { \"slot\": 1, \"values\": [[1,2,3,4]] } ],\n"
        "  \"textures\": [ { \"type\": \"2D_ARRAY\", \"format\": \"R32_FLOAT\", \"width\": 1, "
        "\"height\": 1, \"layers\": 3, \"source\": { \"values\": [[20],[21],[22]] } } ],\n"
        "  \"samplers\": [ { \"min_filter\": \"point\", \"mag_filter\": \"point\" } ],\n"
        "  \"outputs\": [ { \"target\": 0, \"raw\": \"c.out\" } ] }");
    assert_int_equal(run("--layout c.json"), 0);
    float out[5][4];
    read_floats("c.out", &out[0][0], 20);
    assert_true(out[0][0] == 7.0f && out[0][1] == 11.0f && out[0][2] == 13.0f);
    assert_true(out[1][0] == 1.0f && out[1][1] == 2.0f && out[1][2] == 3.0f && out[1][3] == 4.0f);
    for (int l = 0; l < 3; l++)
        assert_true(out[2 + l][0] == 20.0f + (float)l);
}

/* Depth: a program writing gl_FragDepth stores it; the depth buffer is read top row first. */
static void test_depth(void **state)
{
    (void)state;
    if (g_skip)
        skip();
    put("z.frag", "#version 330 core\nout vec4 o;\nvoid main() {\n"
                  "  gl_FragDepth = (gl_FragCoord.x + 4.0 * floor(gl_FragCoord.y)) / 16.0;\n"
                  "  o = vec4(1.0); }\n");
    put("z.json",
        "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": \"FRAG\\n"
        "  0: END\\n\", \"glsl\": \"z.frag\" } ],\n"
        "  \"frag\": { \"width\": 4, \"height\": 2, \"depth\": { \"clear\": 1.0 } },\n"
        "  \"outputs\": [ { \"depth\": true, \"raw\": \"z.out\" } ] }");
    float d[8];
    /* once, and with --repeat (the targets and the depth cleared before each timed draw,
       bench_job's protocol): the same depths, and the timing line */
    for (int rep = 0; rep < 2; rep++) {
        assert_int_equal(run(rep ? "--repeat 2 z.json" : "z.json"), 0);
        assert_true(!rep || file_contains("out.txt", "draw: median"));
        read_floats("z.out", d, 8);
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) {
                float glrow = (float)(1 - y); /* texvm row 0 = GL window row 1 */
                float want = ((float)x + 0.5f + 4.0f * glrow) / 16.0f;
                assert_true(fabsf(d[y * 4 + x] - want) < 1e-6f);
            }
    }
    /* not written by the program: the clear value stays */
    put("nz.frag", "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n");
    put("nz.json",
        "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": \"FRAG\\n"
        "  0: END\\n\", \"glsl\": \"nz.frag\" } ],\n"
        "  \"frag\": { \"width\": 4, \"height\": 2, \"depth\": { \"clear\": 0.25 } },\n"
        "  \"outputs\": [ { \"depth\": true, \"raw\": \"nz.out\" } ] }");
    for (int rep = 0; rep < 2; rep++) {
        assert_int_equal(run(rep ? "--repeat 2 nz.json" : "nz.json"), 0);
        read_floats("nz.out", d, 8);
        for (int k = 0; k < 8; k++)
            assert_true(d[k] == 0.25f);
    }
}

/* A 4-sample target: a per-sample program writes its sample index into every sample. */
static void test_multisample_target(void **state)
{
    (void)state;
    if (g_skip)
        skip();
    put("mst.frag", "#version 330 core\n#extension GL_ARB_sample_shading : require\n"
                    "out vec4 o;\nvoid main() { o = vec4(float(gl_SampleID), gl_FragCoord.x, "
                    "0.0, 1.0); }\n");
    put("mst.json",
        "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": \"FRAG\\n"
        "  0: END\\n\", \"glsl\": \"mst.frag\" } ],\n"
        "  \"frag\": { \"width\": 3, \"height\": 2, \"samples\": 4 },\n"
        "  \"outputs\": [ { \"target\": 0, \"raw\": \"mst.out\" } ] }");
    assert_int_equal(run("mst.json"), 0);
    float v[2][3][4][4];
    read_floats("mst.out", &v[0][0][0][0], 2 * 3 * 4 * 4);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int k = 0; k < 4; k++) {
                assert_true(v[y][x][k][0] == (float)k);
                /* per-sample shading: gl_FragCoord is the sample position, inside the pixel */
                assert_true(v[y][x][k][1] > (float)x && v[y][x][k][1] < (float)x + 1.0f);
            }
}

/* gl_FrontFacing follows the job's front_face (texvm's FACE), whatever the winding. */
static void test_front_face(void **state)
{
    (void)state;
    if (g_skip)
        skip();
    put("ff.frag", "#version 330 core\nout vec4 o;\n"
                   "void main() { o = vec4(gl_FrontFacing ? 1.0 : 0.0); }\n");
    for (int front = 0; front < 2; front++)
        for (int tri = 0; tri < 2; tri++) {
            char job[1024];
            snprintf(job, sizeof job,
                     "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": "
                     "\"FRAG\\n  0: END\\n\", \"glsl\": \"ff.frag\" } ], \"frag\": { \"width\": 2, "
                     "\"height\": 2, \"front_face\": %s, \"primitive\": \"%s\" },\n"
                     "  \"outputs\": [ { \"target\": 0, \"raw\": \"ff.out\" } ] }",
                     front ? "true" : "false", tri ? "triangle" : "rect");
            put("ff.json", job);
            assert_int_equal(run("ff.json"), 0);
            float v[16];
            read_floats("ff.out", v, 16);
            for (int k = 0; k < 16; k += 4)
                assert_true(v[k] == (float)front);
        }
}

static int setup(void **state)
{
    (void)state;
    struct stat st;
    if (stat(MESA_RUN, &st) != 0) {
        print_message("SKIP: tools/mesa-run was not built\n");
        g_skip = true;
        return 0;
    }
    mkdir(WORK, 0755);
    put("probe.frag", "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n");
    put("probe.json", "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", \"tgsi_text\": "
                      "\"FRAG\\n  0: END\\n\", \"glsl\": \"probe.frag\" } ], \"frag\": { "
                      "\"width\": 1, \"height\": 1 } }");
    if (run("probe.json") != 0) {
        print_message("SKIP: mesa-run cannot open an llvmpipe EGL context here\n");
        g_skip = true;
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usage_and_errors),
        cmocka_unit_test(test_multisample_order),
        cmocka_unit_test(test_cube_faces_and_rows),
        cmocka_unit_test(test_constants_and_arrays),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_multisample_target),
        cmocka_unit_test(test_front_face),
    };
    return cmocka_run_group_tests_name("mesa_run", tests, setup, NULL);
}
