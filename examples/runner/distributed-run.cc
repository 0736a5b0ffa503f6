/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "distributed-run.h"

#include "ns3/global-value.h"
#include "ns3/one-line-error.h"
#include "ns3/string.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <chrono>
#include <iostream>
#include <thread>

namespace ns3
{

namespace
{

bool g_enabled = false;
bool g_running = false;
#ifdef NS3_MPI
std::streambuf* g_cerr = nullptr; //!< rank > 0: stderr, kept for a failure
/** How long a rank other than 0 that failed before the simulation waits for rank 0 to say the
 * same failure and end the run. */
constexpr int RANK_ZERO_WAIT_S = 10;
#endif

} // namespace

void
DistributedRun::Begin(int* argc, char*** argv)
{
    bool mpi = false;
    std::string sync = "barrier";
    for (int i = 1; i < *argc; ++i)
    {
        const std::string arg = (*argv)[i];
        mpi = mpi || arg == "--mpi" || arg == "--mpi=true" || arg == "--mpi=1";
        sync = arg.rfind("--mpiSync=", 0) == 0 ? arg.substr(10) : sync;
    }
    if (!mpi)
    {
        return;
    }
    if (sync != "barrier" && sync != "null-message")
    {
        throw DdnnError("--mpiSync: expected barrier or null-message, got '" + sync + "'");
    }
#ifdef NS3_MPI
    // Before MPI starts: the interface follows the simulator chosen.
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(sync == "barrier" ? "ns3::DistributedSimulatorImpl"
                                                    : "ns3::NullMessageSimulatorImpl"));
    MpiInterface::Enable(argc, argv);
    g_enabled = true;
    if (Rank() != 0)
    {
        // One voice: rank 0 prints the run; the others only their own failures.
        std::cout.rdbuf(nullptr);
        g_cerr = std::cerr.rdbuf(nullptr);
    }
#else
    throw DdnnError("--mpi: this program was built without MPI (Debian's ns-3 has no mpi "
                    "module); build it with ./ddnn mpi build, in an ns-3 configured with "
                    "--enable-mpi");
#endif
}

bool
DistributedRun::Enabled()
{
    return g_enabled;
}

uint32_t
DistributedRun::Ranks()
{
#ifdef NS3_MPI
    return g_enabled ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

uint32_t
DistributedRun::Rank()
{
#ifdef NS3_MPI
    return g_enabled ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

std::vector<std::string>
DistributedRun::Gather(const std::string& mine)
{
#ifdef NS3_MPI
    if (g_enabled)
    {
        const int ranks = static_cast<int>(Ranks());
        // Every rank learns every length first, so that all of them refuse a size MPI's int
        // counts cannot hold, together: one rank alone would leave the others waiting.
        const long long length = static_cast<long long>(mine.size());
        std::vector<long long> lengths(ranks);
        MPI_Allgather(&length, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
        std::vector<int> counts(ranks, 0);
        std::vector<int> offsets(ranks, 0);
        long long total = 0;
        for (int r = 0; r < ranks; ++r)
        {
            if (total + lengths[r] > INT32_MAX)
            {
                throw DdnnError("--mpi: the ranks' results together exceed 2 GiB (rank "
                                + std::to_string(r) + " has " + std::to_string(lengths[r])
                                + " bytes); expected a shorter run or fewer recorded rows");
            }
            counts[r] = static_cast<int>(lengths[r]);
            offsets[r] = static_cast<int>(total);
            total += lengths[r];
        }
        std::string all(total, '\0');
        MPI_Allgatherv(mine.data(),
                       counts[Rank()],
                       MPI_CHAR,
                       all.data(),
                       counts.data(),
                       offsets.data(),
                       MPI_CHAR,
                       MPI_COMM_WORLD);
        std::vector<std::string> states;
        for (int r = 0; r < ranks; ++r)
        {
            states.push_back(all.substr(offsets[r], counts[r]));
        }
        return states;
    }
#endif
    return {mine};
}

void
DistributedRun::SetSimulating(bool simulating)
{
    g_running = simulating;
}

void
DistributedRun::End()
{
#ifdef NS3_MPI
    if (g_enabled)
    {
        g_enabled = false;
        MpiInterface::Disable();
    }
#endif
}

void
DistributedRun::ReportFailure(const std::string& line)
{
#ifdef NS3_MPI
    if (g_enabled && Ranks() > 1)
    {
        if (Rank() != 0)
        {
            if (!g_running)
            {
                // Every rank read the same inputs, so rank 0 fails too, says why and ends
                // every process. Leaving first would let mpirun end rank 0 before it prints;
                // a failure that is this rank's alone is said here after the wait.
                std::this_thread::sleep_for(std::chrono::seconds(RANK_ZERO_WAIT_S));
            }
            std::cerr.rdbuf(g_cerr);
            std::cerr << "rank " << Rank() << ": ";
        }
        std::cerr << line << std::endl;
        // The other processes would wait for this one: end them all.
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    End();
#endif
    std::cerr << line << std::endl;
}

} // namespace ns3
