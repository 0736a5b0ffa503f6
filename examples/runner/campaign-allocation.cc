/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "campaign-allocation.h"

#include "ns3/atomic-file.h"
#include "ns3/one-line-error.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

namespace ns3
{

namespace
{

/** The dimensions that make the runs of one cell differ: the seed, and the priority sides. */
bool
SplitsACell(const std::string& dimension)
{
    return dimension == "run.seed" || dimension == "priority.training" || dimension == "policy";
}

/** Half the interval's width in points; NaN without an interval. */
double
HalfWidth(const ChangeInterval& c)
{
    return (c.change.high - c.change.low) / 2;
}

} // namespace

SeedAllocation::SeedAllocation(const std::vector<CampaignRun>& runs,
                               const std::vector<double>& estimateS,
                               const AllocationOptions& options)
    : m_options(options)
    , m_estimateS(estimateS)
    , m_cellOf(runs.size())
{
    std::map<std::string, size_t> cellIndex;
    std::vector<std::string> seeds; // the seed dimension's values, in the campaign's order
    for (size_t r = 0; r < runs.size(); ++r)
    {
        std::string name;
        std::string seed;
        for (const auto& [dimension, value] : runs[r].point)
        {
            if (dimension == "run.seed")
            {
                seed = value;
            }
            else if (!SplitsACell(dimension))
            {
                name += (name.empty() ? "" : "_") + dimension + "=" + value;
            }
        }
        if (seed.empty())
        {
            throw DdnnError("--allocate: the campaign does not vary run.seed: it has no seeds to "
                            "allocate (give <vary parameter=\"run.seed\" values=\"1 2 ...\"/>)");
        }
        auto s = std::find(seeds.begin(), seeds.end(), seed);
        const size_t k = s - seeds.begin();
        if (s == seeds.end())
        {
            seeds.push_back(seed);
        }
        auto [at, added] = cellIndex.emplace(name.empty() ? "all" : name, m_cells.size());
        if (added)
        {
            m_cells.emplace_back();
            m_cells.back().name = at->first;
        }
        Cell& cell = m_cells[at->second];
        if (cell.runs.size() <= k)
        {
            cell.runs.resize(k + 1);
        }
        cell.runs[k].push_back(r);
        m_cellOf[r] = at->second;
    }
    for (Cell& cell : m_cells)
    {
        bool same = false;
        bool low = false;
        for (size_t r : cell.runs[0])
        {
            const std::string priority = runs[r].scenario.values.training_priority;
            same = same || priority == "same";
            low = low || priority == "low";
        }
        if (!same || !low)
        {
            throw DdnnError("--allocate: cell " + cell.name
                            + " has no runs at both same and low training priority: expected "
                              "<vary parameter=\"priority.training\" values=\"same low\"/>");
        }
        cell.given = std::min<size_t>(options.firstSeeds, cell.runs.size());
    }
}

std::vector<size_t>
SeedAllocation::Given() const
{
    std::vector<size_t> out;
    for (const Cell& cell : m_cells)
    {
        for (size_t k = 0; k < cell.given; ++k)
        {
            out.insert(out.end(), cell.runs[k].begin(), cell.runs[k].end());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool
SeedAllocation::Open() const
{
    return std::any_of(
        m_cells.begin(), m_cells.end(), [](const Cell& c) { return c.stopped.empty(); });
}

void
SeedAllocation::AddCpu(size_t run, double cpuS)
{
    Cell& cell = m_cells[m_cellOf.at(run)];
    cell.cpuS += cpuS;
    ++cell.cpuRuns;
}

void
SeedAllocation::Judge(const std::vector<CampaignRun>& runs)
{
    const double target = m_options.precision * 100;
    for (Cell& cell : m_cells)
    {
        if (!cell.stopped.empty())
        {
            continue;
        }
        std::vector<CampaignRun> finished;
        cell.estimateS = 0;
        for (size_t k = 0; k < cell.given; ++k)
        {
            for (size_t r : cell.runs[k])
            {
                finished.push_back(runs[r]);
                cell.estimateS += m_estimateS[r];
            }
        }
        ++cell.rounds;
        cell.iteration = ChangeOverSeeds(finished, "iteration_time_mean_s");
        cell.verdict = SlowdownVerdict(cell.iteration.change,
                                       m_options.thresholds.greenSlowdownPercent,
                                       m_options.thresholds.redSlowdownPercent);
        const bool decided = cell.verdict != "INCONCLUSIVE" && cell.verdict != "NA";
        const bool precise = target == 0 || HalfWidth(cell.iteration) <= target;
        if (decided && precise)
        {
            cell.stopped = "decided";
        }
        else if (cell.given == cell.runs.size())
        {
            cell.stopped = "cap";
        }
        else
        {
            ++cell.given;
        }
    }
}

std::pair<double, double>
SeedAllocation::EstimateS() const
{
    double first = 0;
    double every = 0;
    for (const Cell& cell : m_cells)
    {
        for (size_t k = 0; k < cell.runs.size(); ++k)
        {
            for (size_t r : cell.runs[k])
            {
                every += m_estimateS[r];
                first += k < m_options.firstSeeds ? m_estimateS[r] : 0;
            }
        }
    }
    return {first, every};
}

void
SeedAllocation::Write(const std::string& outDir, std::ostream& out) const
{
    const double target = m_options.precision * 100;
    AtomicFile csv(outDir + "/allocation.csv");
    csv.Out() << "cell,seeds_given,seeds_cap,rounds,seeds_at_both_priorities,"
                 "iteration_change_percent,ci_low_percent,ci_high_percent,interval_method,"
                 "verdict,target_half_width_points,estimated_cpu_s,cpu_s,cpu_runs,stopped,why\n";
    size_t atFirst = 0;
    size_t afterMore = 0;
    size_t capped = 0;
    double cpuS = 0;
    for (const Cell& cell : m_cells)
    {
        const size_t runsGiven = [&cell] {
            size_t n = 0;
            for (size_t k = 0; k < cell.given; ++k)
            {
                n += cell.runs[k].size();
            }
            return n;
        }();
        std::string why;
        const double half = HalfWidth(cell.iteration);
        if (cell.stopped == "decided")
        {
            why = cell.verdict
                  + (target > 0 ? " within +-" + FormatFigure(target, 3) + " points"
                                : ": its interval clear of the thresholds");
            (cell.rounds == 1 ? atFirst : afterMore)++;
        }
        else
        {
            why = cell.verdict == "INCONCLUSIVE" || cell.verdict == "NA"
                      ? cell.verdict + " after every seed"
                      : "half-width " + FormatFigure(half, 3) + " points above +-"
                            + FormatFigure(target, 3);
            ++capped;
        }
        cpuS += cell.cpuS;
        const ddnn_interval& c = cell.iteration.change;
        csv.Out() << cell.name << "," << cell.given << "," << cell.runs.size() << "," << cell.rounds
                  << "," << cell.iteration.seeds << "," << FormatFigure(c.estimate) << ","
                  << FormatFigure(c.low) << "," << FormatFigure(c.high) << ","
                  << cell.iteration.method << "," << cell.verdict << ","
                  << (target > 0 ? FormatFigure(target) : "NA") << ","
                  << FormatFigure(cell.estimateS) << ","
                  << (cell.cpuRuns == runsGiven ? FormatFigure(cell.cpuS) : "NA") << ","
                  << cell.cpuRuns << "," << cell.stopped << "," << why << "\n";
    }
    csv.Commit();
    out << "campaign: allocation over " << m_cells.size() << " cells: " << atFirst
        << " decided on their first " << m_options.firstSeeds << " seed(s), " << afterMore
        << " decided with more, " << capped
        << " stopped at their cap (every seed of the campaign) undecided; " << FormatFigure(cpuS, 4)
        << " CPU-s measured on the runs this runner ran; per cell: " << outDir << "/allocation.csv"
        << std::endl;
}

} // namespace ns3
