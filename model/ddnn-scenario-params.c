/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-scenario-params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(el, at, fl, ty, unit, def, lo, hi, lo_excl, choices, help, member) \
    { \
        el, at, fl, ty, unit, def, lo, hi, lo_excl, choices, help, offsetof(ddnn_scenario, member), \
            sizeof(((ddnn_scenario*)0)->member) \
    }
#define NUM(el, at, fl, ty, unit, def, lo, hi, lo_excl, help, member) \
    PARAM(el, at, fl, ty, unit, def, lo, hi, lo_excl, NULL, help, member)
#define TEXT(el, at, fl, def, choices, help, member) \
    PARAM(el, at, fl, DDNN_PARAM_TEXT, "", def, 0, 0, 0, choices, help, member)

/*
 * In document order (the writer emits elements in this order). Defaults are the thesis's
 * (Tables 5.1 and 5.2). Upper bounds keep every run within what ns-3's signed 64-bit
 * nanoseconds and this machine's memory can hold; the run's total size (flows, bins) is
 * checked by the host from these.
 */
static const ddnn_param params[] = {
    NUM("topology", "workers", "workers", DDNN_PARAM_U32, "", "8", 2, 250, 0,
        "number of servers, each a worker of the training job", workers),
    TEXT("topology", "data-rate", "dataRate", "10Gbps", NULL,
         "link rate, e.g. 10Gbps", data_rate),
    NUM("topology", "delay-us", "delayUs", DDNN_PARAM_DOUBLE, "us", "10", 0, 1e6, 0,
        "link propagation delay", delay_us),
    TEXT("training", "profile", "profile", "thesis-default-profile.csv", NULL,
         "DNN profile CSV (layer,param_bytes,forward_ns,backward_ns)", profile),
    NUM("training", "fusion-bytes", "fusionBytes", DDNN_PARAM_U64, "bytes", "5333329", 1,
        9007199254740992.0, 0, "largest fusion buffer", fusion_bytes),
    NUM("training", "compute-ms", "computeMs", DDNN_PARAM_DOUBLE, "ms", "0", 0, 1e9, 0,
        "compute time per iteration; 0: from rcp", compute_ms),
    NUM("training", "rcp", "rcp", DDNN_PARAM_DOUBLE, "", "16", 0, 1e6, 0,
        "compute-to-network ratio R_cp_to_nw (thesis eq. 5.1), sets the compute time when "
        "computeMs is 0",
        rcp),
    TEXT("training", "queue", "queue", "fifo", "fifo|priority",
         "transmission queue of ready buffers", queue),
    PARAM("training", "barrier", "barrier", DDNN_PARAM_BOOL, "", "true", 0, 1, 0, NULL,
          "inter-iteration barrier", barrier),
    TEXT("training", "transport", "transport", "tcp", "tcp|ideal",
         "tcp (packets) or ideal (analytic)", transport),
    NUM("training", "iterations", "iterations", DDNN_PARAM_U32, "", "0", 0, 1e6, 0,
        "iterations to train; 0: until the end of the run", iterations),
    NUM("training", "stall-timeout-ms", "stallTimeoutMs", DDNN_PARAM_DOUBLE, "ms", "1000", 0,
        1e9, 1, "end the run when nothing progresses this long", stall_timeout_ms),
    NUM("training", "tos", "tos", DDNN_PARAM_U32, "", "16", 0, 255, 0,
        "IP ToS of the training sockets: 16 (0x10) PfifoFast band 0, 0 band 1, 8 (0x08) band "
        "2; ddnn-datacenter sets it from the priority",
        tos),
    NUM("training", "stop-s", "stopS", DDNN_PARAM_DOUBLE, "s", "0", 0, 1e5, 0,
        "no iteration starts after this time; 0: no limit", stop_s),
    NUM("background", "flow-rate", "flowRate", DDNN_PARAM_DOUBLE, "flows/s per server", "23", 0,
        1e5, 1, "background flow arrivals", flow_rate),
    TEXT("background", "cdf", "cdf", "web-search-cdf.csv", NULL,
         "flow-size CDF (bytes,cumulative_fraction)", cdf),
    TEXT("background", "schedule", "schedule", "", NULL,
         "flow schedule CSV to replay (flow_id,from,to,size_bytes,start_ns); empty: generate",
         schedule),
    TEXT("priority", "training", "trainingPriority", "low", "same|low|high",
         "same (both band 0), low (training band 2) or high (background band 1)",
         training_priority),
    NUM("run", "duration-s", "durationS", DDNN_PARAM_DOUBLE, "s", "12", 0, 1e5, 1,
        "simulated time", duration_s),
    NUM("run", "warmup-s", "warmupS", DDNN_PARAM_DOUBLE, "s", "2", 0, 1e5, 0,
        "flows starting earlier are not measured", warmup_s),
    NUM("run", "cooldown-s", "cooldownS", DDNN_PARAM_DOUBLE, "s", "2", 0, 1e5, 0,
        "flows starting in the last cooldownS are not measured", cooldown_s),
    NUM("run", "seed", "seed", DDNN_PARAM_U32, "", "1", 1, 4294967295.0, 0, "random seed", seed),
    NUM("output", "util-interval-ms", "utilIntervalMs", DDNN_PARAM_DOUBLE, "ms", "10", 0.01, 1e6,
        0, "bin of utilization.csv", util_interval_ms),
};
#define PARAM_COUNT (sizeof params / sizeof params[0])

size_t
ddnn_scenario_param_count(void)
{
    return PARAM_COUNT;
}

const ddnn_param*
ddnn_scenario_param(size_t i)
{
    return i < PARAM_COUNT ? &params[i] : NULL;
}

const ddnn_param*
ddnn_scenario_param_named(const char* name)
{
    size_t i, n;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        n = strlen(params[i].element);
        if (strncmp(name, params[i].element, n) == 0 && name[n] == '.'
            && strcmp(name + n + 1, params[i].attribute) == 0)
        {
            return &params[i];
        }
    }
    return NULL;
}

const ddnn_param*
ddnn_scenario_param_by_flag(const char* flag)
{
    size_t i;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        if (strcmp(flag, params[i].flag) == 0)
        {
            return &params[i];
        }
    }
    return NULL;
}

/* Whether `word` is one of the '|'-separated choices. */
static int
is_choice(const char* choices, const char* word)
{
    size_t n = strlen(word);
    const char* at = choices;
    while (at && *at)
    {
        const char* bar = strchr(at, '|');
        size_t len = bar ? (size_t)(bar - at) : strlen(at);
        if (len == n && strncmp(at, word, n) == 0)
        {
            return 1;
        }
        at = bar ? bar + 1 : NULL;
    }
    return 0;
}

void
ddnn_param_describe(const ddnn_param* p, char* out, size_t out_size)
{
    char unit[48] = "";
    if (p->unit[0])
    {
        snprintf(unit, sizeof unit, " (%s)", p->unit);
    }
    switch (p->type)
    {
        case DDNN_PARAM_U32:
        case DDNN_PARAM_U64:
            snprintf(out, out_size, "a whole number in [%.0f, %.0f]%s", p->min, p->max, unit);
            return;
        case DDNN_PARAM_DOUBLE:
            snprintf(out,
                     out_size,
                     "a number in %c%g, %g]%s",
                     p->min_exclusive ? '(' : '[',
                     p->min,
                     p->max,
                     unit);
            return;
        case DDNN_PARAM_BOOL:
            snprintf(out, out_size, "true or false");
            return;
        case DDNN_PARAM_TEXT:
            if (p->choices)
            {
                char list[96];
                size_t i, j = 0;
                for (i = 0; p->choices[i] && j + 5 < sizeof list; i++)
                {
                    if (p->choices[i] == '|')
                    {
                        j += (size_t)snprintf(list + j, sizeof list - j, ", ");
                    }
                    else
                    {
                        list[j++] = p->choices[i];
                    }
                }
                list[j] = '\0';
                snprintf(out, out_size, "one of %s", list);
            }
            else
            {
                snprintf(out, out_size, "text of at most %zu characters", p->size - 1);
            }
            return;
    }
    snprintf(out, out_size, "a value");
}

/* Fills diag with "expected DESCRIPTION, got 'TEXT'" and returns code. */
static int
rejected(const ddnn_param* p, int code, const char* text, ddnn_diag* diag)
{
    char expected[160];
    ddnn_param_describe(p, expected, sizeof expected);
    return ddnn_diag_set(
        diag, code, 0, p->attribute, "expected %s, got '%.60s%s'", expected, text,
        strlen(text) > 60 ? "..." : "");
}

static int
in_range(const ddnn_param* p, double v)
{
    return (p->min_exclusive ? v > p->min : v >= p->min) && v <= p->max;
}

int
ddnn_scenario_set_param(ddnn_scenario* s, const ddnn_param* p, const char* text, ddnn_diag* diag)
{
    void* at = (char*)s + p->offset;
    char* end = NULL;
    switch (p->type)
    {
        case DDNN_PARAM_U32:
        case DDNN_PARAM_U64: {
            unsigned long long v;
            size_t i;
            /* Digits only: strtoull would take "-1" as 2^64 - 1. */
            for (i = 0; text[i]; i++)
            {
                if (!isdigit((unsigned char)text[i]))
                {
                    return rejected(p, DDNN_ERR_SYNTAX, text, diag);
                }
            }
            if (i == 0)
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            errno = 0;
            v = strtoull(text, &end, 10);
            if (errno == ERANGE || !in_range(p, (double)v))
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            if (p->type == DDNN_PARAM_U32)
            {
                *(uint32_t*)at = (uint32_t)v;
            }
            else
            {
                *(uint64_t*)at = (uint64_t)v;
            }
            return DDNN_OK;
        }
        case DDNN_PARAM_DOUBLE: {
            double v;
            errno = 0;
            v = strtod(text, &end);
            if (end == text || *end || isspace((unsigned char)text[0]) || !isfinite(v))
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            if (!in_range(p, v))
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            *(double*)at = v;
            return DDNN_OK;
        }
        case DDNN_PARAM_BOOL:
            if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
            {
                *(int*)at = 1;
            }
            else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
            {
                *(int*)at = 0;
            }
            else
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            return DDNN_OK;
        case DDNN_PARAM_TEXT:
            if (strlen(text) >= p->size)
            {
                return rejected(p, DDNN_ERR_TOO_LARGE, text, diag);
            }
            if (p->choices && !is_choice(p->choices, text))
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            memcpy(at, text, strlen(text) + 1);
            return DDNN_OK;
    }
    return ddnn_diag_set(diag, DDNN_ERR_INVALID, 0, p->attribute, "unknown parameter type");
}

int
ddnn_scenario_format_param(const ddnn_scenario* s, const ddnn_param* p, char* out, size_t out_size)
{
    const void* at = (const char*)s + p->offset;
    int n = 0;
    switch (p->type)
    {
        case DDNN_PARAM_U32:
            n = snprintf(out, out_size, "%u", (unsigned)*(const uint32_t*)at);
            break;
        case DDNN_PARAM_U64:
            n = snprintf(out, out_size, "%llu", (unsigned long long)*(const uint64_t*)at);
            break;
        case DDNN_PARAM_DOUBLE:
            n = snprintf(out, out_size, "%.17g", *(const double*)at); /* round-trips exactly */
            break;
        case DDNN_PARAM_BOOL:
            n = snprintf(out, out_size, "%s", *(const int*)at ? "true" : "false");
            break;
        case DDNN_PARAM_TEXT:
            n = snprintf(out, out_size, "%s", (const char*)at);
            break;
    }
    return n >= 0 && (size_t)n < out_size ? DDNN_OK : DDNN_ERR_TOO_LARGE;
}

int
ddnn_scenario_check(const ddnn_scenario* s, const ddnn_param** bad, ddnn_diag* diag)
{
    size_t i;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        const ddnn_param* p = &params[i];
        char text[DDNN_PATH_MAX + 32];
        ddnn_scenario copy = *s;
        int rc = ddnn_scenario_format_param(s, p, text, sizeof text);
        if (rc == DDNN_OK)
        {
            rc = ddnn_scenario_set_param(&copy, p, text, diag);
        }
        else
        {
            rc = ddnn_diag_set(diag, rc, 0, p->attribute, "value too long");
        }
        if (rc != DDNN_OK)
        {
            if (bad)
            {
                *bad = p;
            }
            return rc;
        }
    }
    return DDNN_OK;
}

void
ddnn_scenario_defaults(ddnn_scenario* s)
{
    size_t i;
    memset(s, 0, sizeof *s);
    for (i = 0; i < PARAM_COUNT; i++)
    {
        /* The table's defaults are in range by construction (unit-tested). */
        (void)ddnn_scenario_set_param(s, &params[i], params[i].default_value, NULL);
    }
}

int
ddnn_scenario_set(ddnn_scenario* s, const char* name, const char* text)
{
    const ddnn_param* p = ddnn_scenario_param_named(name);
    return p ? ddnn_scenario_set_param(s, p, text, NULL) : DDNN_ERR_MISSING;
}
