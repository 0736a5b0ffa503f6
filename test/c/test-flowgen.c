/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the background flow generator, with a seeded test PRNG. */
#include "ddnn-flowgen.h"
#include "ddnn-unit.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* data_dir = DDNN_DATA_DIR;

/* splitmix64: a small, good-enough generator for tests */
static double
uniform(void* ctx)
{
    uint64_t* state = ctx;
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0; /* [0, 1) */
}

static ddnn_cdf*
web_search(void)
{
    char path[1024];
    ddnn_cdf* cdf = NULL;
    ddnn_diag diag;
    snprintf(path, sizeof path, "%s/web-search-cdf.csv", data_dir);
    CHECK(ddnn_cdf_read_file(&cdf, path, &diag) == DDNN_OK);
    return cdf;
}

/* 10^6 flows: sizes average the CDF's mean, arrivals are Poisson at servers x rate. */
static void
statistics_follow_the_model(void)
{
    ddnn_cdf* cdf = web_search();
    ddnn_flowgen* g = NULL;
    ddnn_flowgen_config cfg = {8, 100.0, 0, UINT64_MAX};
    uint64_t seed = 42, previous = 0;
    double sum_bytes = 0, sum_gap = 0, sum_gap2 = 0;
    uint64_t from[8] = {0}, self_flows = 0;
    const int n = 1000000;
    int i;
    if (!cdf)
        return;
    CHECK(ddnn_flowgen_new(&g, &cfg, cdf, uniform, &seed) == DDNN_OK);
    for (i = 0; i < n; i++)
    {
        ddnn_flow f;
        double gap;
        CHECK(ddnn_flowgen_next(g, &f) == 1);
        CHECK_U64(f.id, (uint64_t)i);
        sum_bytes += (double)f.bytes;
        gap = (double)(f.start_ns - previous) / 1e9;
        previous = f.start_ns;
        sum_gap += gap;
        sum_gap2 += gap * gap;
        self_flows += f.src == f.dst;
        CHECK(f.src < 8 && f.dst < 8);
        from[f.src]++;
    }
    {
        double mean_gap = sum_gap / n;
        double cv = sqrt(sum_gap2 / n - mean_gap * mean_gap) / mean_gap;
        CHECK_NEAR(sum_bytes / n, ddnn_cdf_mean(cdf), 0.02 * ddnn_cdf_mean(cdf));
        CHECK_NEAR(mean_gap, 1.0 / 800.0, 0.01 / 800.0); /* 8 servers x 100 flows/s */
        CHECK_NEAR(cv, 1.0, 0.01);
    }
    CHECK_U64(self_flows, 0);
    for (i = 0; i < 8; i++)
        CHECK_NEAR((double)from[i], n / 8.0, n / 8.0 * 0.02); /* uniform sources */
    ddnn_flowgen_free(g);
    ddnn_cdf_free(cdf);
}

/* The same seed gives the same schedule; a different one does not; arrivals stop at stop_ns. */
static void
seed_fixes_the_schedule(void)
{
    ddnn_cdf* cdf = web_search();
    ddnn_flowgen_config cfg = {4, 50.0, 1000000000ULL, 3000000000ULL};
    uint64_t seeds[3] = {7, 7, 8};
    ddnn_flow flows[3][64];
    int counts[3] = {0, 0, 0}, k, i;
    if (!cdf)
        return;
    for (k = 0; k < 3; k++)
    {
        ddnn_flowgen* g = NULL;
        ddnn_flow f;
        CHECK(ddnn_flowgen_new(&g, &cfg, cdf, uniform, &seeds[k]) == DDNN_OK);
        while (ddnn_flowgen_next(g, &f) == 1)
        {
            CHECK(f.start_ns >= 1000000000ULL && f.start_ns < 3000000000ULL);
            if (counts[k] < 64)
                flows[k][counts[k]] = f;
            counts[k]++;
        }
        CHECK(ddnn_flowgen_next(g, &f) == 0);
        ddnn_flowgen_free(g);
    }
    CHECK(counts[0] == counts[1]);
    CHECK(counts[0] > 200 && counts[0] < 600); /* 400 expected in 2 s */
    for (i = 0; i < 64 && i < counts[0]; i++)
        CHECK(memcmp(&flows[0][i], &flows[1][i], sizeof(ddnn_flow)) == 0);
    CHECK(memcmp(&flows[0][0], &flows[2][0], sizeof(ddnn_flow)) != 0);
    ddnn_cdf_free(cdf);
}

static void
rejects_bad_configuration(void)
{
    ddnn_cdf* cdf = web_search();
    ddnn_flowgen* g = NULL;
    uint64_t seed = 1;
    ddnn_flowgen_config zero_rate = {4, 0.0, 0, 10}, negative = {4, -1.0, 0, 10},
                        one = {1, 1.0, 0, 10}, backwards = {4, 1.0, 10, 5};
    if (!cdf)
        return;
    CHECK(ddnn_flowgen_new(&g, &zero_rate, cdf, uniform, &seed) == DDNN_ERR_INVALID);
    CHECK(ddnn_flowgen_new(&g, &negative, cdf, uniform, &seed) == DDNN_ERR_INVALID);
    CHECK(ddnn_flowgen_new(&g, &one, cdf, uniform, &seed) == DDNN_ERR_INVALID);
    CHECK(ddnn_flowgen_new(&g, &backwards, cdf, uniform, &seed) == DDNN_ERR_INVALID);
    ddnn_cdf_free(cdf);
}

/* The load generated from `path`'s sizes, relative to the load asked (servers x rate x the
 * CDF's mean), over 2 x 10^6 flows: heavy tails (a 2 % share of flows up to 1 GB) need that
 * many for 2 %. */
static double
offered_over_asked(const char* path)
{
    ddnn_cdf* cdf = NULL;
    ddnn_flowgen* g = NULL;
    ddnn_diag diag;
    ddnn_flowgen_config cfg = {4, 1000.0, 0, UINT64_MAX};
    uint64_t seed = 7, last = 0;
    double bytes = 0;
    int i;
    if (ddnn_cdf_read_file(&cdf, path, &diag) != DDNN_OK)
    {
        fprintf(stderr, "%s: %s\n", path, diag.message);
        return -1;
    }
    CHECK(ddnn_flowgen_new(&g, &cfg, cdf, uniform, &seed) == DDNN_OK);
    for (i = 0; g && i < 2000000; i++)
    {
        ddnn_flow f;
        CHECK(ddnn_flowgen_next(g, &f) == 1);
        bytes += (double)f.bytes;
        last = f.start_ns;
    }
    const double ratio
        = bytes / ((double)last / 1e9) / (cfg.servers * cfg.rate_per_server * ddnn_cdf_mean(cdf));
    ddnn_flowgen_free(g);
    ddnn_cdf_free(cdf);
    return ratio;
}

/* Every distribution ddnn ships (data/NAME-cdf.csv) and one converted by tools/import-cdf.sh
 * (test/data/heavy-tail-cdf.csv) offer the load asked, within 2 %. */
static void
offered_load_matches_on_every_distribution(void)
{
    char path[1200];
    DIR* dir = opendir(data_dir);
    struct dirent* entry;
    int shipped = 0;
    double ratio;
    CHECK(dir != NULL);
    while (dir && (entry = readdir(dir)) != NULL)
    {
        const size_t n = strlen(entry->d_name);
        if (n <= 8 || strcmp(entry->d_name + n - 8, "-cdf.csv") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", data_dir, entry->d_name);
        ratio = offered_over_asked(path);
        if (fabs(ratio - 1) > 0.02)
        {
            unit_checks_failed++;
            fprintf(stderr, "%s: offered %.4f x the asked load\n", path, ratio);
        }
        shipped++;
    }
    if (dir)
        closedir(dir);
    CHECK(shipped >= 1);
    snprintf(path, sizeof path, "%s/../test/data/heavy-tail-cdf.csv", data_dir);
    ratio = offered_over_asked(path);
    CHECK(fabs(ratio - 1) <= 0.02);
}

int
main(int argc, char** argv)
{
    if (argc > 1)
        data_dir = argv[1];
    RUN(statistics_follow_the_model);
    RUN(offered_load_matches_on_every_distribution);
    RUN(seed_fixes_the_schedule);
    RUN(rejects_bad_configuration);
    return UNIT_REPORT();
}
