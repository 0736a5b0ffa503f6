/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Set-up shared by the ddnn test suites: small input files, networks built the same way in
 * several suites, error and stderr capture. Defined in ddnn-test-util.cc.
 */
#ifndef DDNN_TEST_UTIL_H
#define DDNN_TEST_UTIL_H

#include "ns3/ddnn-module.h"
#include "ns3/network-module.h"
#include "ns3/queue-item.h"
#include "ns3/simulator.h"
#include "ns3/transport-settings.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace ddnntest
{

/** Writes `text` to a new file in a fresh temporary folder; returns its path. */
std::string WriteTempFile(const std::string& name, const std::string& text);

/**
 * A profile with the thesis's compute-time shape (forward decreasing,
 * backward increasing, 1:2) and the given bytes per layer.
 */
std::string WriteProfile(const std::string& name, const std::vector<uint64_t>& bytes);

/** The thesis default profile with its layer sizes divided by `divisor`. */
std::string ScaledThesisProfile(uint64_t divisor);

/**
 * Runs `action` and returns the message of the DdnnError it throws ("" when
 * it throws none); destroys the simulator either way.
 */
std::string ErrorOf(const std::function<void()>& action);

/** ddnn's tuned transport settings, applied (tests that build a network by hand). */
TransportSettings ApplyTunedTransport();

/** Whether `text` contains `part`. */
bool Contains(const std::string& text, const std::string& part);

/** How many times `part` occurs in `text`. */
size_t Count(const std::string& text, const std::string& part);

/**
 * The thesis default profile at 1/10 of its bytes: the same shape with ten
 * times fewer packets, while the step latencies stay small next to the
 * transfers (at 1/100 they would not).
 */
std::string SmallThesisProfile();

/** Runs the simulation until `stop` and returns what it printed on stderr. */
std::string RunCapturingStderr(Time stop);

/** Sets a single-ToR network's attributes before Create(). */
using NetworkSettings = std::function<void(Ptr<SingleTorHelper>)>;

/** A single ToR of `servers` servers at 1 Gbit/s whose servers 1 and 2 lose `lossRate` of
 * their packets each way (0: no loss); the transport settings are left as they are. */
Ptr<SingleTorHelper> GigabitRack(uint32_t servers, double lossRate = 0);

/** A single ToR of `servers` servers under ddnn's tuned transport settings. */
Ptr<SingleTorHelper> TunedSingleTor(uint32_t servers, const NetworkSettings& settings = nullptr);

/**
 * A job of two 1 MB buffers and 1 ms of compute on `servers`, listening on `port` and sending
 * at `tos`, for `iterations` iterations (tests of several jobs on one network).
 */
Ptr<TrainingJob> InstallMegabyteJob(Ptr<ServerTopology> servers,
                                    uint16_t port,
                                    uint8_t tos,
                                    uint32_t iterations);

/**
 * The compute time per iteration that makes a job of `workers` on `profile` compute-bound by
 * `rcp` at link rate `rate` (thesis eq. 5.1): rcp x model bytes x 2(1 - 1/N) x 8 / rate.
 */
Time ComputeTimeOfRcp(double rcp, const std::string& profile, uint32_t workers, DataRate rate);

/** A job on a fresh single-ToR network; Simulator::Destroy() after use. */
struct Job
{
    Ptr<SingleTorHelper> network;
    TrainingHelper helper;
    Ptr<TrainingJob> job;
    DataRate idealRate;    //!< the ideal transport's: line rate x TCP goodput fraction
    Time idealStepLatency; //!< the ideal transport's: the network's stream latency

    /** One iteration of `profile` in buffers of `fusionBytes`, `compute` per iteration. */
    Job(uint32_t workers,
        const std::string& profile,
        uint64_t fusionBytes,
        Time compute,
        const NetworkSettings& settings = nullptr);

    /** Partitions over the ideal transport, at the network's goodput and stream latency. */
    void UseIdealTransport();

    void Install();

    /** Ideal allreduce time of `bytes` (eq. 4.1 at goodput, plus step latencies). */
    Time IdealAllreduce(uint64_t bytes) const;
};

/**
 * A dumbbell of the user's own, built with ns-3's helpers: servers 0, 1 on router 0, servers
 * 2, 3 on router 1, every link at `rate`.
 */
struct Dumbbell
{
    NodeContainer servers;
    NodeContainer routers;
    NetDeviceContainer core; //!< router 0's and router 1's devices on their link

    Dumbbell(const std::string& rate = "1Gbps");

    /** Training on the four servers at `priority`, and web-search-like flows among them. */
    Ptr<TrainingJob> InstallTenants(const std::string& priority, const std::string& check = "Warn");

    Ptr<BackgroundTenant> tenant;
};

/**
 * An item for a queue disc's unit tests: the packet and a sequence number, carried as its
 * protocol number; no header to add, nothing to mark (the network layer's items do both).
 */
class TestQueueDiscItem : public QueueDiscItem
{
  public:
    TestQueueDiscItem(Ptr<Packet> p, uint16_t sequence)
        : QueueDiscItem(p, Address(), sequence)
    {
    }

    void
    AddHeader() override
    {
    }

    bool
    Mark() override
    {
        return false;
    }
};

} // namespace ddnntest
} // namespace ns3

#endif /* DDNN_TEST_UTIL_H */
