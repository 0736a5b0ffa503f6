/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the flow-size CDF reader, its mean and its inverse. */
#include "ddnn-cdf.h"
#include "ddnn-unit.h"

#include <stdlib.h>

static const char* data_dir = DDNN_DATA_DIR;

static void
expect_error(const char* text, int code, long line, const char* field)
{
    ddnn_cdf* cdf = NULL;
    ddnn_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK_REJECTED(ddnn_cdf_parse(&cdf, text, strlen(text), &diag), &diag, text, code, line, field);
    CHECK(cdf == NULL);
}

static void
rejects_malformed_cdfs(void)
{
    expect_error("", DDNN_ERR_EMPTY, 0, "");
    expect_error("0,0\n", DDNN_ERR_EMPTY, 1, "");
    expect_error("0,0\n10,0.6\n20,0.5\n30,1\n", DDNN_ERR_ORDER, 3, "cumulative_fraction");
    expect_error("0,0\n10,0.5\n5,0.6\n30,1\n", DDNN_ERR_ORDER, 3, "bytes");
    expect_error("0,0.1\n10,1\n", DDNN_ERR_RANGE, 1, "cumulative_fraction");
    expect_error("0,0\n10,0.9\n", DDNN_ERR_RANGE, 2, "cumulative_fraction");
    expect_error("0,0\n10,1.5\n", DDNN_ERR_RANGE, 2, "cumulative_fraction");
    expect_error("0,0\n-10,0.5\n20,1\n", DDNN_ERR_RANGE, 2, "bytes");
    expect_error("0,0\nten,0.5\n20,1\n", DDNN_ERR_SYNTAX, 2, "bytes");
    expect_error("0,0\n10,half\n20,1\n", DDNN_ERR_SYNTAX, 2, "cumulative_fraction");
    expect_error("0,0\n10\n", DDNN_ERR_SYNTAX, 2, "");
    expect_error("0,0\n0,1\n", DDNN_ERR_RANGE, 2, "bytes");
    /* Sizes a uint64_t byte count cannot hold, or no simulation could send. */
    expect_error("0,0\n1e20,1\n", DDNN_ERR_RANGE, 2, "bytes");
    expect_error("0,0\n10,0.5\n1e30,1\n", DDNN_ERR_RANGE, 3, "bytes");
    expect_error("0,0\n1000000000001,1\n", DDNN_ERR_RANGE, 2, "bytes");
}

static void
missing_file_is_an_io_error(void)
{
    ddnn_cdf* cdf = NULL;
    ddnn_diag diag;
    CHECK(ddnn_cdf_read_file(&cdf, "/nonexistent/cdf.csv", &diag) == DDNN_ERR_IO);
    CHECK(cdf == NULL);
}

/* Linear interpolation makes each segment uniform: mean = sum of midpoint x probability. */
static void
web_search_mean_is_1711250_bytes(void)
{
    char path[1024];
    ddnn_cdf* cdf = NULL;
    ddnn_diag diag;
    snprintf(path, sizeof path, "%s/web-search-cdf.csv", data_dir);
    CHECK(ddnn_cdf_read_file(&cdf, path, &diag) == DDNN_OK);
    if (!cdf)
        return;
    CHECK_U64(ddnn_cdf_point_count(cdf), 12);
    CHECK_NEAR(ddnn_cdf_mean(cdf), 1711250.0, 1e-3);
    ddnn_cdf_free(cdf);
}

static void
inverse_interpolates_linearly(void)
{
    const char* text = "0,0\n100,0.5\n100,0.75\n300,1\n";
    ddnn_cdf* cdf = NULL;
    ddnn_diag diag;
    CHECK(ddnn_cdf_parse(&cdf, text, strlen(text), &diag) == DDNN_OK);
    if (!cdf)
        return;
    CHECK_U64(ddnn_cdf_sample(cdf, 0.25), 50);
    CHECK_U64(ddnn_cdf_sample(cdf, 0.5), 100);
    CHECK_U64(ddnn_cdf_sample(cdf, 0.6), 100); /* a step: 25 % of flows are exactly 100 B */
    CHECK_U64(ddnn_cdf_sample(cdf, 0.875), 200);
    CHECK_U64(ddnn_cdf_sample(cdf, 1.0), 300);
    CHECK_U64(ddnn_cdf_sample(cdf, 0.0), 1); /* never a zero-byte flow */
    CHECK_NEAR(ddnn_cdf_mean(cdf), 50 * 0.5 + 100 * 0.25 + 200 * 0.25, 1e-9);
    ddnn_cdf_free(cdf);
}

/* Sampling at evenly spaced fractions reproduces the analytic mean. */
static void
sample_mean_matches_analytic_mean(void)
{
    char path[1024];
    ddnn_cdf* cdf = NULL;
    ddnn_diag diag;
    double sum = 0;
    const int n = 1000000;
    int i;
    snprintf(path, sizeof path, "%s/web-search-cdf.csv", data_dir);
    if (ddnn_cdf_read_file(&cdf, path, &diag) != DDNN_OK)
        return;
    for (i = 0; i < n; i++)
        sum += (double)ddnn_cdf_sample(cdf, (i + 0.5) / n);
    CHECK_NEAR(sum / n, ddnn_cdf_mean(cdf), ddnn_cdf_mean(cdf) * 1e-4);
    ddnn_cdf_free(cdf);
}

int
main(int argc, char** argv)
{
    if (argc > 1)
        data_dir = argv[1];
    RUN(rejects_malformed_cdfs);
    RUN(missing_file_is_an_io_error);
    RUN(web_search_mean_is_1711250_bytes);
    RUN(inverse_interpolates_linearly);
    RUN(sample_mean_matches_analytic_mean);
    return UNIT_REPORT();
}
