/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A program outside ddnn that uses the installed package: a short run of both tenants on a
 * single ToR, with the shipped thesis profile (DnnModel's default) and the shipped web-search
 * CDF (BackgroundHelper's default), both found through the installed library.
 */
#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"

#include <iostream>

using namespace ns3;

int
main()
{
    try
    {
        TransportSettings::Profile("tuned").Apply();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->Create(2);
        TrainingHelper training; // no ProfileFile: the shipped thesis profile
        training.SetAttribute("Iterations", UintegerValue(1));
        training.SetAttribute("ComputeTime", TimeValue(MilliSeconds(10)));
        training.Install(network);
        Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
        background->SetPatternAttribute("FlowRate", DoubleValue(100));
        background->SetAttribute("Stop", TimeValue(MilliSeconds(100)));
        Ptr<BackgroundTenant> web = background->Install(network);
        Simulator::Run();
        training.GetJob()->ThrowIfFailed();
        Ptr<DnnModel> model = training.GetJob()->GetModel();
        std::cout << "consumer: profile " << DdnnDataPath("thesis-default-profile.csv") << ", "
                  << model->GetLayerCount() << " layers, " << model->GetBufferCount()
                  << " buffers\n"
                  << "consumer: cdf " << DdnnDataPath("web-search-cdf.csv") << ", "
                  << web->GetFlows().size() << " flows\n"
                  << "consumer: training finished " << training.GetJob()->IsFinished() << std::endl;
        const bool ok = model->GetBufferCount() == 19 && training.GetJob()->IsFinished()
                        && !web->GetFlows().empty();
        Simulator::Destroy();
        return ok ? 0 : 1;
    }
    catch (const DdnnError& e)
    {
        std::cerr << "ddnn-consumer: error: " << e.what() << std::endl;
        return 1;
    }
}
