/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_SCENARIO_H
#define DDNN_RUNNER_SCENARIO_H

#include "ddnn-scenario.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/transport-settings.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * What an error about parameter `flag` of job `job` (from 0) names: the first job's values
 * come from the command line too ("--rcp"), the others' from the file only ("<training>
 * number 2, attribute 'rcp'").
 */
std::string JobArgument(size_t job, const std::string& flag);

/**
 * \ingroup ddnn
 * \brief One run's scenario: the core's parameter record (ddnn_scenario, described by the
 * table in examples/runner/ddnn-scenario-rows.def: its one default, range and help per value) and
 * the program's own options. The runner keeps no other copy of the values: it reads them here and
 * sets them on ns-3 objects when it builds the run (training-run.h, datacenter-run.h).
 *
 * Job k (from 0) is values.jobs[k]; a file's relative paths are resolved when it is read
 * (LoadScenarioFile).
 */
class Scenario
{
  public:
    /** The table's defaults (thesis Tables 5.1 and 5.2). */
    Scenario();

    ddnn_scenario values; //!< every parameter of the run

    // The program's own options (not scenario parameters).
    std::string outDir{"ddnn-output"};
    std::string progress{"auto"}; //!< progress on stderr: auto (when a terminal), always, never
    bool compare{false};          //!< ddnn-datacenter: run at same and at low priority

    /**
     * Sets the parameter named "element.attribute" ("training[K].attribute" for job K from 1)
     * from text, with the table's parsing and range; throws DdnnError "--FLAG: expected ...".
     */
    void Set(const std::string& name, const std::string& text);
    /**
     * Job k's transport becomes `name`, and the rows setting attributes of another transport
     * go back to their defaults (a reference run on the ideal transport reads no TCP value).
     */
    void UseJobTransport(uint32_t k, const std::string& name);

    /**
     * Makes the relative paths (profile, oracle reference, cdf, schedule) absolute: in
     * `folder` (a scenario file's, or the working directory for the command line) when the
     * file is there, else in ddnn's data folder (`folder` "": the defaults, there only). A
     * path given in a folder and found in neither is refused, naming the option, the path as
     * written and both places.
     */
    void ResolvePaths(const std::string& folder);

    /** Calls f(option, field, size) for each path field of `values` (profile, ...). */
    template<typename F>
    static void
    ForEachPath(ddnn_scenario& values, F f)
    {
        for (uint32_t k = 0; k < values.job_count; ++k)
        {
            f(JobArgument(k, "profile"), values.jobs[k].profile, sizeof values.jobs[k].profile);
            f(JobArgument(k, "chakraTrace"),
              values.jobs[k].chakra_trace,
              sizeof values.jobs[k].chakra_trace);
            f(JobArgument(k, "oracleReference"),
              values.jobs[k].oracle_reference,
              sizeof values.jobs[k].oracle_reference);
        }
        f(std::string("--cdf"), values.cdf, sizeof values.cdf);
        f(std::string("--schedule"), values.schedule, sizeof values.schedule);
    }

    uint32_t JobCount() const;
    const ddnn_scenario_job& Job(uint32_t k) const;

    /** Job k's workers: its own count, else the scenario's. */
    uint32_t WorkersOf(uint32_t k) const;

    /**
     * Job k's compute time per iteration: compute-ms when positive, else by eq. 5.1 from rcp:
     * rcp x model_bytes x 2(1 - 1/N) x 8 / link rate.
     */
    Time ComputeTime(uint32_t k, uint64_t modelBytes) const;

    DataRate LinkRate() const;
    Time LinkDelay() const;
    /** Whether the egress queue disc orders packets by their SlackTag (least-slack): the
     * tenants then tag them. */
    bool ReadsSlackTags() const;
    /** The <transport> values as ns-3's TCP settings. */
    TransportSettings Transport() const;
    /** Writes `transport`'s values into <transport> (as they are: the profile is not applied
     * again, and host-band-packets, which TransportSettings does not hold, stays). */
    void SetTransport(const TransportSettings& transport);

    /** Servers of the network: its topology's GetPlannedServerCount. */
    uint32_t GetServerCount() const;
    /** Links on the longest path between two servers: its topology's GetPathLinks. */
    uint32_t GetPathLinks() const;

    /** Checks every value against its parameter's range and choices (values set by code);
     * throws DdnnError "--FLAG: expected ..., got '...'" for the first one outside. */
    void CheckRanges() const;

    /**
     * Checks the network before it is built: its topology's own CheckConfig (an error naming
     * an attribute names the option that sets it), and its size (servers, links and nodes,
     * from the topology's planned counts) against what one run can hold.
     */
    void CheckTopology() const;

    /**
     * Checks what the training jobs and the network need beyond each value's range: how the
     * values combine, and the network's size; throws DdnnError naming the argument at fault.
     */
    /** The egress queue disc's settings (band weights) fit the chosen queue disc. */
    void CheckEgressSettings() const;
    void ValidateTraining() const;
    /** ValidateTraining, the background tenant and the run: window, bands, the run's size. */
    void Validate() const;

    /**
     * The scenario as one side of --compare runs it: at training priority `priority`, and at
     * "same" with every job's buffers at that priority (the static policy, its rows at their
     * defaults), the reference a job's priority policy is compared with.
     */
    Scenario ComparedAt(const std::string& priority) const;

    /**
     * The first parameter whose value differs from `other`'s, as "element.attribute: 'A' vs
     * 'B'" (a job's as "training[K].attribute"), or "" when every value is the same; the
     * parameters named in `ignored` ("run.duration-s") are not compared.
     */
    std::string FirstDifference(const Scenario& other,
                                const std::vector<std::string>& ignored = {}) const;

    /**
     * The tenants' priorities (TenantPriority names, the TrainingJob's and BackgroundTenant's
     * Priority attribute) under the training priority: low is the training at low and the
     * background at same; high the training at high and the background at band1; same both
     * at same.
     */
    std::pair<std::string, std::string> TenantPriorities() const;
    /** The ToS the background's Priority gives. */
    uint8_t BackgroundTos() const;
    /** Job k's ToS: its band's, or its Priority's for band "scenario". */
    uint8_t JobTos(uint32_t k) const;

    /**
     * The run under `priority` for the training jobs alone: a job without iterations or
     * stop-s trains until the end of the run.
     */
    Scenario TrainingPart() const;

    Time WindowStart() const;
    Time WindowEnd() const;

    /**
     * Stops a run whose measurement window cannot hold min-iterations iterations of every
     * job, before anything is simulated: throws DdnnError "DURATION=X: the measurement window
     * ... holds at most H iterations of ... (ideal iteration T ms), fewer than MINIMUM=M:
     * give DURATION=D or more ...", D = the window's start (warm-up, or the job's start when
     * later) + M ideal iterations (IdealIterationTime, a lower bound) + the cool-down. The
     * names are what the user wrote: the options, or a file's attributes; `context` starts
     * the message (e.g. "FILE: run NAME: ").
     */
    void CheckWindow(const std::string& duration = "--durationS",
                     const std::string& minimum = "--minIterations",
                     const std::string& context = "") const;
};

/** Whether a text value of the record is `text`. */
bool Is(const char* value, const char* text);

} // namespace ns3

#endif /* DDNN_RUNNER_SCENARIO_H */
