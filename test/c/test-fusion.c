/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of tensor fusion. */
#include "ddnn-fusion.h"
#include "ddnn-unit.h"

#include <stdlib.h>

static const char* data_dir = DDNN_DATA_DIR;

static ddnn_profile*
profile_of(const char* text)
{
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    CHECK(ddnn_profile_parse(&p, text, strlen(text), &diag) == DDNN_OK);
    return p;
}

/* Layers are taken last-first and a buffer closes when the next layer would overflow it. */
static void
fuses_in_backward_order(void)
{
    ddnn_profile* p = profile_of("0,10,1,1\n1,20,1,1\n2,30,1,1\n3,40,1,1\n4,50,1,1\n");
    ddnn_fusion_plan* plan = NULL;
    if (!p)
        return;
    CHECK(ddnn_fusion_plan_new(&plan, p, 90) == DDNN_OK);
    /* 50+40 = 90 fits; 30+20+10 = 60 */
    CHECK_U64(ddnn_fusion_plan_buffer_count(plan), 2);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 0)->lowest_layer, 3);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 0)->highest_layer, 4);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 0)->bytes, 90);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 1)->lowest_layer, 0);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 1)->highest_layer, 2);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 1)->bytes, 60);
    CHECK_U64(ddnn_fusion_plan_buffer_of_layer(plan, 4), 0);
    CHECK_U64(ddnn_fusion_plan_buffer_of_layer(plan, 0), 1);
    CHECK_U64(ddnn_fusion_plan_oversized_count(plan), 0);
    CHECK(ddnn_fusion_plan_buffer(plan, 2) == NULL);
    ddnn_fusion_plan_free(plan);
    ddnn_profile_free(p);
}

/* A layer over the fusion size travels alone, flagged, and splits its neighbours. */
static void
oversized_layer_travels_alone(void)
{
    ddnn_profile* p = profile_of("0,10,1,1\n1,500,1,1\n2,30,1,1\n3,40,1,1\n");
    ddnn_fusion_plan* plan = NULL;
    if (!p)
        return;
    CHECK(ddnn_fusion_plan_new(&plan, p, 100) == DDNN_OK);
    CHECK_U64(ddnn_fusion_plan_buffer_count(plan), 3);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 0)->bytes, 70);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 1)->bytes, 500);
    CHECK(ddnn_fusion_plan_buffer(plan, 1)->oversized);
    CHECK(!ddnn_fusion_plan_buffer(plan, 0)->oversized);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 2)->bytes, 10);
    CHECK_U64(ddnn_fusion_plan_oversized_count(plan), 1);
    ddnn_fusion_plan_free(plan);
    ddnn_profile_free(p);
}

static void
rejects_zero_fusion_size(void)
{
    ddnn_profile* p = profile_of("0,10,1,1\n");
    ddnn_fusion_plan* plan = NULL;
    if (!p)
        return;
    CHECK(ddnn_fusion_plan_new(&plan, p, 0) == DDNN_ERR_INVALID);
    CHECK(plan == NULL);
    ddnn_profile_free(p);
}

/*
 * Thesis default: 5,333,329-byte buffers give 12 single-layer buffers for
 * layers 49..38, four of three layers for 37..26, {25 + 24..17}, {16..5}, {4..0}.
 */
static void
thesis_default_fusion_plan(void)
{
    char path[1024];
    ddnn_profile* p = NULL;
    ddnn_fusion_plan* plan = NULL;
    ddnn_diag diag;
    uint64_t sum = 0;
    size_t i, n;
    snprintf(path, sizeof path, "%s/thesis-default-profile.csv", data_dir);
    CHECK(ddnn_profile_read_file(&p, path, &diag) == DDNN_OK);
    if (!p)
        return;
    CHECK(ddnn_fusion_plan_new(&plan, p, 5333329) == DDNN_OK);
    n = ddnn_fusion_plan_buffer_count(plan);
    CHECK_U64(n, 19);
    for (i = 0; i < n; i++)
    {
        const ddnn_fusion_buffer* b = ddnn_fusion_plan_buffer(plan, i);
        CHECK(b->bytes <= 5333329);
        sum += b->bytes;
        if (i < 12)
        {
            CHECK_U64(b->lowest_layer, 49 - i);
            CHECK_U64(b->highest_layer, 49 - i);
        }
    }
    CHECK_U64(sum, 98222124);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 16)->lowest_layer, 17);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 16)->highest_layer, 25);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 17)->lowest_layer, 5);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 18)->lowest_layer, 0);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 18)->bytes, 5 * 444444);
    CHECK_U64(ddnn_fusion_plan_oversized_count(plan), 0);
    ddnn_fusion_plan_free(plan);
    ddnn_profile_free(p);
}

/* A replica's layers keep the full-scale buffers: the bytes follow, the partition stays. */
static void
refill_keeps_the_layers_of_each_buffer(void)
{
    ddnn_profile* p = profile_of("0,10,1,1\n1,20,1,1\n2,30,1,1\n3,40,1,1\n4,50,1,1\n");
    ddnn_profile* other = profile_of("0,10,1,1\n");
    ddnn_fusion_plan* plan = NULL;
    if (!p || !other)
        return;
    CHECK(ddnn_fusion_plan_new(&plan, p, 90) == DDNN_OK);
    CHECK(ddnn_profile_scale_bytes(p, 0.1) == DDNN_OK); /* 1, 2, 3, 4, 5 */
    CHECK(ddnn_fusion_plan_refill(plan, p) == DDNN_OK);
    CHECK_U64(ddnn_fusion_plan_buffer_count(plan), 2);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 0)->lowest_layer, 3);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 0)->bytes, 9);
    CHECK_U64(ddnn_fusion_plan_buffer(plan, 1)->bytes, 6);
    CHECK(ddnn_fusion_plan_refill(plan, other) == DDNN_ERR_INVALID);
    ddnn_fusion_plan_free(plan);
    ddnn_profile_free(p);
    ddnn_profile_free(other);
}

int
main(int argc, char** argv)
{
    if (argc > 1)
        data_dir = argv[1];
    RUN(fuses_in_backward_order);
    RUN(oversized_layer_travels_alone);
    RUN(rejects_zero_fusion_size);
    RUN(thesis_default_fusion_plan);
    RUN(refill_keeps_the_layers_of_each_buffer);
    return UNIT_REPORT();
}
