/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-array.h"

#include "ddnn-error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first allocation: small lists stay small, long ones double from here. */
#define FIRST_CAPACITY 16

int
ddnn_array_reserve(void* items, size_t* cap, size_t need, size_t item_size)
{
    if (need <= *cap)
        return DDNN_OK;
    size_t grown_cap = *cap > SIZE_MAX / 2 ? SIZE_MAX : *cap * 2;
    if (grown_cap < FIRST_CAPACITY)
        grown_cap = FIRST_CAPACITY;
    if (grown_cap < need)
        grown_cap = need;
    if (item_size == 0 || grown_cap > SIZE_MAX / item_size)
        return DDNN_ERR_NOMEM;
    /* The pointer is copied in and out as bytes: items may point to any object pointer type. */
    void* old;
    memcpy(&old, items, sizeof old);
    void* grown = realloc(old, grown_cap * item_size);
    if (!grown)
        return DDNN_ERR_NOMEM;
    memcpy(items, &grown, sizeof grown);
    *cap = grown_cap;
    return DDNN_OK;
}
