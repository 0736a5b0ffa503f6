/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Uses the installed ddnn: loads the installed default profile and prints its fusion plan size.
 */
#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"

#include <iostream>

using namespace ns3;

int
main()
{
    Ptr<DnnModel> model = CreateObject<DnnModel>();
    model->SetAttribute("ProfileFile", StringValue(DdnnDataPath("thesis-default-profile.csv")));
    std::cout << "consumer: " << model->GetLayerCount() << " layers, " << model->GetBufferCount()
              << " buffers" << std::endl;
    return model->GetBufferCount() == 19 ? 0 : 1;
}
