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
    /** The packets' link crossings per simulated second of the table's scenario at this
     * load (CalibrationScenario, PacketLoad::PerSimS); set by ReadCalibration. */
    double crossingsPerSimS{0};
};

/**
 * The scenario a calibration row was measured on (ddnn-bench's cells): the thesis code's
 * default (data/scenarios/thesis-code-default.xml) with the row's transport profile,
 * workers, R_cp_to_nw and flow rate.
 */
Scenario CalibrationScenario(const std::string& profile,
                             uint32_t workers,
                             double rcp,
                             double flowRate);

/**
 * The packets a scenario puts on links, counted from first principles as link crossings
 * (a packet crossing a path of L links counts L): each payload byte sent over TCP is
 * 1/segment-size of a segment, with 1/delayed-ACK-count of an ACK back, over the path's
 * links (its longest path on a fabric). The background offers its flow rate times its mean
 * flow size per server; a job sends its collective's bytes (every rank's bytes_sent_by)
 * once per iteration, at best once per ideal iteration period (IdealIterationTime); the
 * ideal transport sends no packet. Retransmissions, slowed iterations and timers are not
 * counted: the calibration's cost per crossing holds them at the loads it measured.
 */
struct PacketLoad
{
    double backgroundPerS{0};                 //!< the background's crossings per second
    std::vector<double> trainingPerIteration; //!< job k's crossings per iteration
    std::vector<double> idealPeriodS;         //!< job k's ideal iteration period

    /** Crossings per simulated second with every job training. */
    double PerSimS() const;
    /** Job k's iterations in run `s`: from its start-s to the end, at most its iterations. */
    double IterationsOfRun(const Scenario& s, uint32_t k) const;
    /** Crossings over run `s`: the background all along, each job's IterationsOfRun. */
    double OfRun(const Scenario& s) const;
};

/** The PacketLoad of scenario `s`. */
PacketLoad PacketLoadOf(const Scenario& s);

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

/**
 * CPU seconds a run costs before its first event and after its last: reading its files,
 * building the network, writing its outputs (ddnn-datacenter at 1 simulated ms: 0.03 to
 * 0.04 s on the 2-core machine of doc/speed.rst), and the campaign's fork and wait.
 */
constexpr double kRunSetupCpuS = 0.05;

/**
 * CPU seconds of one worker's iteration beyond its packets: the training's own events
 * (compute, the collective's steps, the syncer, the records), what a run over the ideal
 * transport costs. seed-communication-patterns' MNIST MLP (16 workers on a ring, one
 * buffer): 26,592 worker-iterations in 1.6 CPU-s, 60 us each; its MobileNet: 3,392 in
 * 0.36 CPU-s, 90 us each.
 */
constexpr double kWorkerIterationCpuS = 75e-6;

/**
 * How much more a packet costs when a path loses a fraction p of them: 1 + this x p^2.
 * TCP's loss recovery walks its send buffer, and with the linux profile's 6 MiB buffers
 * that dominates. Fitted to seed-performance-evaluation's runs over 1 Gbit/s (per packet,
 * against the same run without loss): at 1 % per path 0.71 and 0.84 (fewer packets in
 * flight), at 10 % 4.3, 5.1 and 6.0.
 */
constexpr double kLossCostFactor = 400;

/** What one run is expected to cost. */
struct RunEstimate
{
    double cpuS{0};           //!< CPU seconds for the whole run (a precision's first stage)
    double worstCpuS{0};      //!< at most: with a precision, its max-cpu-s if above cpuS
    double crossings{0};      //!< the run's PacketLoad
    bool extrapolated{false}; //!< outside what the table measured
    std::string why;          //!< how, when extrapolated
};

/**
 * The cost of a run: a setup cost, a cost per worker and iteration (the training's own
 * events), and its link crossings (PacketLoad) times a cost per crossing. That cost is each
 * calibration row's CPU per simulated second over its crossings per simulated second, interpolated
 * between the profile's measured loads: the loads are points in the plane (training load 1/rcp, log
 * flow rate), the model is linear over each triangle of their Delaunay triangulation (exact at
 * every measured load; on a full grid of loads close to bilinear) and outside their convex hull
 * takes the value at the hull's nearest point. A compute time given in ms is priced at the table's
 * lightest training load; a profile not in the table at the costliest measured profile's
 * price. On links that lose packets each costs 1 + kLossCostFactor p^2 times as much, p the
 * path's loss (both server links, or one when only some servers are impaired). The run is
 * extrapolated when its load lies outside the hull, when its profile is not in the table, or
 * on a fabric.
 */
RunEstimate EstimateRun(const std::vector<CalibrationPoint>& table, const Scenario& scenario);

/**
 * Wall seconds to run jobs of these costs in this order on `slots` cores, each
 * next job starting on the first core free (as ddnn-campaign does).
 */
double Makespan(const std::vector<double>& costs, uint64_t slots);

} // namespace ns3

#endif /* CAMPAIGN_ESTIMATE_H */
