/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small input files for the ddnn test suites.
 */
#ifndef DDNN_TEST_UTIL_H
#define DDNN_TEST_UTIL_H

#include "ns3/one-line-error.h"
#include "ns3/simulator.h"
#include "ns3/system-path.h"
#include "ns3/transport-settings.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace ddnntest
{

/** Writes `text` to a new file in a fresh temporary folder; returns its path. */
inline std::string
WriteTempFile(const std::string& name, const std::string& text)
{
    std::string dir = SystemPath::MakeTemporaryDirectoryName();
    SystemPath::MakeDirectories(dir);
    std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

/**
 * A profile with the thesis's compute-time shape (forward decreasing,
 * backward increasing, 1:2) and the given bytes per layer.
 */
inline std::string
WriteProfile(const std::string& name, const std::vector<uint64_t>& bytes)
{
    std::string text = "layer,param_bytes,forward_ns,backward_ns\n";
    const uint64_t layers = bytes.size();
    for (uint64_t i = 0; i < layers; ++i)
    {
        text += std::to_string(i) + "," + std::to_string(bytes[i]) + ","
                + std::to_string(1000 * (layers - i)) + "," + std::to_string(2000 * (i + 1)) + "\n";
    }
    return WriteTempFile(name, text);
}

/** The thesis default profile with its layer sizes divided by `divisor`. */
inline std::string
ScaledThesisProfile(uint64_t divisor)
{
    std::vector<uint64_t> bytes;
    for (uint32_t i = 0; i < 50; ++i)
    {
        bytes.push_back((i < 25 ? 444444 : i < 38 ? 1777776 : 5333328) / divisor);
    }
    return WriteProfile("thesis-scaled.csv", bytes);
}

/**
 * Runs `action` and returns the message of the DdnnError it throws ("" when
 * it throws none); destroys the simulator either way.
 */
inline std::string
ErrorOf(const std::function<void()>& action)
{
    std::string message;
    try
    {
        action();
    }
    catch (const DdnnError& e)
    {
        message = e.what();
    }
    Simulator::Destroy();
    return message;
}

/** ddnn's tuned transport settings, applied (tests that build a network by hand). */
inline TransportSettings
ApplyTunedTransport()
{
    TransportSettings tuned;
    tuned.Apply();
    return tuned;
}

} // namespace ddnntest
} // namespace ns3

#endif /* DDNN_TEST_UTIL_H */
