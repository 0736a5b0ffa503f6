/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_RECORDER_H
#define TRAINING_RECORDER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/training-job.h"

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The figures of one training run, as written to summary.csv.
 */
struct TrainingSummary
{
    uint32_t workers{0};
    uint64_t modelBytes{0};          //!< the model's gradient bytes (every layer's)
    uint32_t iterationsCompleted{0}; //!< by every worker
    double computeTimeS{0};          //!< configured compute time per iteration
    //! Iteration period (see Summarize): mean over the iterations that start inside the
    //! measurement window; NaN without any.
    double iterationTimeMeanS{0};
    uint32_t iterationsMeasured{0}; //!< iterations that start inside the window (the samples)
    double iterationTimeSdS{0};     //!< standard deviation of the periods; NaN below 2
    double iterationTimeMinS{0};    //!< shortest period; NaN without any
    double iterationTimeMaxS{0};    //!< longest period; NaN without any
    std::vector<double> iterationPeriodsS; //!< the periods behind the mean, in their order
    std::vector<double> iterationStartsS;  //!< when each of them started (the first worker)
    //! The thesis code's clock: from one start of the last layer's backward pass to the next,
    //! the k-th such period of every worker that has it averaged, for the periods that start
    //! inside the window (see Summarize).
    std::vector<double> backwardPeriodsS;
    double backwardPeriodSdS{0}; //!< their standard deviation; NaN below 2
    //! mean over the buffers' allreduces that start inside the window and finish, of end -
    //! start; NaN: none
    double allreduceTimeMeanS{0};
    uint32_t allreducesMeasured{0};      //!< the allreduces behind the mean (the samples)
    double allreduceTimeSdS{0};          //!< their standard deviation; NaN below 2
    std::vector<double> allreduceTimesS; //!< those allreduces' times, in the order recorded
    //! Of those allreduces, the ones whose collective reports phases (ring, parameter server):
    //! mean time of the aggregation phase (start to the last push or reduce-scatter chunk)
    //! and of the distribution phase (from then to the end); NaN: none.
    double aggregationTimeMeanS{0};
    double aggregationTimeSdS{0}; //!< NaN below 2
    double distributionTimeMeanS{0};
    double distributionTimeSdS{0};        //!< NaN below 2
    uint32_t phasesMeasured{0};           //!< the allreduces behind both phase means (the samples)
    double bytesPerWorkerPerIteration{0}; //!< measured, completed iterations only
    //! sum over buffers of the mean bytes a worker sends (ring: 2(N-1)/N x bytes)
    double expectedBytesPerWorkerPerIteration{0};
    //! a Chakra trace's own collective sizes as bytes a worker sends (ring all-reduce:
    //! 2(N-1)/N x size each, DnnModel::GetChakraExpectedBytesPerWorker); NaN: not a trace
    double traceExpectedBytesPerWorkerPerIteration{std::numeric_limits<double>::quiet_NaN()};
    //! the collective's ideal time (ring: eq. 4.1 plus step latencies), mean over buffers
    double idealAllreduceTimeS{0};
    std::string collective; //!< the collective that ran (after a fallback, the fallback)
    bool fellBack{false};   //!< the job ran its FallbackCollective (TrainingJob::GetFallback)
    //! In-network aggregation (NaN when the job does not aggregate in the network): chunks
    //! the workers sent again, the most chunks one worker had out at once, and the switch's
    //! slot memory the job holds (bytes).
    double aggregationRetransmissions{0};
    double aggregationMaxSlotsInUse{0};
    double aggregationSlotMemoryBytes{0};
    //! Syncer Network: the syncing messages' bytes over the network (NaN: the instant syncer)
    double syncBytes{0};
};

/**
 * \ingroup ddnn
 * \brief Records a training job through its trace sources and writes
 * iterations.csv, buffers.csv, partitions.csv and layers.csv.
 */
class TrainingRecorder
{
  public:
    /** Connects to the job's and its workers' trace sources (call before the run). */
    explicit TrainingRecorder(Ptr<TrainingJob> job);

    /**
     * The run's figures. idealRate and idealStepLatency are those of the ideal
     * transport, for ideal_allreduce_time_s. The iteration period is measured on the
     * iterations that start inside [from, until) (the measurement window), wherever they
     * end: iteration k's period is the time from its start to the start of iteration k + 1
     * (which may lie after the window), mean over the workers; an iteration after which no
     * other started has, with the barrier, its own duration as period (the next would start
     * at its end) and, without the barrier (iterations overlap), none: it is left out. So a
     * long iteration near the window's end counts as much as a short one.
     */
    TrainingSummary Summarize(DataRate idealRate,
                              Time idealStepLatency,
                              Time from = Seconds(0),
                              Time until = Time::Max()) const;

    /** Writes the four CSV files into dir (which must exist), each name after `prefix`
     * ("job2-iterations.csv"). Throws DdnnError on I/O errors. */
    void WriteCsv(const std::string& dir, const std::string& prefix = "") const;

    /**
     * A distributed run (one process per rank of ns-3's MPI simulator): what this process
     * measured of its own workers (their iterations, layers, partitions, iteration and byte
     * totals), the job's collective records if its coordinator runs here, and its syncing
     * bytes, as text for MergeRankState in the other processes.
     */
    std::string GetRankState() const;
    /**
     * Adds another process's GetRankState(), so that Summarize and WriteCsv cover every
     * worker. Throws DdnnError on a state that does not fit the job.
     */
    void MergeRankState(const std::string& state);
    /** Bytes worker `worker` received from its peers (of whichever process ran it). */
    uint64_t GetBytesReceived(uint32_t worker) const;

  private:
    /** The collective that ran, in-network aggregation's counts (NaN without it) and the
     * network syncer's bytes (NaN with the instant one). */
    void SummarizeCollective(TrainingSummary& s) const;
    /** The totals of a worker of another process (MergeRankState). */
    struct MergedWorker
    {
        bool merged{false};
        uint32_t iterationsCompleted{0};
        std::vector<uint64_t> bytesSent; //!< per iteration
        uint64_t bytesReceived{0};
    };
    uint32_t IterationsCompleted(uint32_t worker) const;
    uint64_t BytesSent(uint32_t worker, uint32_t iteration) const;
    /** The job's records and those merged from other processes. */
    std::vector<TrainingJob::Record> Records() const;
    void IterationStart(uint32_t worker, uint32_t iteration);
    void IterationEnd(uint32_t worker, uint32_t iteration);
    void LayerCompute(
        uint32_t worker, uint32_t iteration, uint32_t layer, bool backward, Time duration);
    void Partition(const char* event,
                   uint32_t worker,
                   uint32_t iteration,
                   uint32_t buffer,
                   uint32_t step,
                   uint32_t partition,
                   uint64_t bytes);

    struct IterationRow
    {
        int64_t startNs{-1};
        int64_t endNs{-1};
    };

    struct PartitionRow
    {
        uint32_t worker;
        uint32_t iteration;
        uint32_t buffer;
        uint32_t step;
        uint32_t partition;
        uint64_t bytes;
        const char* event;
        int64_t timeNs;
    };

    /** TrainingSummary::backwardPeriodsS of a model of `layers` layers. */
    std::vector<double> BackwardPeriods(uint32_t layers, int64_t fromNs, int64_t untilNs) const;

    struct LayerRow
    {
        uint32_t worker;
        uint32_t iteration;
        uint32_t layer;
        bool backward;
        int64_t startNs;
        int64_t durationNs;
    };

    Ptr<TrainingJob> m_job;
    std::vector<std::vector<IterationRow>> m_iterations; // [worker][iteration]
    std::vector<PartitionRow> m_partitions;
    std::vector<LayerRow> m_layers;
    std::vector<MergedWorker> m_merged; //!< [worker]
    std::vector<TrainingJob::Record> m_mergedRecords;
    uint64_t m_mergedSyncBytes{0};
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_mergedAggregationEnds;
};

/** Writes "key,value" lines to path atomically (a temporary file renamed into place). */
void WriteKeyValueCsv(const std::string& path,
                      const std::vector<std::pair<std::string, std::string>>& rows);

} // namespace ns3

#endif /* TRAINING_RECORDER_H */
