/* SPDX-License-Identifier: GPL-2.0-only */
/* A very small unit-test harness for the C core: no ns-3, no dependencies. */
#ifndef DDNN_UNIT_H
#define DDNN_UNIT_H

#include "ddnn-error.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int unit_checks_failed;
static int unit_cases_passed;
static int unit_cases_failed;

#define CHECK(cond) \
    do \
    { \
        if (!(cond)) \
        { \
            unit_checks_failed++; \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        } \
    } while (0)

#define CHECK_U64(actual, expected) \
    do \
    { \
        uint64_t a_ = (uint64_t)(actual), e_ = (uint64_t)(expected); \
        if (a_ != e_) \
        { \
            unit_checks_failed++; \
            fprintf(stderr, \
                    "%s:%d: %s is %" PRIu64 ", expected %" PRIu64 "\n", \
                    __FILE__, \
                    __LINE__, \
                    #actual, \
                    a_, \
                    e_); \
        } \
    } while (0)

#define CHECK_NEAR(actual, expected, tolerance) \
    do \
    { \
        double a_ = (actual), e_ = (expected); \
        if (!(a_ >= e_ - (tolerance) && a_ <= e_ + (tolerance))) \
        { \
            unit_checks_failed++; \
            fprintf(stderr, \
                    "%s:%d: %s is %.9g, expected %.9g +- %g\n", \
                    __FILE__, \
                    __LINE__, \
                    #actual, \
                    a_, \
                    e_, \
                    (double)(tolerance)); \
        } \
    } while (0)

#define CHECK_STR_CONTAINS(haystack, needle) \
    do \
    { \
        if (!strstr((haystack), (needle))) \
        { \
            unit_checks_failed++; \
            fprintf(stderr, \
                    "%s:%d: '%s' does not contain '%s'\n", \
                    __FILE__, \
                    __LINE__, \
                    (haystack), \
                    (needle)); \
        } \
    } while (0)

/* Checks that a reader rejected `input` with `code`, naming `line` and `field`, with a message. */
#define CHECK_REJECTED(rc, diag, input, code, line, field) \
    do \
    { \
        int rc_ = (rc); \
        const ddnn_diag* d_ = (diag); \
        if (rc_ != (code) || d_->line != (line) || strcmp(d_->field, (field)) != 0 \
            || d_->message[0] == '\0') \
        { \
            unit_checks_failed++; \
            fprintf(stderr, \
                    "%s:%d: input '%s': got rc=%d line=%ld field='%s' message='%s', expected " \
                    "rc=%d line=%ld field='%s'\n", \
                    __FILE__, \
                    __LINE__, \
                    (input), \
                    rc_, \
                    d_->line, \
                    d_->field, \
                    d_->message, \
                    (code), \
                    (long)(line), \
                    (field)); \
        } \
    } while (0)

/* Runs one test case and counts it as passed when none of its checks failed. */
#define RUN(test) \
    do \
    { \
        int before_ = unit_checks_failed; \
        test(); \
        if (unit_checks_failed == before_) \
            unit_cases_passed++; \
        else \
        { \
            unit_cases_failed++; \
            fprintf(stderr, "FAIL %s\n", #test); \
        } \
    } while (0)

/* The closing line ctest logs and CI reads: "N passed, N failed". */
#define UNIT_REPORT() \
    (printf("%d passed, %d failed\n", unit_cases_passed, unit_cases_failed), unit_cases_failed != 0)

#endif /* DDNN_UNIT_H */
