/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_DATACENTER_RUN_H
#define DDNN_RUNNER_DATACENTER_RUN_H

#include "progress-meter.h"
#include "training-run.h"

#include "ns3/background-helper.h"
#include "ns3/ddnn-flow-stats.h"
#include "ns3/ddnn-flowgen.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/** What one training job of a run measured. */
struct JobResult
{
    TrainingSummary training;
    std::vector<uint64_t> trainingBytesReceived; //!< per worker, from its peers
    double utilTrainingExpected{0};              //!< eq. 5.2, compute-bound
    uint32_t batchSize{0}; //!< samples per worker per iteration (0: not given)
    //! mean over the job's servers' uplinks of their training wire bytes (every job's, where
    //! jobs share a server)
    double utilTrainingMeasured{0};
};

/** Samples trained per second: batch x workers over the mean iteration; NaN without a batch. */
double SamplesPerSecond(uint32_t batchSize, const TrainingSummary& training);

/** What one run measured. */
struct DatacenterResult
{
    std::vector<JobResult> jobs; //!< the training jobs, in the scenario's order
    std::array<ddnn_flow_class_stats, DDNN_FLOW_CLASSES> fct{};
    //! the flows that started in the window, by id (a comparison pairs them across runs)
    std::vector<std::pair<uint64_t, ddnn_flow_result>> measuredFlows;
    uint64_t flowsScheduled{0};
    uint64_t backgroundBytesReceived{0}; //!< by all sinks
    double utilBackgroundExpected{0};    //!< eq. 5.3 with the CDF's mean
    double utilBackgroundMeasured{0};
    //! the servers' mean uplink use per whole utilization bin of the window, by tenant
    std::vector<double> uplinkTrainingSeries, uplinkBackgroundSeries;
    /** Per server: {uplink training, uplink background, downlink training, downlink background} */
    std::vector<std::array<double, 4>> linkUtilization;
    /** Per tier of a fabric's switch links ("leaf_spine_up", ...): {training, background}. */
    std::vector<std::pair<std::string, std::array<double, 2>>> tierUtilization;
    /** Per band of the egress queue discs, within the window (QueueMeter). */
    struct Bands
    {
        bool classified{false};                        //!< false: per-band counts unknown (NA)
        std::vector<uint64_t> drops;                   //!< packets dropped
        std::vector<uint64_t> maxBacklogBytes;         //!< largest backlog of one disc's band
        std::vector<std::vector<int64_t>> dropTimesNs; //!< per band: when, in order
    };
    Bands serverBands;                     //!< the servers' uplinks
    Bands switchBands;                     //!< every switch egress
    std::vector<uint64_t> retransmissions; //!< TCP data segments the servers sent again
    std::vector<std::vector<int64_t>> retransmissionTimesNs; //!< per band: when, in order
    std::vector<std::vector<int64_t>> timeoutTimesNs; //!< per band: the servers' TCP timeouts
    std::vector<std::string> bandTenants; //!< per band of the servers: "training", ... or ""
    double minRtoMs{0};                   //!< the TCP minimum retransmission timeout in force
    bool linkLosses{false}; //!< links lose packets (loss-rate): drops the bands do not count
    double scale{1};        //!< a scaled replica's factor (scaled-replica.h); 1: full scale
    //! packets the servers' uplinks sent in the window: training's, the background's
    std::array<uint64_t, 2> uplinkPackets{};
    double confidenceLevel{0.95}; //!< the scenario's: of every interval reported
    uint32_t minIterations{0};    //!< the scenario's: fewer measured iterations are flagged
    uint32_t minFlows{0};         //!< the scenario's: fewer completed flows in a class are flagged
    double windowS{0};            //!< the measurement window's length
    double utilIntervalS{0};      //!< the utilization bins' length
};

/**
 * The background tenant's helper of the scenario: its table attributes (flow rate, CDF,
 * schedule), sending from 0 to duration-s at the priority the training priority gives it, flows
 * measured in the window.
 */
Ptr<BackgroundHelper> CreateBackgroundHelper(const Scenario& scenario);

/**
 * Sets what the scenario says of the installed background tenant: its table rows' attributes
 * (bulk priority), its transport's chunk, ACK band and congestion control, its slack tags and,
 * in a distributed run, source ports that name the flow.
 */
void ConfigureBackgroundTenant(const Scenario& scenario, Ptr<BackgroundTenant> tenant);

/** The background flows of the scenario (generated with its seed, or read from --schedule). */
std::vector<ddnn_flow> MakeBackgroundFlows(const Scenario& scenario);

/**
 * Training jobs and the background tenant together on the scenario's network (single ToR,
 * leaf-spine or fat-tree; every server a background endpoint): runs both tenants for
 * duration-s with the given flows at the scenario's training priority (a TenantPriority
 * name: same, low, high; it sets both tenants' ToS: same: both 0x10 (band 0); low: background
 * 0x10, training 0x08 (band 2); high: training 0x10, background 0x00 (band 1));
 * when outDir is not empty writes the training CSVs, flows.csv and
 * utilization.csv there (summary.csv is the caller's, see SummaryRows).
 */
DatacenterResult RunDatacenter(const Scenario& scenario,
                               const std::vector<ddnn_flow>& flows,
                               const std::string& outDir,
                               const std::string& progressLabel = "",
                               uint32_t runsAfter = 0);

/**
 * The progress meter's cost model of a run (ProgressMeter): the expected wire load summed
 * over the servers' uplinks, background from the start (eq. 5.3), each job's from its start
 * plus its forward compute on (before, no gradient exists), at its ideal iteration time's
 * rate (eq. 5.2, capped at the link), plus 1 % of the links for events that carry no
 * packet.
 */
std::vector<ProgressMeter::Phase> CostPhases(const Scenario& scenario,
                                             double backgroundLoadPerServer);

/**
 * A figure as written to summary.csv and compare.csv (`digits` significant digits; fewer for
 * a table people read): NA when it has no sample (NaN).
 */
std::string FormatFigure(double value, int digits = 12);

/** What job k's (from 0) output names start with: "" for the first job, "job2" + separator for
 * the second, ... */
std::string JobPrefix(size_t job, const std::string& separator);

/** summary.csv rows of a run: the training figures, FCT by class and utilizations. */
std::vector<std::pair<std::string, std::string>> SummaryRows(const DatacenterResult& result);

} // namespace ns3

#endif /* DDNN_RUNNER_DATACENTER_RUN_H */
