/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SEED_REFERENCE_H
#define SEED_REFERENCE_H

#include "campaign-report.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The published figures a campaign sets its runs beside (<campaign><reference
 * file="...">): one row per effect a paper reports, as a ratio of two summary values.
 *
 * The file is a CSV with the header
 * `figure,claim,only,parameter,value,key,baseline_value,baseline_key,paper`:
 * - figure, claim: where the paper says it and what (text without commas);
 * - only: the runs the claim is about, as dimension=value parts joined by _ like the run
 *   names (`profile=mnist-mlp-profile.csv_layout=1-worker`), or - for every run;
 * - parameter: a dimension of the campaign as its run names give it (a varied attribute,
 *   `data-rate`, or a <vary name>); the ratio is `key` of the run where it is `value` over
 *   `baseline_key` of the run where it is `baseline_value`, the two runs alike in every
 *   other dimension (the seed included). `-` compares two keys of the same run (value and
 *   baseline_value are then `-` too);
 * - paper: the paper's ratio, a number, or `>1` / `<1` where it gives only a direction.
 */
struct SeedReference
{
    struct Row
    {
        std::string figure;
        std::string claim;
        std::map<std::string, std::string> only; //!< dimension -> value; empty: every run
        std::string parameter;
        std::string value;
        std::string key;
        std::string baselineValue;
        std::string baselineKey;
        std::string paper;
    };

    std::string path;
    std::vector<Row> rows;

    /** Reads and checks `path`; a wrong file or row is a DdnnError naming it. */
    static SeedReference Read(const std::string& path);
};

/**
 * Writes outDir/validation.csv from the runs' summaries (summaries[i]: runs[i]'s key ->
 * value): per reference row and per group of runs alike but for the
 * compared parameter and the seed, the paper's figure beside ddnn's ratio (mean, min and max
 * over the seeds, how many) and whether the direction and the size agree; NA where no pair
 * of runs was measured. Prints the same, a line per group, on the terminal.
 */
void WriteValidation(const std::vector<CampaignRun>& runs,
                     const std::vector<std::map<std::string, std::string>>& summaries,
                     const SeedReference& reference,
                     const std::string& outDir);

} // namespace ns3

#endif /* SEED_REFERENCE_H */
