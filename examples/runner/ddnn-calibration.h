/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The calibration table (data/calibration.csv, written by ddnn-bench --calibrationOut): what
 * one run costs in CPU seconds per simulated second at one load, per transport profile. A
 * header row naming the columns (in any order) is required; '#' starts a comment line.
 */
#ifndef DDNN_CALIBRATION_H
#define DDNN_CALIBRATION_H

#include "ns3/ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

#define DDNN_CALIBRATION_COLUMNS  "profile,workers,rcp,flow_rate,cpu_s_per_sim_s"
/* Rows at most: the estimate's triangulation grows with their square. */
#define DDNN_CALIBRATION_MAX_ROWS 200

    typedef struct
    {
        char profile[32]; /* transport profile: tuned | thesis */
        uint32_t workers;
        double rcp;       /* R_cp_to_nw: the training load is 1/rcp */
        double flow_rate; /* background flows per second per server */
        double cpu_s_per_sim_s;
        long line;
    } ddnn_calibration_row;

    typedef struct
    {
        ddnn_calibration_row* rows;
        size_t count;
    } ddnn_calibration;

    /* Parses a table; diag names the line and field at fault. Free with ddnn_calibration_free. */
    int ddnn_calibration_parse(ddnn_calibration* out,
                               const char* text,
                               size_t len,
                               ddnn_diag* diag);
    void ddnn_calibration_free(ddnn_calibration* c);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_CALIBRATION_H */
