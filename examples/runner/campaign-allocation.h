/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CAMPAIGN_ALLOCATION_H
#define CAMPAIGN_ALLOCATION_H

#include "campaign-report.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/** What ddnn-campaign --allocate spends and when a cell has enough. */
struct AllocationOptions
{
    uint32_t firstSeeds{2}; //!< seeds every cell runs first (>= 1)
    /** Largest half-width of the iteration change, as a fraction (0.05: +-5 points); 0: a
     * verdict that does not straddle a threshold is enough. */
    double precision{0};
    ReportOptions thresholds; //!< the verdict's thresholds (SlowdownVerdict)
};

/**
 * \ingroup ddnn
 * \brief Spends a campaign's seeds where its answer is uncertain (ddnn-campaign --allocate).
 *
 * A cell is the set of runs with the same values in every dimension but the seed and the
 * training priority (or the policy case). The campaign's seed dimension lists every seed a
 * cell may get, in order: each cell first gets the first AllocationOptions::firstSeeds of
 * them, then, round after round, one more while the interval of its iteration change
 * straddles a verdict threshold or is wider than the precision asked, until its seeds run
 * out (the cap). allocation.csv says per cell what was spent and why it stopped.
 */
class SeedAllocation
{
  public:
    /**
     * The cells of a campaign's runs: the runs' points (CampaignRun::point) and, per run, its
     * estimated CPU seconds. Throws DdnnError, naming the option, when the campaign does not
     * vary run.seed or a cell lacks runs at both same and low priority.
     */
    SeedAllocation(const std::vector<CampaignRun>& runs,
                   const std::vector<double>& estimateS,
                   const AllocationOptions& options);

    /** The runs the open cells have been given so far (indices into the runs), in order. */
    std::vector<size_t> Given() const;
    /** True while some cell is open. */
    bool Open() const;
    /** Records the measured CPU seconds of run `run` (one this runner ran). */
    void AddCpu(size_t run, double cpuS);
    /**
     * Judges every open cell on its finished runs: it stops (decided, or at its cap) or gets
     * one more seed. `runs` are the constructor's.
     */
    void Judge(const std::vector<CampaignRun>& runs);
    /** The estimated CPU seconds of the first budget and of every seed (the worst case). */
    std::pair<double, double> EstimateS() const;
    /** Writes outDir/allocation.csv and prints one line per outcome on `out`. */
    void Write(const std::string& outDir, std::ostream& out) const;

  private:
    struct Cell
    {
        std::string name;                      //!< its point without seed and priority
        std::vector<std::vector<size_t>> runs; //!< [k]: its runs at the k-th seed
        size_t given{0};                       //!< seeds given: the first `given`
        uint32_t rounds{0};
        std::string stopped; //!< why it stopped; "" while open
        std::string verdict{"NA"};
        ChangeInterval iteration;
        double estimateS{0}; //!< estimated CPU of the runs given
        double cpuS{0};      //!< measured CPU of the runs this runner ran
        size_t cpuRuns{0};   //!< how many runs cpuS covers
    };

    AllocationOptions m_options;
    std::vector<Cell> m_cells;
    std::vector<double> m_estimateS;
    std::vector<size_t> m_cellOf; //!< run -> its cell
};

} // namespace ns3

#endif /* CAMPAIGN_ALLOCATION_H */
