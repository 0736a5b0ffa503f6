/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-scenario-params.h"

#include "ns3/ddnn-transport-profile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row of ddnn-scenario-rows.def as a ddnn_param: JOB rows live in the first job. */
#define DDNN_MEMBER_OF_JOB(member)      jobs[0].member
#define DDNN_MEMBER_OF_SCENARIO(member) member
#define DDNN_ROW( \
    group, el, at, fl, type, unit, def, lo, hi, flags, form, choices, help, member, sets) \
    {el, \
     at, \
     fl, \
     type, \
     unit, \
     def, \
     lo, \
     hi, \
     ((flags)&DDNN_PARAM_MIN_EXCLUSIVE) != 0, \
     ((flags)&DDNN_PARAM_REQUIRED) != 0, \
     form, \
     choices, \
     help, \
     offsetof(ddnn_scenario, DDNN_MEMBER_OF_##group(member)), \
     sizeof(((ddnn_scenario*)0)->DDNN_MEMBER_OF_##group(member)), \
     sets},
#define DDNN_NUMBER(group, el, at, fl, type, unit, def, lo, hi, flags, help, member, sets) \
    DDNN_ROW(group, \
             el, \
             at, \
             fl, \
             DDNN_PARAM_##type, \
             unit, \
             def, \
             lo, \
             hi, \
             flags, \
             DDNN_TEXT_ANY, \
             NULL, \
             help, \
             member, \
             sets)
#define DDNN_BOOL(group, el, at, fl, def, help, member, sets) \
    DDNN_ROW(group, \
             el, \
             at, \
             fl, \
             DDNN_PARAM_BOOL, \
             "", \
             def, \
             0, \
             1, \
             0, \
             DDNN_TEXT_ANY, \
             NULL, \
             help, \
             member, \
             sets)
#define DDNN_TEXT(group, el, at, fl, size, form, def, choices, help, member, sets) \
    DDNN_ROW( \
        group, el, at, fl, DDNN_PARAM_TEXT, "", def, 0, 0, 0, form, choices, help, member, sets)

static ddnn_param params[] = {
#include "ddnn-scenario-rows.def"
};
#define PARAM_COUNT (sizeof params / sizeof params[0])

/* Sets every transport value of *s to profile `name`'s (ddnn-transport-profile.c). */
static int
apply_transport_profile(ddnn_scenario* s, const char* name)
{
    size_t i;
    if (!ddnn_transport_profile_value(name, "segment-size"))
        return DDNN_ERR_RANGE;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        const ddnn_param* p = &params[i];
        int rc;
        if (strcmp(p->element, "transport") != 0 || strcmp(p->attribute, "profile") == 0)
            continue;
        if ((rc = ddnn_scenario_set_param(
                 s, p, ddnn_transport_profile_value(name, p->attribute), NULL))
            != DDNN_OK)
            return rc;
    }
    return DDNN_OK;
}

const char*
ddnn_param_default(const ddnn_param* p)
{
    return p->default_value
               ? p->default_value
               : ddnn_transport_profile_value(DDNN_TRANSPORT_DEFAULT_PROFILE, p->attribute);
}

/* Choices a host set from its registries (ddnn_scenario_param_set_choices), by parameter. */
static char registered_choices[PARAM_COUNT][DDNN_PARAM_CHOICES_MAX];

static int is_choice(const char* choices, const char* word);

int
ddnn_scenario_param_set_choices(const char* name, const char* choices)
{
    const ddnn_param* p = ddnn_scenario_param_named(name);
    size_t i, len;
    if (p == NULL || p->type != DDNN_PARAM_TEXT || p->choices == NULL || choices == NULL)
    {
        return DDNN_ERR_MISSING;
    }
    len = strlen(choices);
    if (len == 0 || choices[0] == '|' || choices[len - 1] == '|' || strstr(choices, "||"))
    {
        return DDNN_ERR_SYNTAX;
    }
    if (len >= DDNN_PARAM_CHOICES_MAX)
    {
        return DDNN_ERR_TOO_LARGE;
    }
    for (const char* word = choices;; word += i + 1)
    {
        i = strcspn(word, "|");
        if (i >= p->size)
        {
            return DDNN_ERR_TOO_LARGE; /* a choice the value's field cannot hold */
        }
        if (word[i] == '\0')
        {
            break;
        }
    }
    if (!is_choice(choices, ddnn_param_default(p)))
    {
        return DDNN_ERR_RANGE; /* the default must stay a choice */
    }
    i = (size_t)(p - params);
    memcpy(registered_choices[i], choices, len + 1);
    params[i].choices = registered_choices[i];
    return DDNN_OK;
}

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

const ddnn_param*
ddnn_scenario_param_setting(const char* attribute)
{
    size_t i;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        if (params[i].sets && strcmp(attribute, params[i].sets) == 0)
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

/* Whether `text` is a decimal number as the documentation writes them: digits, a sign, a
 * point and an exponent; no hexadecimal ("0x10", "0x1p4"), no "inf" or "nan". */
static int
is_decimal(const char* text)
{
    size_t i;
    for (i = 0; text[i]; i++)
    {
        if (!isdigit((unsigned char)text[i]) && !strchr("+-.eE", text[i]))
        {
            return 0;
        }
    }
    return i > 0;
}

/* Nanoseconds per unit of a time parameter, 0 for the others. */
static double
ns_per_unit(const ddnn_param* p)
{
    if (strcmp(p->unit, "s") == 0)
    {
        return 1e9;
    }
    if (strcmp(p->unit, "ms") == 0)
    {
        return 1e6;
    }
    if (strcmp(p->unit, "us") == 0)
    {
        return 1e3;
    }
    return 0;
}

/* Whether `text` is valid UTF-8 without control characters: what an XML attribute can carry
 * (and a one-line message can echo). */
static int
is_clean_text(const char* text)
{
    const unsigned char* u = (const unsigned char*)text;
    while (*u)
    {
        static const unsigned long least[4] = {0, 0xa0, 0x800, 0x10000}; /* no overlong form */
        int more, i;
        unsigned long code;
        if (*u < 0x80)
        {
            if (*u < 0x20 || *u == 0x7f)
            {
                return 0;
            }
            u++;
            continue;
        }
        more = (*u & 0xe0) == 0xc0 ? 1 : (*u & 0xf0) == 0xe0 ? 2 : (*u & 0xf8) == 0xf0 ? 3 : 0;
        if (more == 0)
        {
            return 0;
        }
        code = *u & (0x3f >> more);
        for (i = 1; i <= more; i++)
        {
            if ((u[i] & 0xc0) != 0x80)
            {
                return 0;
            }
            code = code << 6 | (u[i] & 0x3f);
        }
        /* C1 controls (below U+00A0), surrogates, beyond U+10FFFF */
        if (code < least[more] || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
        {
            return 0;
        }
        u += more + 1;
    }
    return 1;
}

/* `text` as it may be echoed in a one-line message: at most about 60 bytes, cut between
 * characters, control characters (a newline would split the line) and the bytes of text
 * that is not UTF-8 as '?'. */
static void
printable(const char* text, char* out, size_t out_size)
{
    const int clean = is_clean_text(text);
    size_t i;
    for (i = 0; text[i] && i + 4 < out_size && (i < 60 || (text[i] & 0xc0) == 0x80); i++)
    {
        const unsigned char c = (unsigned char)text[i];
        out[i] = c < 0x20 || c == 0x7f || (c >= 0x80 && !clean) ? '?' : text[i];
    }
    snprintf(out + i, out_size - i, "%s", text[i] ? "..." : "");
}

/* Fills diag with "expected DESCRIPTION, got 'TEXT'" (and `why`, when not empty) and returns
 * code. */
static int
rejected_because(const ddnn_param* p, int code, const char* text, const char* why, ddnn_diag* diag)
{
    char expected[160];
    char shown[72];
    ddnn_param_describe(p, expected, sizeof expected);
    printable(text, shown, sizeof shown);
    return ddnn_diag_set(
        diag, code, 0, p->attribute, "expected %s, got '%s'%s", expected, shown, why);
}

static int
rejected(const ddnn_param* p, int code, const char* text, ddnn_diag* diag)
{
    return rejected_because(p, code, text, "", diag);
}

static int
in_range(const ddnn_param* p, double v)
{
    return (p->min_exclusive ? v > p->min : v >= p->min) && v <= p->max;
}

int
ddnn_param_is_per_job(const ddnn_param* p)
{
    return strcmp(p->element, "training") == 0;
}

/* Where parameter p of job `job` (0-based; ignored for the other elements) lives in *s. */
static size_t
offset_of(const ddnn_param* p, uint32_t job)
{
    return p->offset + (ddnn_param_is_per_job(p) ? job * sizeof(ddnn_scenario_job) : 0);
}

int
ddnn_scenario_set_param(ddnn_scenario* s, const ddnn_param* p, const char* text, ddnn_diag* diag)
{
    return ddnn_scenario_set_job_param(s, p, 0, text, diag);
}

int
ddnn_scenario_set_job_param(
    ddnn_scenario* s, const ddnn_param* p, uint32_t job, const char* text, ddnn_diag* diag)
{
    void* at;
    if (job >= DDNN_SCENARIO_MAX_JOBS)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             0,
                             p->attribute,
                             "job %u: at most %d training jobs",
                             job + 1,
                             DDNN_SCENARIO_MAX_JOBS);
    }
    at = (char*)s + offset_of(p, job);
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
            /* Compared as integers: through a double, 2^53 + 1 would pass a limit of 2^53. */
            if (errno == ERANGE || v < (unsigned long long)p->min || v > (unsigned long long)p->max)
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
            if (!is_decimal(text))
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            errno = 0;
            v = strtod(text, &end);
            if (end == text || *end || !isfinite(v))
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            if (!in_range(p, v))
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            /* A positive time below ns-3's step would become 0 ns: refused or 0 means else. */
            if (v > 0 && ns_per_unit(p) > 0 && v * ns_per_unit(p) < 1)
            {
                return rejected_because(p, DDNN_ERR_RANGE, text, ", below 1 ns", diag);
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
            if (!is_clean_text(text))
            {
                return rejected_because(p,
                                        DDNN_ERR_SYNTAX,
                                        text,
                                        ", which holds a control character or is not UTF-8",
                                        diag);
            }
            if (p->choices && !is_choice(p->choices, text))
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            memcpy(at, text, strlen(text) + 1);
            if (at == (void*)s->transport_profile)
            {
                return apply_transport_profile(s, text);
            }
            return DDNN_OK;
    }
    return ddnn_diag_set(diag, DDNN_ERR_INVALID, 0, p->attribute, "unknown parameter type");
}

int
ddnn_scenario_format_param(const ddnn_scenario* s, const ddnn_param* p, char* out, size_t out_size)
{
    return ddnn_scenario_format_job_param(s, p, 0, out, out_size);
}

int
ddnn_scenario_format_job_param(
    const ddnn_scenario* s, const ddnn_param* p, uint32_t job, char* out, size_t out_size)
{
    const void* at;
    if (job >= DDNN_SCENARIO_MAX_JOBS)
    {
        return DDNN_ERR_RANGE;
    }
    at = (const char*)s + offset_of(p, job);
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
    uint32_t job;
    if (s->job_count < 1 || s->job_count > DDNN_SCENARIO_MAX_JOBS)
    {
        if (bad)
        {
            *bad = ddnn_scenario_param_named("training.workers");
        }
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             0,
                             "training",
                             "expected 1 to %d training jobs, got %u",
                             DDNN_SCENARIO_MAX_JOBS,
                             s->job_count);
    }
    for (i = 0; i < PARAM_COUNT; i++)
    {
        const ddnn_param* p = &params[i];
        for (job = 0; job < (ddnn_param_is_per_job(p) ? s->job_count : 1); job++)
        {
            char text[DDNN_PATH_MAX + 32];
            ddnn_scenario copy = *s;
            int rc = ddnn_scenario_format_job_param(s, p, job, text, sizeof text);
            if (rc == DDNN_OK)
            {
                rc = ddnn_scenario_set_job_param(&copy, p, job, text, diag);
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
                if (job > 0 && diag)
                {
                    /* "job K: " before the message, which keeps what fits */
                    char prefix[24];
                    size_t k = (size_t)snprintf(prefix, sizeof prefix, "job %u: ", job + 1);
                    size_t n = strlen(diag->message);
                    if (n + k >= sizeof diag->message)
                    {
                        n = sizeof diag->message - k - 1;
                    }
                    memmove(diag->message + k, diag->message, n);
                    memcpy(diag->message, prefix, k);
                    diag->message[k + n] = '\0';
                }
                return rc;
            }
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
        (void)ddnn_scenario_set_param(s, &params[i], ddnn_param_default(&params[i]), NULL);
    }
    s->job_count = 1;
}

int
ddnn_scenario_param_address(const char* name, const ddnn_param** p, uint32_t* job)
{
    const char* open = strchr(name, '[');
    const char* dot = strchr(name, '.');
    char plain[128];
    *job = 0;
    if (open && dot && open < dot)
    {
        /* "training[K].attribute", K from 1 */
        char* end = NULL;
        unsigned long k;
        if (!isdigit((unsigned char)open[1]))
        {
            return DDNN_ERR_MISSING;
        }
        k = strtoul(open + 1, &end, 10);
        if (*end != ']' || end + 1 != dot || (size_t)(open - name) >= sizeof plain)
        {
            return DDNN_ERR_MISSING;
        }
        snprintf(plain, sizeof plain, "%.*s%s", (int)(open - name), name, dot);
        *p = ddnn_scenario_param_named(plain);
        if (!*p || !ddnn_param_is_per_job(*p))
        {
            return DDNN_ERR_MISSING;
        }
        if (k < 1 || k > DDNN_SCENARIO_MAX_JOBS)
        {
            return DDNN_ERR_RANGE;
        }
        *job = (uint32_t)(k - 1);
        return DDNN_OK;
    }
    *p = ddnn_scenario_param_named(name);
    return *p ? DDNN_OK : DDNN_ERR_MISSING;
}

const char*
ddnn_arg_value(const char* arg, const char* flag)
{
    size_t n = strlen(flag);
    if (arg[0] != '-')
    {
        return NULL;
    }
    while (*arg == '-')
    {
        arg++;
    }
    return strncmp(arg, flag, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* Sets parameter p from the last argument that gives it, if any. */
static int
apply_arg(ddnn_scenario* s, const ddnn_param* p, int argc, const char* const* argv, ddnn_diag* diag)
{
    int i;
    for (i = argc - 1; i > 0; i--)
    {
        const char* value = ddnn_arg_value(argv[i], p->flag);
        if (value)
        {
            return ddnn_scenario_set_param(s, p, value, diag);
        }
    }
    return DDNN_OK;
}

int
ddnn_scenario_apply_args(ddnn_scenario* s,
                         int argc,
                         const char* const* argv,
                         int (*accept)(const ddnn_param* p, void* ctx),
                         void* ctx,
                         const ddnn_param** bad,
                         ddnn_diag* diag)
{
    size_t i, pass;
    for (pass = 0; pass < 2; pass++)
    {
        for (i = 0; i < PARAM_COUNT; i++)
        {
            const ddnn_param* p = &params[i];
            int rc;
            /* The transport profile in the first pass, the others in the second. */
            if ((p->offset == offsetof(ddnn_scenario, transport_profile)) != (pass == 0)
                || (accept && !accept(p, ctx)))
            {
                continue;
            }
            if ((rc = apply_arg(s, p, argc, argv, diag)) != DDNN_OK)
            {
                if (bad)
                {
                    *bad = p;
                }
                return rc;
            }
        }
    }
    return DDNN_OK;
}

int
ddnn_scenario_set(ddnn_scenario* s, const char* name, const char* text)
{
    const ddnn_param* p;
    uint32_t job;
    int rc = ddnn_scenario_param_address(name, &p, &job);
    if (rc != DDNN_OK)
    {
        return rc;
    }
    if (job >= s->job_count)
    {
        return DDNN_ERR_RANGE;
    }
    return ddnn_scenario_set_job_param(s, p, job, text, NULL);
}

int
ddnn_scenario_set_ns3_default(ddnn_scenario* s,
                              const char* name,
                              const char* value,
                              ddnn_diag* diag)
{
    uint32_t i;
    char shown[72];
    printable(name, shown, sizeof shown);
    if (strncmp(name, "ns3::", 5) != 0 || !strstr(name + 5, "::") || !is_clean_text(name)
        || strlen(name) >= sizeof s->ns3_defaults[0].name)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             0,
                             "name",
                             "expected an ns-3 attribute such as ns3::TcpSocket::SegmentSize "
                             "(at most %zu characters), got '%s'",
                             sizeof s->ns3_defaults[0].name - 1,
                             shown);
    }
    if (!is_clean_text(value) || strlen(value) >= sizeof s->ns3_defaults[0].value)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             0,
                             "value",
                             "%s: expected text of at most %zu characters without control "
                             "characters",
                             shown,
                             sizeof s->ns3_defaults[0].value - 1);
    }
    for (i = 0; i < s->ns3_default_count && strcmp(s->ns3_defaults[i].name, name) != 0; i++)
    {
    }
    if (i == DDNN_SCENARIO_MAX_NS3_DEFAULTS)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_TOO_LARGE,
                             0,
                             "name",
                             "%s: more than %d ns-3 attribute defaults",
                             shown,
                             DDNN_SCENARIO_MAX_NS3_DEFAULTS);
    }
    snprintf(s->ns3_defaults[i].name, sizeof s->ns3_defaults[i].name, "%s", name);
    snprintf(s->ns3_defaults[i].value, sizeof s->ns3_defaults[i].value, "%s", value);
    s->ns3_default_count += i == s->ns3_default_count;
    return DDNN_OK;
}
