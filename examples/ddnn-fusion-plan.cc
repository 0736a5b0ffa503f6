/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reads a DNN profile, fuses its layers into allreduce buffers and prints the
 * fusion plan: which layers travel together, how many bytes, and when each
 * buffer becomes ready during the backward pass.
 *
 *   ./ddnn-fusion-plan --profile=data/resnet50-profile.csv --fusionBytes=67108864
 */

#include "runner/runner.h"

#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    try
    {
        // The scenario's parameters of the model, parsed and range-checked by the core's table;
        // this program's own default compute time is 900 ms (rcp does not apply here).
        Scenario scenario;
        scenario.values.jobs[0].compute_ms = 900;
        CommandLine cmd = ProgramCommandLine(__FILE__);
        ParseArguments("ddnn-fusion-plan",
                       cmd,
                       argc,
                       argv,
                       scenario,
                       {"training.profile", "training.fusion-bytes", "training.compute-ms"});
        const ddnn_scenario_job& job = scenario.Job(0);
        if (!(job.compute_ms > 0))
        {
            throw DdnnError("--computeMs: expected a positive compute time in ms");
        }
        const std::string profile = job.profile;
        const uint64_t fusionBytes = job.fusion_bytes;
        const double computeMs = job.compute_ms;

        Ptr<DnnModel> model = CreateObject<DnnModel>();
        SetScenarioAttributes(scenario, 0, model); // its profile and fusion buffers
        model->SetAttribute("ComputeTime", TimeValue(MicroSeconds(computeMs * 1000)));
        model->Load();

        // Time at which each layer's backward pass ends, counted from the start of backward.
        std::vector<Time> backwardDone(model->GetLayerCount());
        Time t = Seconds(0);
        for (uint32_t layer = model->GetLayerCount(); layer-- > 0;)
        {
            t += model->GetBackwardTime(layer);
            backwardDone[layer] = t;
        }

        std::cout << "profile          " << profile << "\n"
                  << "layers           " << model->GetLayerCount() << "\n"
                  << "model bytes      " << model->GetTotalBytes() << "\n"
                  << "fusion buffer    " << fusionBytes << " bytes\n"
                  << "compute/iter     " << computeMs << " ms\n"
                  << "buffers          " << model->GetBufferCount() << "\n\n"
                  << "buffer  layers    bytes       ready_after_backward_start_ms\n";
        for (uint32_t b = 0; b < model->GetBufferCount(); ++b)
        {
            DnnModel::Buffer buffer = model->GetBuffer(b);
            std::ostringstream layers;
            layers << buffer.lowestLayer << "-" << buffer.highestLayer;
            std::cout << std::setw(6) << b << "  " << std::left << std::setw(8) << layers.str()
                      << "  " << std::setw(10) << buffer.bytes << std::right << "  " << std::fixed
                      << std::setprecision(3) << backwardDone[buffer.lowestLayer].GetSeconds() * 1e3
                      << (buffer.oversized ? "  (oversized: travels alone)" : "") << "\n";
        }
    }
    catch (...)
    {
        return ReportFailure("ddnn-fusion-plan");
    }
    return 0;
}
