/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-precision.h"

#include <math.h>

int
ddnn_precision_next(const ddnn_interval* intervals,
                    size_t count,
                    double target,
                    double max_growth,
                    ddnn_precision_step* step,
                    double* growth)
{
    double need = 1;
    size_t i;
    if (!intervals || count == 0 || !step || !growth || !(target > 0) || !(max_growth >= 0))
        return DDNN_ERR_INVALID;
    for (i = 0; i < count; i++)
    {
        const ddnn_interval* one = &intervals[i];
        double factor = isnan(one->low) || isnan(one->high)
                            ? DDNN_PRECISION_BLIND_GROWTH
                            : ddnn_samples_factor(one, target) * DDNN_PRECISION_MARGIN;
        if ((one->high - one->low) / 2 <= target)
            factor = 1; /* this one is within the target already */
        if (factor > need)
            need = factor;
    }
    *growth = 1;
    if (need <= 1)
    {
        *step = DDNN_PRECISION_REACHED;
        return DDNN_OK;
    }
    if (need < DDNN_PRECISION_MIN_GROWTH)
        need = DDNN_PRECISION_MIN_GROWTH;
    if (max_growth < DDNN_PRECISION_MIN_GROWTH)
    {
        *step = DDNN_PRECISION_CAPPED;
        return DDNN_OK;
    }
    *step = DDNN_PRECISION_GROW;
    *growth = need < max_growth ? need : max_growth;
    return DDNN_OK;
}
