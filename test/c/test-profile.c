/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the DNN profile reader and of its compute-time scaling. */
#include "ddnn-profile.h"
#include "ddnn-unit.h"

#include <stdlib.h>

static const char* data_dir = DDNN_DATA_DIR;

static int
parse(const char* text, ddnn_profile** p, ddnn_diag* diag)
{
    memset(diag, 0, sizeof *diag);
    return ddnn_profile_parse(p, text, strlen(text), diag);
}

/* Expects text to be rejected with code, at line, naming field. */
static void
expect_error(const char* text, int code, long line, const char* field)
{
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    CHECK_REJECTED(parse(text, &p, &diag), &diag, text, code, line, field);
    CHECK(p == NULL);
}

static void
parses_header_comments_and_any_row_order(void)
{
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    const char* text = "# a comment\n"
                       "layer, param_bytes, forward_ns, backward_ns\n"
                       "\n"
                       "1,200,10,20\r\n"
                       "# another comment\n"
                       "0,100,30,40\n";
    CHECK(parse(text, &p, &diag) == DDNN_OK);
    if (!p)
        return;
    CHECK_U64(ddnn_profile_layer_count(p), 2);
    CHECK_U64(ddnn_profile_layer(p, 0)->param_bytes, 100);
    CHECK_U64(ddnn_profile_layer(p, 1)->param_bytes, 200);
    CHECK_U64(ddnn_profile_layer(p, 1)->forward_ns, 10);
    CHECK_U64(ddnn_profile_layer(p, 0)->backward_ns, 40);
    CHECK_U64(ddnn_profile_total_bytes(p), 300);
    CHECK_U64(ddnn_profile_compute_ns(p), 100);
    CHECK(ddnn_profile_layer(p, 2) == NULL);
    ddnn_profile_free(p);
}

static void
rejects_bad_rows(void)
{
    expect_error("", DDNN_ERR_EMPTY, 0, "");
    expect_error(
        "# only comments\nlayer,param_bytes,forward_ns,backward_ns\n", DDNN_ERR_EMPTY, 0, "");
    expect_error("0,100,1,1\n1,abc,1,1\n", DDNN_ERR_SYNTAX, 2, "param_bytes");
    expect_error("0,100,1,1\n1,12x,1,1\n", DDNN_ERR_SYNTAX, 2, "param_bytes");
    expect_error("0,100,1,1\n1,-5,1,1\n", DDNN_ERR_RANGE, 2, "param_bytes");
    expect_error("0,0,1,1\n", DDNN_ERR_RANGE, 1, "param_bytes");
    expect_error("0,100,-1,1\n", DDNN_ERR_RANGE, 1, "forward_ns");
    expect_error("0,100,1,x\n", DDNN_ERR_SYNTAX, 1, "backward_ns");
    expect_error("0,100,1\n", DDNN_ERR_SYNTAX, 1, "");
    expect_error("0,100,1,1\n0,100,1,1\n", DDNN_ERR_DUPLICATE, 2, "layer");
    expect_error("0,100,1,1\n2,100,1,1\n", DDNN_ERR_MISSING, 2, "layer");
    expect_error("0,100,1,1\n1.5,100,1,1\n", DDNN_ERR_SYNTAX, 2, "layer");
    expect_error("0,100,0,0\n", DDNN_ERR_RANGE, 0, "forward_ns");
    /* Sums that would wrap, or that ns-3's signed nanoseconds could not hold once scaled. */
    expect_error("0,18446744073709551615,1,1\n1,18446744073709551615,1,1\n",
                 DDNN_ERR_RANGE,
                 1,
                 "param_bytes");
    expect_error(
        "0,5000000000000000,1,1\n1,5000000000000000,1,1\n", DDNN_ERR_RANGE, 2, "param_bytes");
    expect_error(
        "0,100,600000000000000,1\n1,100,600000000000000,1\n", DDNN_ERR_RANGE, 2, "forward_ns");
    expect_error("0,100,1,9223372036854775807\n", DDNN_ERR_RANGE, 1, "backward_ns");
    /* a header is only allowed before the data */
    expect_error(
        "0,100,1,1\nlayer,param_bytes,forward_ns,backward_ns\n", DDNN_ERR_SYNTAX, 2, "layer");
}

/* ddnn 0.1 read any header by position: such a file still reads, with a notice, unless a
 * name of the header contradicts its position. */
static void
reads_a_0_1_header_by_position(void)
{
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    CHECK(parse("layer,bytes,forward_ns,backward_ns\n0,100,30,40\n", &p, &diag) == DDNN_OK);
    CHECK(diag.code == DDNN_OK && diag.line == 1);
    CHECK_STR_CONTAINS(diag.message, "by position as ddnn 0.1 did (deprecated until 0.3)");
    CHECK_STR_CONTAINS(diag.message, "'layer,param_bytes,forward_ns,backward_ns'");
    if (p)
    {
        CHECK_U64(ddnn_profile_layer(p, 0)->param_bytes, 100);
        CHECK_U64(ddnn_profile_layer(p, 0)->forward_ns, 30);
        ddnn_profile_free(p);
    }
    /* The names of the current header, in any order, leave no notice. */
    p = NULL;
    CHECK(parse("forward_ns,layer,param_bytes,backward_ns\n30,0,100,40\n", &p, &diag) == DDNN_OK);
    CHECK(diag.message[0] == '\0');
    ddnn_profile_free(p);
    /* forward_ns in param_bytes's place: the names mean something else than the positions. */
    expect_error("layer,forward_ns,bytes,backward_ns\n0,30,100,40\n", DDNN_ERR_SYNTAX, 1, "");
    /* Another count of columns is no 0.1 file either. */
    expect_error("layer,bytes,forward_ns\n0,100,30\n", DDNN_ERR_SYNTAX, 1, "");
}

static void
reports_missing_file(void)
{
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    char line[512];
    CHECK(ddnn_profile_read_file(&p, "/nonexistent/profile.csv", &diag) == DDNN_ERR_IO);
    ddnn_diag_format(&diag, "/nonexistent/profile.csv", line, sizeof line);
    CHECK_STR_CONTAINS(line, "/nonexistent/profile.csv: cannot open");
}

static void
formats_one_line_diagnostic(void)
{
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    char line[512];
    parse("0,100,1,1\n1,-7,1,1\n", &p, &diag);
    ddnn_diag_format(&diag, "model.csv", line, sizeof line);
    CHECK_STR_CONTAINS(line, "model.csv:2: field 'param_bytes': ");
    CHECK_STR_CONTAINS(line, "-7");
    CHECK(strchr(line, '\n') == NULL);
}

static ddnn_profile*
load(const char* name)
{
    char path[1024];
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    if (ddnn_profile_read_file(&p, path, &diag) != DDNN_OK)
    {
        char line[1300];
        ddnn_diag_format(&diag, path, line, sizeof line);
        fprintf(stderr, "%s\n", line);
    }
    return p;
}

/* Thesis Tables 4.1/5.1: 50 layers in three size groups, 98,222,124 bytes. */
static void
thesis_default_profile_matches_its_definition(void)
{
    ddnn_profile* p = load("thesis-default-profile.csv");
    size_t i;
    CHECK(p != NULL);
    if (!p)
        return;
    CHECK_U64(ddnn_profile_layer_count(p), 50);
    CHECK_U64(ddnn_profile_total_bytes(p), 98222124);
    for (i = 0; i < 50; i++)
    {
        const ddnn_layer* l = ddnn_profile_layer(p, i);
        uint64_t expected = i < 25 ? 444444 : i < 38 ? 1777776 : 5333328;
        CHECK_U64(l->param_bytes, expected);
        if (i > 0)
        {
            CHECK(l->forward_ns < ddnn_profile_layer(p, i - 1)->forward_ns);
            CHECK(l->backward_ns > ddnn_profile_layer(p, i - 1)->backward_ns);
        }
    }
    ddnn_profile_free(p);
}

/* ResNet-50 has 25,557,032 trainable fp32 weights. */
static void
resnet50_profile_matches_the_architecture(void)
{
    ddnn_profile* p = load("resnet50-profile.csv");
    CHECK(p != NULL);
    if (!p)
        return;
    CHECK_U64(ddnn_profile_layer_count(p), 54);
    CHECK_U64(ddnn_profile_total_bytes(p), 25557032ULL * 4);
    CHECK_U64(ddnn_profile_layer(p, 0)->param_bytes, (7 * 7 * 3 * 64 + 2 * 64) * 4);
    CHECK_U64(ddnn_profile_layer(p, 53)->param_bytes, (2048 * 1000 + 1000) * 4);
    ddnn_profile_free(p);
}

/*
 * The seed papers' models (data/make-seed-profiles.py): each profile's weights against the
 * architecture's published count (within 1 %), every backward twice its forward, and one
 * layer's compute time from its operations at the files' stated 10 TFLOP/s.
 */
static void
seed_profiles_match_their_published_sizes(void)
{
    static const struct
    {
        const char* file;
        uint64_t weights;
    } models[] = {
        {"inception-v3-profile.csv", 23817352}, /* Keras's trainable count */
        {"vgg16-profile.csv", 138357544},
        {"mobilenet-v1-profile.csv", 4231976}, /* Keras's trainable count */
        {"mnist-mlp-profile.csv", 669706},
        {"bert-base-profile.csv", 109482240},
        {"gpt2-small-profile.csv", 124439808},
    };
    size_t m, i;
    for (m = 0; m < sizeof models / sizeof models[0]; m++)
    {
        ddnn_profile* p = load(models[m].file);
        CHECK(p != NULL);
        if (!p)
            continue;
        CHECK_NEAR((double)ddnn_profile_total_bytes(p) / 4.0,
                   (double)models[m].weights,
                   0.01 * (double)models[m].weights);
        for (i = 0; i < ddnn_profile_layer_count(p); i++)
        {
            const ddnn_layer* l = ddnn_profile_layer(p, i);
            CHECK_U64(l->backward_ns, 2 * l->forward_ns);
        }
        if (m == 1)
        {
            /* VGG-16's first convolution: 3x3x3 -> 64 with bias; 2 x 3*3*3*64 x 224*224 FLOPs
             * per image, 32 images, at 10^13 FLOP/s. */
            const ddnn_layer* l = ddnn_profile_layer(p, 0);
            CHECK_U64(l->param_bytes, (3 * 3 * 3 * 64 + 64) * 4);
            CHECK_NEAR((double)l->forward_ns, 2.0 * 27 * 64 * 224 * 224 * 32 / 1e13 * 1e9, 0.5);
        }
        ddnn_profile_free(p);
    }
}

/* Scaled times add up to the target exactly, forward 1/3 and backward 2/3 of it. */
static void
scaling_is_exact_and_keeps_the_shape(void)
{
    ddnn_profile* p = load("thesis-default-profile.csv");
    uint64_t fwd[50], bwd[50], sum_f = 0, sum_b = 0;
    const uint64_t target = 137510974; /* an awkward number of ns */
    size_t i;
    if (!p)
        return;
    CHECK(ddnn_profile_scale(p, target, fwd, bwd) == DDNN_OK);
    for (i = 0; i < 50; i++)
    {
        sum_f += fwd[i];
        sum_b += bwd[i];
    }
    CHECK_U64(sum_f + sum_b, target);
    CHECK_NEAR((double)sum_f / (double)target, 1.0 / 3.0, 1e-6);
    /* forward(i) is proportional to 50 - i: layer 0 gets 50/1275 of the forward third */
    CHECK_NEAR((double)fwd[0], target / 3.0 * 50.0 / 1275.0, 1.0);
    CHECK_NEAR((double)bwd[49], target * 2.0 / 3.0 * 50.0 / 1275.0, 1.0);
    CHECK(ddnn_profile_scale(p, 0, fwd, bwd) == DDNN_ERR_INVALID);
    ddnn_profile_free(p);
}

/* A replica's bytes: each layer rounded to the nearest byte, never below 1; totals follow. */
static void
byte_scaling_rounds_each_layer(void)
{
    static const char text[] = "layer,param_bytes,forward_ns,backward_ns\n"
                               "0,1000,10,20\n1,3,10,20\n2,1,10,20\n";
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    CHECK(ddnn_profile_parse(&p, text, sizeof text - 1, &diag) == DDNN_OK);
    if (!p)
        return;
    CHECK(ddnn_profile_scale_bytes(p, 0.25) == DDNN_OK);
    CHECK_U64(ddnn_profile_layer(p, 0)->param_bytes, 250);
    CHECK_U64(ddnn_profile_layer(p, 1)->param_bytes, 1); /* 0.75 rounds to 1 */
    CHECK_U64(ddnn_profile_layer(p, 2)->param_bytes, 1); /* 0.25 would vanish: kept at 1 */
    CHECK_U64(ddnn_profile_total_bytes(p), 252);
    CHECK_U64(ddnn_profile_compute_ns(p), 90); /* compute is not the replica's to scale */
    CHECK(ddnn_profile_scale_bytes(p, 1) == DDNN_OK);
    CHECK_U64(ddnn_profile_total_bytes(p), 252);
    CHECK(ddnn_profile_scale_bytes(p, 0) == DDNN_ERR_INVALID);
    CHECK(ddnn_profile_scale_bytes(p, 1.5) == DDNN_ERR_INVALID);
    CHECK(ddnn_profile_scale_bytes(p, 0.0 / 0.0) == DDNN_ERR_INVALID);
    ddnn_profile_free(p);
}

int
main(int argc, char** argv)
{
    if (argc > 1)
        data_dir = argv[1];
    RUN(parses_header_comments_and_any_row_order);
    RUN(rejects_bad_rows);
    RUN(reads_a_0_1_header_by_position);
    RUN(reports_missing_file);
    RUN(formats_one_line_diagnostic);
    RUN(thesis_default_profile_matches_its_definition);
    RUN(resnet50_profile_matches_the_architecture);
    RUN(seed_profiles_match_their_published_sizes);
    RUN(scaling_is_exact_and_keeps_the_shape);
    RUN(byte_scaling_rounds_each_layer);
    return UNIT_REPORT();
}
