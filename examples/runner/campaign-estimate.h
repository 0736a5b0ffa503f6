/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CAMPAIGN_ESTIMATE_H
#define CAMPAIGN_ESTIMATE_H

#include "datacenter-run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * One row of a calibration table (data/calibration.csv, written by ddnn-bench
 * --calibrationOut): CPU seconds one run costs per simulated second at one load.
 */
struct CalibrationPoint
{
    std::string profile; //!< transport profile (tuned | thesis)
    uint32_t workers;
    double rcp;      //!< R_cp_to_nw: the training load is 1/rcp
    double flowRate; //!< background flows per second per server
    double cpuPerSimS;
};

/** The calibration table's header line. */
extern const char* const kCalibrationHeader;

/**
 * The largest calibration table ReadCalibration reads, in bytes (its rows are capped by the
 * C core's reader, DDNN_CALIBRATION_MAX_ROWS: a table of ddnn-bench holds tens of rows, and
 * the triangulation, made again for each run's estimate, grows with their square).
 */
constexpr size_t kCalibrationMaxBytes = 1024 * 1024;

/**
 * Reads a calibration table (the C core's reader, ddnn-calibration.h): a header naming
 * the columns of kCalibrationHeader, then one CalibrationPoint per line; lines starting
 * with '#' are comments. Throws
 * DdnnError naming the file and line at fault, or a profile with fewer than
 * three loads off one line (nothing to interpolate between).
 */
std::vector<CalibrationPoint> ReadCalibration(const std::string& path);

/** Writes a calibration table that ReadCalibration reads back. */
void WriteCalibration(const std::string& path,
                      const std::vector<CalibrationPoint>& points,
                      const std::string& comment);

/** What one run is expected to cost. */
struct RunEstimate
{
    double cpuS{0};           //!< CPU seconds for the whole run
    bool extrapolated{false}; //!< outside what the table measured
    std::string why;          //!< how, when extrapolated
};

/**
 * The cost of a run: per worker and simulated second, interpolated between
 * the profile's measured loads, times workers and durationS. The loads are
 * points in the plane (training load 1/rcp, log flow rate); the model is
 * linear over each triangle of their Delaunay triangulation, so it is exact at
 * every measured load and linear between them (on a full grid of loads, close
 * to bilinear). Outside the loads' convex hull, the plane of the
 * triangle holding the hull's nearest point is carried on to the run's load
 * (floored at a tenth of the cheapest load). The run is extrapolated when its
 * load lies outside the hull, or when it differs from the table in a way the
 * model ignores (data rate, ideal transport, a fabric, compute time given in
 * ms: then the table's lightest training load stands for it).
 */
RunEstimate EstimateRun(const std::vector<CalibrationPoint>& table, const Scenario& scenario);

/**
 * Wall seconds to run jobs of these costs in this order on `slots` cores, each
 * next job starting on the first core free (as ddnn-campaign does).
 */
double Makespan(const std::vector<double>& costs, uint64_t slots);

} // namespace ns3

#endif /* CAMPAIGN_ESTIMATE_H */
