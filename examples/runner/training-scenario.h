/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_SCENARIO_H
#define TRAINING_SCENARIO_H

#include "ns3-defaults.h"
#include "ns3/training-recorder.h"
#include "ns3/transport-settings.h"

#include "ns3/server-topology.h"

#include "ns3/command-line.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The parameters of one training job (a <training> element of a scenario file).
 */
struct TrainingJobParameters
{
    // Defaults, ranges and help in model/ddnn-scenario-params.c.
    uint32_t jobWorkers; //!< 0 = the scenario's workers
    std::string profile;
    uint64_t fusionBytes;
    double computeMs;  //!< compute time per iteration; 0 = from rcp
    double rcp;        //!< compute-to-network ratio (thesis eq. 5.1); 0 = use computeMs
    std::string queue; //!< fifo | priority
    bool barrier;
    std::string transport;            //!< tcp | ideal
    std::string collective;           //!< ring-allreduce | parameter-server
    uint32_t parameterServers;        //!< parameter-server: P servers
    std::string parameterServerHosts; //!< co-located (workers 0..P-1) | dedicated
    uint32_t highPriorityBuffers;     //!< lowest-layer buffers at ToS 0x10 (FirstBuffersPriority)
    std::string stragglers;           //!< ranks computing stragglerScale x as long ("0,3")
    double stragglerScale;
    std::string jitter;    //!< ns-3 random variable: relative compute change per iteration
    std::string placement; //!< packed | spread | "0,5,9"
    double startS;         //!< when the first iteration starts
    uint32_t iterations;   //!< 0 = until stopS
    double stallTimeoutMs;
    uint32_t tos;
    std::string band; //!< ddnn-datacenter: scenario (from the priority), or the egress band
    double stopS;     //!< no iteration starts at or after it; 0 = no limit
};

/**
 * \ingroup ddnn
 * \brief The command-line parameters of a training run: the network, and its training jobs
 * (the first one's parameters are this object's own, so that one-job code reads
 * scenario.rcp; a scenario file's further <training> elements are moreJobs), shared by the
 * example programs, and a function that runs it.
 */
struct TrainingScenario : public TrainingJobParameters
{
    // The scenario parameters: defaults, ranges and help in model/ddnn-scenario-params.c.
    uint32_t workers; //!< servers of a single ToR; the workers of a job that gives none
    std::string dataRate;
    double delayUs;
    double lossRate;              //!< impairments of the impaired servers' links: loss each way,
    double addedDelayUs;          //!< added delay each way,
    std::string rateCap;          //!< rate cap ("" none),
    std::string impairedServers;  //!< which servers ("0,3"; "" every one)
    std::string queueDisc;        //!< pfifo-fast | prio-red
    uint32_t ecnThresholdPackets; //!< prio-red: DCTCP's K
    std::string topologyKind;     //!< single-tor | leaf-spine | fat-tree
    uint32_t leaves;              //!< leaf-spine: racks,
    uint32_t serversPerLeaf;      //!< servers per rack,
    uint32_t spines;              //!< spines
    uint32_t fatTreeK;            //!< fat-tree: radix
    std::string fabricDataRate;   //!< switch-to-switch rate; "" = dataRate
    uint32_t seed;
    uint64_t rngRun{1};                  //!< ns-3's run number (RngRun) beside the seed
    Ns3Defaults ns3Defaults;             //!< ns-3 attribute defaults the run sets, recorded with it
    TransportSettings transportSettings; //!< <transport>: TCP and how the tenants use it
    std::vector<TrainingJobParameters> moreJobs; //!< the jobs after the first
    // The program's own options.
    std::string outDir{"ddnn-output"};
    std::string progress{"auto"}; //!< progress on stderr: auto (when a terminal), always, never

    TrainingScenario();

    /** Adds the program's own options (--outDir, --progress) to cmd. */
    void AddArguments(CommandLine& cmd);

    /** Checks the values (ranges from the parameter table, then how they combine); throws
     * DdnnError naming the argument at fault. */
    void Validate() const;

    /** Every job: the first (this object's own parameters), then moreJobs. */
    std::vector<TrainingJobParameters> Jobs() const;
    /** The same, to change them in place. */
    std::vector<TrainingJobParameters*> JobPointers();

    /** A job's workers: its own count, else the scenario's. */
    uint32_t WorkersOf(const TrainingJobParameters& job) const;

    /**
     * A job's compute time per iteration: computeMs when positive, else by eq. 5.1 from rcp:
     * rcp x model_bytes x 2(1 - 1/N) x 8 / link rate.
     */
    Time ComputeTime(const TrainingJobParameters& job, uint64_t modelBytes) const;
    /** The first job's. */
    Time ComputeTime(uint64_t modelBytes) const;

    /** Servers of the network: its topology's GetPlannedServerCount (workers on a single
     * ToR, the fabric's shape otherwise). */
    uint32_t GetServerCount() const;
    /** Links on the longest path between two servers: its topology's GetPathLinks (2, 4 on
     * a leaf-spine, 6 on a fat tree). */
    uint32_t GetPathLinks() const;
};

/**
 * What an error about parameter `flag` of job `job` (from 0) names: the first job's values
 * come from the command line too ("--rcp"), the others' from the file only ("<training>
 * number 2, attribute 'rcp'").
 */
std::string JobArgument(size_t job, const std::string& flag);

/** The figures of a run and the model's size. */
struct TrainingRunResult
{
    TrainingSummary summary;
    uint64_t modelBytes{0};
};

class SingleTorHelper;

/** A job installed by InstallTraining(), and its ideal-transport reference figures. */
struct InstalledTraining
{
    Ptr<TrainingJob> job;
    DataRate idealRate;    //!< line rate x TCP goodput fraction
    Time idealStepLatency; //!< the network's stream latency
};

/**
 * Installs every job of the scenario on the servers of `network` (CreateTopology's), with
 * the ideal transport's rate and step latency taken from the network: job k (from 0) on
 * its placement (packed and spread skip the servers of the jobs before it), its TCP
 * connections on port TcpPartitionTransport::Port + k, started at its startS.
 */
std::vector<InstalledTraining> InstallTrainingJobs(const TrainingScenario& scenario,
                                                   Ptr<ServerTopology> network);

/** InstallTrainingJobs of a scenario with one job: that job. */
InstalledTraining InstallTraining(const TrainingScenario& scenario, Ptr<ServerTopology> network);

/**
 * A lower bound of a job's iteration period, from its model before anything is simulated.
 * Buffers are reduced one at a time, each at best in its ideal time A_b (the busiest rank's
 * bytes at the ideal transport's rate plus a step latency per sequential step); with C the
 * compute time and F its forward part: with the barrier max(C + A of the buffer holding layer
 * 0, F + sum of A_b) (no gradient leaves before the backward starts, the next forward waits
 * for the last buffer), without it max(C, sum of A_b).
 */
Time IdealIterationTime(const TrainingScenario& scenario, const TrainingJobParameters& job);

/** The PartitionTransport TypeId name registered as a scenario's transport ("tcp", "ideal");
 * an unregistered name is a DdnnError (PartitionTransport::Lookup). */
std::string TransportTypeOf(const std::string& transport);

/**
 * Applies the scenario's transport settings (TransportSettings::Apply), then creates the
 * single-ToR network with the scenario's link rate and delay.
 */
Ptr<SingleTorHelper> CreateNetwork(const TrainingScenario& scenario, uint32_t servers);

/**
 * The scenario's network: the topology its kind names (ServerTopology::Lookup), every
 * attribute it has set from the scenario (rates, delay, queue disc, shape), built (Create),
 * TCP set up alike.
 */
Ptr<ServerTopology> CreateTopology(const TrainingScenario& scenario);

/**
 * Builds the scenario's network (CreateTopology), installs its one job, runs it to the end
 * (Simulator::Run, then Simulator::Destroy) and, when outDir is not empty,
 * writes iterations.csv, buffers.csv and partitions.csv there.
 */
TrainingRunResult RunTraining(const TrainingScenario& scenario, const std::string& outDir);

} // namespace ns3

#endif /* TRAINING_SCENARIO_H */
