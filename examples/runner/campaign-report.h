/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CAMPAIGN_REPORT_H
#define CAMPAIGN_REPORT_H

#include "datacenter-run.h"
#include "run-intervals.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** The report's thresholds (ddnn-campaign's options). */
struct ReportOptions
{
    //! operating map and verdicts: green (SAFE) up to this iteration slowdown
    double greenSlowdownPercent{kSafeSlowdownPercent};
    double redSlowdownPercent{kCostlySlowdownPercent}; //!< yellow (COSTLY) up to this, red above
    /** The campaign's <reference file>, resolved: published figures for validation.csv. */
    std::string referenceFile;
};

/** One finished run of a campaign: its name, folder and scenario. */
struct CampaignRun
{
    std::string name;
    std::string dir;
    Scenario scenario;
    /** The case of each dimension of cases (<vary name>) this run is in: name -> case. */
    std::map<std::string, std::string> cases;
    /** Its value in every dimension, in the campaign's order: the parameter (<vary
     * parameter>) or the dimension's name (<vary name>), and the value or case. */
    std::vector<std::pair<std::string, std::string>> point;
};

/** A change from same to low training priority with its interval (changes.csv's columns). */
struct ChangeInterval
{
    ddnn_interval change{}; //!< percent of the same-priority value
    std::string method;     //!< "seeds", "within-run" or "NA" (changes.csv's interval_method)
    uint32_t seeds{0};      //!< seeds that ran at both priorities
};

/**
 * The change of summary key `key` from same to low priority over the seeds of `runs`, the
 * finished runs of one cell (the same values in every dimension but the seed and the
 * priority), as changes.csv gives it.
 */
ChangeInterval ChangeOverSeeds(const std::vector<CampaignRun>& runs, const std::string& key);

/**
 * \ingroup ddnn
 * \brief Writes a campaign's summary.csv (one row per run: its parameters and
 * every key of its summary.csv) and renders its plots with gnuplot into
 * outDir/report/:
 *
 * - priority-effect.png: change of the mean FCT of small and of large flows,
 *   and of the iteration time, from same to low training priority, against
 *   the flow rate, one line per R_cp_to_nw (means over seeds);
 * - operating-boundary.png: training load x background load -> iteration
 *   slowdown, small-flow gain and large-flow gain, as heat maps with the
 *   numbers in the cells;
 * - fct-cdf.png: FCT CDFs per size class, same vs low priority (all runs);
 * - small-fct-cdf.png: small-flow FCT CDFs per configuration, a line per priority and seed
 *   (thesis Fig. 5.6);
 * - training-progression.png: for one run, each buffer's transfer next to the
 *   iterations' spans;
 * - iteration-detail.png: for the same run, one iteration of worker 0: each layer's
 *   forward and backward compute, each buffer's allreduce and the partitions sent
 *   (thesis Figs. 5.20-5.23);
 * - utilization.png: for the same run, link utilization over time per tenant;
 * - vs-flow-rate-rcp-R.png per R_cp_to_nw, vs-rcp-flow-rate-F.png per flow rate and
 *   vs-rcp-rph-P.png per R_p_to_hrvd (eq. 5.5): mean and p99 FCT per size class, iteration
 *   time and uplink utilization per tenant and left over, same vs low, a point per seed and
 *   the mean over seeds as a line (thesis Figs. 5.5, 5.8-5.18);
 * - fct-difference.png: per-flow FCT at low minus at same priority (paired by flow id) on
 *   the simulated timeline with the allreduce starts, for the most loaded cell's first seed
 *   (thesis Fig. 5.7).
 *
 * With options.referenceFile, validation.csv sets the runs beside the paper's figures (see
 * SeedReference).
 *
 * The data behind every plot is written next to it (.dat) with its gnuplot
 * script (.gp). The comparisons need runs at both "same" and "low" priority;
 * plots that cannot be drawn are reported and skipped. Throws DdnnError when a
 * run is unfinished or gnuplot fails.
 */
void WriteCampaignReport(const std::vector<CampaignRun>& runs,
                         const std::string& outDir,
                         const ReportOptions& options = ReportOptions());

} // namespace ns3

#endif /* CAMPAIGN_REPORT_H */
