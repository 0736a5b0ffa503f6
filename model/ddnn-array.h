/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Growing arrays of the C core: one rule for every list read from a file or kept by a state
 * machine (double the capacity, refuse a size that would wrap), instead of a realloc at each site.
 */
#ifndef DDNN_ARRAY_H
#define DDNN_ARRAY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

    /*
     * Makes the array at *items (of *cap items of item_size bytes) hold at least `need` items:
     * unchanged when it does, otherwise reallocated to the larger of twice *cap, 16 and `need`.
     * items points to the array's pointer (of any object type). Returns DDNN_OK, or
     * DDNN_ERR_NOMEM (the array and *cap untouched) when the memory is not there or the size
     * would not fit a size_t.
     */
    int ddnn_array_reserve(void* items, size_t* cap, size_t need, size_t item_size);

/* ddnn_array_reserve for an array pointer `items` and its size_t capacity `cap`. */
#define DDNN_ARRAY_RESERVE(items, cap, need) \
    ddnn_array_reserve(&(items), &(cap), (need), sizeof *(items))

#ifdef __cplusplus
}
#endif

#endif /* DDNN_ARRAY_H */
