/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-flowgen.h"

#include <math.h>
#include <stdlib.h>

struct ddnn_flowgen
{
    ddnn_flowgen_config cfg;
    const ddnn_cdf* cdf;
    ddnn_uniform_fn uniform;
    void* ctx;
    double now_s; /* time of the last arrival, in seconds since start_ns */
    uint64_t next_id;
    int done;
};

int
ddnn_flowgen_new(ddnn_flowgen** out,
                 const ddnn_flowgen_config* cfg,
                 const ddnn_cdf* cdf,
                 ddnn_uniform_fn uniform,
                 void* ctx)
{
    ddnn_flowgen* g;
    if (!out || !cfg || !cdf || !uniform || cfg->servers < 2 || !(cfg->rate_per_server > 0)
        || !isfinite(cfg->rate_per_server) || cfg->stop_ns < cfg->start_ns)
        return DDNN_ERR_INVALID;
    g = calloc(1, sizeof *g);
    if (!g)
        return DDNN_ERR_NOMEM;
    g->cfg = *cfg;
    g->cdf = cdf;
    g->uniform = uniform;
    g->ctx = ctx;
    *out = g;
    return DDNN_OK;
}

void
ddnn_flowgen_free(ddnn_flowgen* g)
{
    free(g);
}

/* A uniform number in [0, n). */
static uint32_t
pick(ddnn_flowgen* g, uint32_t n)
{
    uint32_t k = (uint32_t)(g->uniform(g->ctx) * n);
    return k < n ? k : n - 1; /* guards a source that returns 1.0 */
}

int
ddnn_flowgen_next(ddnn_flowgen* g, ddnn_flow* flow)
{
    double rate = g->cfg.rate_per_server * g->cfg.servers;
    double start_ns;
    uint32_t src, dst;
    if (g->done)
        return 0;
    /* Exponential inter-arrival: -ln(1 - u) / rate; 1 - u is in (0, 1]. */
    g->now_s += -log(1.0 - g->uniform(g->ctx)) / rate;
    start_ns = (double)g->cfg.start_ns + g->now_s * 1e9;
    if (start_ns >= (double)g->cfg.stop_ns)
    {
        g->done = 1;
        return 0;
    }
    src = pick(g, g->cfg.servers);
    dst = pick(g, g->cfg.servers - 1); /* among the others: skip src */
    if (dst >= src)
        dst++;
    flow->id = g->next_id++;
    flow->src = src;
    flow->dst = dst;
    flow->bytes = ddnn_cdf_sample(g->cdf, g->uniform(g->ctx));
    flow->start_ns = (uint64_t)llround(start_ns);
    return 1;
}
