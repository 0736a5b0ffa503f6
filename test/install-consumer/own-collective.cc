/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A program outside ddnn that adds a collective of its own through the installed package
 * (ns3/ddnn-collective.h) and trains with it over TCP on a single ToR: "test-star"
 * (../star-collective.h), every worker sends its whole buffer to worker 0, which sends the sum
 * back to each. From first principles,
 * per buffer of S bytes on N workers, worker 0 sends (N-1) S and every other worker S; the
 * program checks each worker's bytes against that, over one iteration of the whole model.
 */
#include "../star-collective.h"

#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"

#include <iostream>

using namespace ns3;

int
main()
{
    try
    {
        if (int rc = ddnn_collective_register(ddnntest::star::Ops()); rc != DDNN_OK)
        {
            std::cerr << "own-collective: register: " << ddnn_strerror(rc) << std::endl;
            return 1;
        }
        const uint32_t workers = 4;
        TransportSettings::Profile("tuned").Apply();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        network->Create(workers);
        TrainingHelper training;
        training.SetAttribute("Collective", StringValue("test-star"));
        training.SetAttribute("Iterations", UintegerValue(1));
        training.SetAttribute("ComputeTime", TimeValue(MilliSeconds(10)));
        training.Install(network);
        Simulator::Run();
        Ptr<TrainingJob> job = training.GetJob();
        job->ThrowIfFailed();
        const uint64_t modelBytes = job->GetModel()->GetTotalBytes();
        bool ok = job->IsFinished() && job->GetCollectiveName() == "test-star";
        for (uint32_t rank = 0; rank < workers; ++rank)
        {
            const uint64_t sent = job->GetRank(rank)->GetBytesSent(0);
            const uint64_t expected = rank == 0 ? (workers - 1) * modelBytes : modelBytes;
            std::cout << "own-collective: worker " << rank << " sent " << sent
                      << " bytes, expected " << expected << "\n";
            ok = ok && sent == expected;
        }
        std::cout << "own-collective: training with test-star finished " << job->IsFinished()
                  << std::endl;
        Simulator::Destroy();
        return ok ? 0 : 1;
    }
    catch (const DdnnError& e)
    {
        std::cerr << "own-collective: error: " << e.what() << std::endl;
        return 1;
    }
}
