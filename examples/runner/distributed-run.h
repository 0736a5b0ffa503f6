/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_DISTRIBUTED_RUN_H
#define DDNN_RUNNER_DISTRIBUTED_RUN_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A program's processes in a distributed run (--mpi): ns-3's MPI interface and its
 * distributed simulator, the number of ranks the topology is split over, and the exchange
 * of the recorders' states after the simulation so that every process holds the whole run.
 * Rank 0 writes the outputs and speaks; the other ranks keep quiet unless they fail.
 */
class DistributedRun
{
  public:
    /**
     * Before anything else in main(): with --mpi (and --mpiSync=barrier|null-message, default
     * barrier) in argv, enables MPI and the distributed simulator. Throws DdnnError when the
     * program was built without MPI (ns-3 configured without --enable-mpi) or --mpiSync is
     * neither.
     */
    static void Begin(int* argc, char*** argv);
    /** Whether --mpi was given. */
    static bool Enabled();
    /** The processes (1 without --mpi) and this one's rank. */
    static uint32_t Ranks();
    static uint32_t Rank();
    /** Every process's `mine`, in rank order (only `mine` without --mpi). */
    static std::vector<std::string> Gather(const std::string& mine);
    /** After the outputs are written: ends MPI. */
    static void End();
    /**
     * Prints a failure's one line and ends the run. With several ranks: rank 0 prints it and
     * ends every process (MPI_Abort), as the others would wait for this one; another rank
     * prints it, prefixed with its rank, only when the failure may be its alone (during the
     * simulation, or when rank 0 has not ended the run within a few seconds).
     */
    static void ReportFailure(const std::string& line);
    /** Whether the simulation runs (or its results are being merged): a failure then may be
     * this rank's alone, so it is printed and ends every process; once the results are merged
     * (false), every rank knows the outcome and rank 0 says it. */
    static void SetSimulating(bool simulating);
};

} // namespace ns3

#endif /* DDNN_RUNNER_DISTRIBUTED_RUN_H */
