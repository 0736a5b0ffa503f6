/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the growing arrays: capacities, contents kept, sizes that would wrap refused. */
#include "ddnn-array.h"
#include "ddnn-error.h"
#include "ddnn-unit.h"

#include <stdint.h>
#include <stdlib.h>

static void
grows_by_doubling_from_sixteen(void)
{
    uint64_t* items = NULL;
    size_t cap = 0;
    CHECK(DDNN_ARRAY_RESERVE(items, cap, 1) == DDNN_OK);
    CHECK_U64(cap, 16);
    for (size_t i = 0; i < 16; i++)
        items[i] = i * 3;
    CHECK(DDNN_ARRAY_RESERVE(items, cap, 16) == DDNN_OK);
    CHECK_U64(cap, 16);
    CHECK(DDNN_ARRAY_RESERVE(items, cap, 17) == DDNN_OK);
    CHECK_U64(cap, 32);
    CHECK(DDNN_ARRAY_RESERVE(items, cap, 100) == DDNN_OK);
    CHECK_U64(cap, 100);
    for (size_t i = 0; i < 16; i++)
        CHECK_U64(items[i], i * 3);
    free(items);
}

static void
refuses_sizes_that_wrap(void)
{
    uint64_t* items = NULL;
    size_t cap = 0;
    CHECK(DDNN_ARRAY_RESERVE(items, cap, 4) == DDNN_OK);
    uint64_t* before = items;
    CHECK(DDNN_ARRAY_RESERVE(items, cap, SIZE_MAX / 4) == DDNN_ERR_NOMEM);
    CHECK(items == before);
    CHECK_U64(cap, 16);
    CHECK(ddnn_array_reserve(&items, &cap, 17, 0) == DDNN_ERR_NOMEM);
    CHECK_U64(cap, 16);
    free(items);
}

int
main(void)
{
    RUN(grows_by_doubling_from_sixteen);
    RUN(refuses_sizes_that_wrap);
    return UNIT_REPORT();
}
