/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "seed-reference.h"

#include "datacenter-run.h"
#include "input-file.h"

#include "ns3/atomic-file.h"
#include "ns3/ddnn-csv.h"
#include "ns3/one-line-error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace ns3
{

namespace
{

const char* const kColumns
    = "figure,claim,only,parameter,value,key,baseline_value,baseline_key,paper";

/** The paper's figure as a ratio; NaN for a direction only (">1", "<1"). */
double
PaperRatio(const std::string& paper)
{
    return paper == ">1" || paper == "<1" ? std::numeric_limits<double>::quiet_NaN()
                                          : std::strtod(paper.c_str(), nullptr);
}

/** Whether `text` is a paper figure: a positive number or a direction. */
bool
IsPaperFigure(const std::string& text)
{
    if (text == ">1" || text == "<1")
    {
        return true;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && std::isfinite(v) && v > 0;
}

/** A run's name as its dimensions: "key=value" parts joined by '_' (values encoded). */
std::map<std::string, std::string>
Dimensions(const std::string& name)
{
    std::map<std::string, std::string> parts;
    size_t at = 0;
    while (at <= name.size())
    {
        const size_t end = std::min(name.find('_', at), name.size());
        const std::string part = name.substr(at, end - at);
        const size_t eq = part.find('=');
        if (eq != std::string::npos)
        {
            parts[part.substr(0, eq)] = part.substr(eq + 1);
        }
        at = end + 1;
    }
    return parts;
}

/** A run's dimensions without `drop` (and without the seed unless withSeed), as text. */
std::string
Without(const std::map<std::string, std::string>& dimensions,
        const std::string& drop,
        bool withSeed)
{
    std::string text;
    for (const auto& [key, value] : dimensions)
    {
        if (key != drop && (withSeed || key != "seed"))
        {
            text += (text.empty() ? "" : "_") + key + "=" + value;
        }
    }
    return text.empty() ? "-" : text;
}

/** Summary value `key` of a run (NaN: missing or NA). */
double
SummaryValue(const std::map<std::string, std::string>& summary, const std::string& key)
{
    auto it = summary.find(key);
    if (it == summary.end() || it->second.empty() || it->second == "NA")
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return std::strtod(it->second.c_str(), nullptr);
}

} // namespace

SeedReference
SeedReference::Read(const std::string& path)
{
    SeedReference reference;
    reference.path = path;
    const std::string text = ReadInputFile(path, 1 << 20, "the reference table");
    const auto csv = std::make_unique<ddnn_csv>();
    ddnn_csv_init(csv.get(), text.data(), text.size(), kColumns);
    ddnn_diag diag{};
    int rc;
    while ((rc = ddnn_csv_next(csv.get(), &diag)) == 1
           && (rc = ddnn_csv_expect_fields(csv.get(), 9, &diag)) == DDNN_OK)
    {
        Row row;
        std::string only;
        std::string* fields[] = {&row.figure,
                                 &row.claim,
                                 &only,
                                 &row.parameter,
                                 &row.value,
                                 &row.key,
                                 &row.baselineValue,
                                 &row.baselineKey,
                                 &row.paper};
        for (int i = 0; i < 9; ++i)
        {
            *fields[i] = ddnn_csv_field(csv.get(), i);
        }
        const std::string where = path + ":" + std::to_string(csv->line) + ": ";
        if (only != "-")
        {
            row.only = Dimensions(only);
            if (row.only.size()
                != 1 + static_cast<size_t>(std::count(only.begin(), only.end(), '_')))
            {
                throw DdnnError(where + "only '" + only
                                + "': expected - or dimension=value parts joined by _, as in "
                                  "the run names");
            }
        }
        if (row.parameter == "-"
                ? row.value != "-" || row.baselineValue != "-"
                : row.parameter.empty()
                      || row.parameter.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-")
                             != std::string::npos)
        {
            throw DdnnError(where + "parameter '" + row.parameter
                            + "': expected a dimension as the run names give it (an attribute "
                              "like data-rate, or a <vary name>), or - with value and "
                              "baseline_value - to compare two keys of one run");
        }
        for (const std::string* key : {&row.key, &row.baselineKey})
        {
            if (key->empty()
                || key->find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_")
                       != std::string::npos)
            {
                throw DdnnError(where + "key '" + *key
                                + "': expected a summary key (a-z, 0-9 and _)");
            }
        }
        if (!IsPaperFigure(row.paper))
        {
            throw DdnnError(where + "paper '" + row.paper
                            + "': expected the paper's ratio (a positive number), >1 or <1");
        }
        reference.rows.push_back(row);
    }
    if (rc < 0)
    {
        char line[600];
        ddnn_diag_format(&diag, path.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    if (reference.rows.empty())
    {
        throw DdnnError(path + ": the reference table has no rows (expected the header "
                        + std::string(kColumns) + " and a row per published effect)");
    }
    return reference;
}

void
WriteValidation(const std::vector<CampaignRun>& runs,
                const std::vector<std::map<std::string, std::string>>& summaries,
                const SeedReference& reference,
                const std::string& outDir)
{
    std::vector<std::map<std::string, std::string>> dimensions;
    for (const CampaignRun& run : runs)
    {
        dimensions.push_back(Dimensions(run.name));
    }
    AtomicFile file(outDir + "/validation.csv");
    file.Out() << "figure,claim,runs,paper,ddnn_mean,ddnn_min,ddnn_max,seeds,direction,size\n";
    std::ostringstream shown; // the same on the terminal, a line per group
    shown << "campaign: the paper's effects beside ddnn's (ratios; " << outDir
          << "/validation.csv):\n";
    for (const SeedReference::Row& row : reference.rows)
    {
        // Per group of runs alike but for the parameter: the ratio per seed.
        std::map<std::string, std::vector<double>> groups; // the runs (a label) -> ratios
        const bool within = row.parameter == "-";
        auto valueOf = [&](size_t i) {
            auto it = dimensions[i].find(row.parameter);
            return it == dimensions[i].end() ? std::string() : it->second;
        };
        for (size_t i = 0; i < runs.size(); ++i)
        {
            const bool selected
                = std::all_of(row.only.begin(), row.only.end(), [&](const auto& kv) {
                      auto it = dimensions[i].find(kv.first);
                      return it != dimensions[i].end() && it->second == kv.second;
                  });
            if (!selected || (!within && valueOf(i) != row.baselineValue))
            {
                continue;
            }
            std::vector<double>& group = groups[Without(dimensions[i], row.parameter, false)];
            const std::string pair = Without(dimensions[i], row.parameter, true);
            double numerator = std::numeric_limits<double>::quiet_NaN();
            for (size_t j = 0; j < runs.size(); ++j)
            {
                if (within ? j == i
                           : valueOf(j) == row.value
                                 && Without(dimensions[j], row.parameter, true) == pair)
                {
                    numerator = SummaryValue(summaries[j], row.key);
                }
            }
            const double ratio = numerator / SummaryValue(summaries[i], row.baselineKey);
            if (std::isfinite(ratio))
            {
                group.push_back(ratio);
            }
        }
        if (groups.empty())
        {
            groups["no run has " + row.parameter + "=" + row.baselineValue] = {};
        }
        const double paper = PaperRatio(row.paper);
        for (const auto& [label, ratios] : groups)
        {
            double mean = std::numeric_limits<double>::quiet_NaN();
            double lo = mean;
            double hi = mean;
            std::string direction = "NA";
            std::string size = "NA";
            if (!ratios.empty())
            {
                mean = 0;
                for (double r : ratios)
                {
                    mean += r / ratios.size();
                }
                lo = *std::min_element(ratios.begin(), ratios.end());
                hi = *std::max_element(ratios.begin(), ratios.end());
                const bool paperUp = row.paper == ">1" || (!std::isnan(paper) && paper > 1);
                // Within 2 % of 1, neither side of 1 is measured (noise, not a direction).
                direction = std::fabs(mean - 1) < 0.02 ? "neither (within 2 % of 1)"
                            : (mean > 1) == paperUp    ? "agrees"
                                                       : "differs";
                if (!std::isnan(paper))
                {
                    const double off = (mean / paper - 1) * 100;
                    size = std::fabs(off) <= 25 ? "within 25 %"
                                                : "off by " + FormatFigure(off, 4) + " %";
                }
            }
            shown << "  " << row.figure << ": " << row.claim << " [" << label << "]: paper "
                  << row.paper << ", ddnn " << FormatFigure(mean, 4) << " (" << FormatFigure(lo, 4)
                  << " to " << FormatFigure(hi, 4) << ", " << ratios.size()
                  << " seed(s)): " << direction << (size == "NA" ? "" : ", " + size) << "\n";
            file.Out() << row.figure << "," << row.claim << "," << label << "," << row.paper << ","
                       << FormatFigure(mean, 4) << "," << FormatFigure(lo, 4) << ","
                       << FormatFigure(hi, 4) << "," << ratios.size() << "," << direction << ","
                       << size << "\n";
        }
    }
    file.Commit();
    std::cout << shown.str() << std::flush;
}

} // namespace ns3
