/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_TRAINING_RUN_H
#define DDNN_RUNNER_TRAINING_RUN_H

#include "scenario.h"

#include "ns3/dnn-model.h"
#include "ns3/training-recorder.h"

#include "ns3/server-topology.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/** Adds another process's state (a recorder's GetRankState) to this one's. */
using MergeFunction = std::function<void(const std::string&)>;

/**
 * After Simulator::Run() in a distributed run (--mpi; nothing otherwise): a failure of any
 * rank's job ends every rank with it (a DdnnError naming the rank); then every recorder
 * merges the other ranks' states, and `more` merges the run's other meters through the
 * function it is given (this process's state, and where to merge the others').
 */
void MergeRanks(
    const std::vector<Ptr<TrainingJob>>& jobs,
    const std::vector<TrainingRecorder*>& recorders,
    const std::function<void(const std::function<void(std::string, MergeFunction)>&)>& more = {});

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
 * connections on port TcpPartitionTransport::Port + k at the ToS of its band (or of the
 * scenario's training priority), started at its start-s.
 */
std::vector<InstalledTraining> InstallTrainingJobs(const Scenario& scenario,
                                                   Ptr<ServerTopology> network);

/** InstallTrainingJobs of a scenario with one job: that job. */
InstalledTraining InstallTraining(const Scenario& scenario, Ptr<ServerTopology> network);

/** Job k's model, read from its profile (its table attributes set), with its compute time. */
Ptr<DnnModel> LoadJobModel(const Scenario& scenario, uint32_t k);

/**
 * A lower bound of a job's iteration period, from its model before anything is simulated.
 * Buffers are reduced one at a time, each at best in its ideal time A_b (the busiest rank's
 * bytes at the ideal transport's rate plus a step latency per sequential step); with C the
 * compute time and F its forward part: with the barrier max(C + A of the buffer holding layer
 * 0, F + sum of A_b) (no gradient leaves before the backward starts, the next forward waits
 * for the last buffer), without it max(C, sum of A_b).
 */
Time IdealIterationTime(const Scenario& scenario, uint32_t job);

/** The bytes all of a job's ranks send in one iteration's collectives (each rank's share by
 * its collective's bytes_sent_by, summed over the model's buffers). */
uint64_t BytesSentPerIteration(const Scenario& scenario, uint32_t job);

/** The PartitionTransport TypeId name registered as a scenario's transport ("tcp", "ideal");
 * an unregistered name is a DdnnError (PartitionTransport::Lookup). */
std::string TransportTypeOf(const std::string& transport);

/**
 * Applies the scenario's transport settings (TransportSettings::Apply), then creates the
 * single-ToR network with the scenario's link rate and delay.
 */
Ptr<SingleTorHelper> CreateNetwork(const Scenario& scenario, uint32_t servers);

/**
 * The scenario's network: the topology its kind names (ServerTopology::Lookup), every
 * attribute it has set from the scenario (rates, delay, queue disc, shape), built (Create),
 * TCP set up alike.
 */
Ptr<ServerTopology> CreateTopology(const Scenario& scenario);

/**
 * A topology of the kind `kind` names (ServerTopology::Lookup), not yet built, of the
 * scenario's shape: `servers` on one rack, or the fabric's.
 */
Ptr<ServerTopology> PlanTopology(const Scenario& scenario,
                                 const std::string& kind,
                                 uint32_t servers);

/**
 * Builds the scenario's network (CreateTopology), installs its one job at its training
 * priority, runs it to the end
 * (Simulator::Run, then Simulator::Destroy) and, when outDir is not empty,
 * writes iterations.csv, buffers.csv and partitions.csv there.
 */
TrainingRunResult RunTraining(const Scenario& scenario, const std::string& outDir);

} // namespace ns3

#endif /* DDNN_RUNNER_TRAINING_RUN_H */
