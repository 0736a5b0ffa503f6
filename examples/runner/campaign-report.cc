/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "campaign-report.h"

#include "seed-reference.h"

#include "input-file.h"
#include "ns3/atomic-file.h"
#include "ns3/ddnn-csv.h"
#include "ns3/ddnn-file.h"
#include "ns3/ddnn-flow-stats.h"
#include "ns3/one-line-error.h"
#include "ns3/system-path.h"
#include "program-main.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/** A CSV file with a header row: column names and rows of fields. */
struct Table
{
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;

    size_t
    Column(const std::string& name, const std::string& path) const
    {
        auto it = std::find(columns.begin(), columns.end(), name);
        if (it == columns.end())
        {
            throw DdnnError(path + ": no column '" + name + "'");
        }
        return it - columns.begin();
    }
};

Table
ReadTable(const std::string& path)
{
    // The runs' own outputs: regular files only, of any size (a run's flows.csv may be large),
    // read by the C core's reader as text under their header's names.
    const std::string text = ReadInputFile(path, DDNN_FILE_ANY_SIZE, "a run's table");
    const auto csv = std::make_unique<ddnn_csv>();
    ddnn_csv_init(csv.get(), text.data(), text.size(), nullptr);
    ddnn_diag diag{};
    Table table;
    int rc;
    while ((rc = ddnn_csv_next(csv.get(), &diag)) == 1)
    {
        std::vector<std::string>& row = table.rows.emplace_back();
        for (int i = 0; i < ddnn_csv_field_count(csv.get()); ++i)
        {
            row.emplace_back(ddnn_csv_field(csv.get(), i));
        }
    }
    if (rc < 0)
    {
        char line[600];
        ddnn_diag_format(&diag, path.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    for (int i = 0; i < ddnn_csv_header_count(csv.get()); ++i)
    {
        table.columns.emplace_back(ddnn_csv_header_name(csv.get(), i));
    }
    return table;
}

/** Three significant digits, as text. */
std::string
Format3(double value)
{
    std::ostringstream os;
    os << std::setprecision(3) << value;
    return os.str();
}

/** A summary value: NaN for a missing one ("NA" or empty), never 0. */
double
Number(const std::string& text)
{
    if (text.empty() || text == "NA")
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return std::strtod(text.c_str(), nullptr);
}

/** A run's summary.csv as ordered (key, value) pairs. */
std::vector<std::pair<std::string, std::string>>
ReadSummary(const std::string& path)
{
    Table table = ReadTable(path);
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& row : table.rows)
    {
        pairs.emplace_back(row.at(0), row.size() > 1 ? row[1] : "");
    }
    return pairs;
}

/**
 * A path as a gnuplot string: single-quoted, where gnuplot substitutes no backquoted
 * command, a quote doubled. (The campaign refuses control characters in its folder, which
 * would end a gnuplot command.)
 */
std::string
GpQuoted(const std::string& path)
{
    std::string quoted = "'";
    for (char c : path)
    {
        quoted += c == '\'' ? std::string("''") : std::string(1, c);
    }
    return quoted + "'";
}

/**
 * A figure's title with the case it shows in front ("service=ring: ..."), the case's quotes
 * and backslashes replaced (the title sits in a gnuplot string); the title alone without one.
 */
std::string
CaseTitle(const std::string& label, const std::string& title)
{
    std::string out;
    for (char c : label)
    {
        out += c == '\'' || c == '"' || c == '\\' ? '_' : c;
    }
    return out.empty() ? title : out + ": " + title;
}

/** A CSV field: quoted (quotes doubled) where it holds a comma, a quote or a line break. */
std::string
CsvField(const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
    {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text)
    {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

/** gnuplot tics "('LABEL' 0, 'LABEL' 1, ...)": each value's index, labelled by `label`. */
std::string
IndexTics(const std::vector<double>& values, const std::function<std::string(double)>& label)
{
    std::string tics = "(";
    for (size_t i = 0; i < values.size(); ++i)
    {
        tics += (i ? ", '" : "'") + label(values[i]) + "' " + std::to_string(i);
    }
    return tics + ")";
}

/** Runs gnuplot on `script`, its messages into SCRIPT.log: no shell sees the path. */
void
RenderPlot(const std::string& script, const std::string& png)
{
    const std::string log = script + ".log";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(
        &actions, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> argv
        = {const_cast<char*>("gnuplot"), const_cast<char*>(script.c_str()), nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (spawned == ENOENT)
    {
        throw DdnnError("gnuplot not found: install the Debian package gnuplot-nox "
                        "(./ddnn campaign does)");
    }
    if (spawned != 0)
    {
        throw DdnnError("cannot start gnuplot: " + std::string(std::strerror(spawned)));
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        throw DdnnError("gnuplot failed on " + script + "; see " + log);
    }
    std::ifstream out(png, std::ios::binary | std::ios::ate);
    if (!out || out.tellg() <= 0)
    {
        throw DdnnError(png + ": gnuplot wrote nothing");
    }
}

std::ofstream
Open(const std::string& path)
{
    std::remove(path.c_str()); // a link planted there is removed, never written through
    std::ofstream out(path);
    if (!out)
    {
        throw DdnnError(path + ": cannot write: " + std::strerror(errno));
    }
    out << std::setprecision(10);
    return out;
}

/** A completed background flow of a run (a row of its flows.csv). */
struct CompletedFlow
{
    uint64_t bytes{0};
    double startS{0};
    double fctS{0};
    bool inWindow{false}; //!< started in the measurement window
};

/** A run's completed flows by flow id (the same ids at every priority of a seed). */
std::map<uint64_t, CompletedFlow>
CompletedFlows(const CampaignRun& run)
{
    std::map<uint64_t, CompletedFlow> flows;
    std::string path = run.dir + "/flows.csv";
    Table table = ReadTable(path);
    size_t id = table.Column("id", path);
    size_t size = table.Column("size_bytes", path);
    size_t start = table.Column("start_s", path);
    size_t time = table.Column("fct_s", path);
    size_t completed = table.Column("completed", path);
    size_t window = table.Column("in_window", path);
    for (const auto& row : table.rows)
    {
        if (row.at(completed) == "true")
        {
            flows[std::strtoull(row.at(id).c_str(), nullptr, 10)]
                = CompletedFlow{std::strtoull(row.at(size).c_str(), nullptr, 10),
                                Number(row.at(start)),
                                Number(row.at(time)),
                                row.at(window) == "true"};
        }
    }
    return flows;
}

/** Same-vs-low comparison of one (rcp, flow rate) point: each seed's values, by priority. */
struct Point
{
    double trainingLoad{0};   //!< util_training_expected
    double backgroundLoad{0}; //!< util_background_expected
    using Values = std::map<std::string, double>;
    std::map<uint32_t, Values> same; //!< seed -> key -> value (missing values left out)
    std::map<uint32_t, Values> low;
    std::map<uint32_t, const CampaignRun*> sameRun; //!< seed -> the run behind same[seed]
    std::map<uint32_t, const CampaignRun*> lowRun;
    uint32_t minIterations{0}; //!< the runs' thresholds: fewer samples are flagged
    uint32_t minFlows{0};
    double confidenceLevel{0.95}; //!< the runs' level of every interval
};

/**
 * The summary key counting the samples behind a figure's key: iterations measured, allreduces
 * (or their phases) measured or the class's completed flows; "" for a figure without samples
 * (utilization).
 */
std::string
SampleKey(const std::string& key)
{
    if (key.compare(0, 15, "iteration_time_") == 0)
    {
        return "iterations_measured";
    }
    if (key.compare(0, 15, "allreduce_time_") == 0)
    {
        return "allreduces_measured";
    }
    if (key.compare(0, 17, "aggregation_time_") == 0
        || key.compare(0, 18, "distribution_time_") == 0)
    {
        return "phases_measured";
    }
    if (key.compare(0, 4, "fct_") == 0)
    {
        const size_t end = key.find('_', 4);
        return "flows_" + key.substr(4, end - 4) + "_completed";
    }
    return "";
}

/** The fewest samples a run may have for `key` without being flagged (0: never flagged). */
uint32_t
MinimumSamples(const Point& p, const std::string& key)
{
    const std::string samples = SampleKey(key);
    if (samples.empty())
    {
        return 0;
    }
    if (samples.compare(0, 6, "flows_") == 0)
    {
        return p.minFlows;
    }
    return samples == "iterations_measured" ? std::max<uint32_t>(p.minIterations, 1) : 1;
}

/** The samples behind a key at one priority: the fewest over the seeds, and the run count. */
struct Evidence
{
    double fewest{std::numeric_limits<double>::quiet_NaN()}; //!< NaN: no run, or no count
    bool few{false}; //!< some run has fewer than the minimum (or none)
};

Evidence
EvidenceOf(const std::map<uint32_t, Point::Values>& seeds, const std::string& key, uint32_t minimum)
{
    Evidence e;
    const std::string samples = SampleKey(key);
    if (samples.empty())
    {
        return e;
    }
    for (const auto& [seed, values] : seeds)
    {
        auto it = values.find(samples);
        const double n = it == values.end() ? 0 : it->second;
        e.fewest = std::isnan(e.fewest) ? n : std::min(e.fewest, n);
    }
    e.few = !std::isnan(e.fewest) && e.fewest < minimum;
    return e;
}

/** "n=12/9" (the fewest samples over seeds at same / at low priority), ",few" when flagged. */
std::string
SamplesLabel(const Point& p, const std::string& key)
{
    const uint32_t minimum = MinimumSamples(p, key);
    const Evidence same = EvidenceOf(p.same, key, minimum);
    const Evidence low = EvidenceOf(p.low, key, minimum);
    auto count = [](double n) {
        return std::isnan(n) ? std::string("NA") : std::to_string(static_cast<uint64_t>(n));
    };
    return "n=" + count(same.fewest) + "/" + count(low.fewest)
           + (same.few || low.few ? ",few" : "");
}

bool
FewSamples(const Point& p, const std::string& key)
{
    const uint32_t minimum = MinimumSamples(p, key);
    return EvidenceOf(p.same, key, minimum).few || EvidenceOf(p.low, key, minimum).few;
}

/**
 * The change from same to low priority of one key, taken per seed (both priorities of a seed
 * see the same flows) and then summarised over the seeds that have both values: ours
 * relative to the same-priority value, and the thesis's relative to the low-priority one.
 * NaN (missing, a gap in the plots) when no seed has both.
 */
struct Change
{
    int seeds{0};
    double mean{std::numeric_limits<double>::quiet_NaN()}; //!< (low - same) / same, percent
    double min{std::numeric_limits<double>::quiet_NaN()};
    double max{std::numeric_limits<double>::quiet_NaN()};
    double meanVsLow{std::numeric_limits<double>::quiet_NaN()}; //!< (low - same) / low, percent
};

Change
PerSeedChange(const Point& p, const std::string& key)
{
    Change c;
    double sum = 0;
    double sumVsLow = 0;
    for (const auto& [seed, same] : p.same)
    {
        auto low = p.low.find(seed);
        auto a = same.find(key);
        if (low == p.low.end() || a == same.end() || a->second == 0)
        {
            continue;
        }
        auto b = low->second.find(key);
        if (b == low->second.end() || b->second == 0)
        {
            continue;
        }
        const double change = (b->second - a->second) / a->second * 100;
        c.min = c.seeds ? std::min(c.min, change) : change;
        c.max = c.seeds ? std::max(c.max, change) : change;
        sum += change;
        sumVsLow += (b->second - a->second) / b->second * 100;
        ++c.seeds;
    }
    if (c.seeds)
    {
        c.mean = sum / c.seeds;
        c.meanVsLow = sumVsLow / c.seeds;
    }
    return c;
}

/** The mean per-seed change (see PerSeedChange). */
double
ChangePercent(const Point& p, const std::string& key)
{
    return PerSeedChange(p, key).mean;
}

/**
 * The mean iteration period of a run as its summary.csv gives it (key: "..._mean_s"), with
 * the interval the run computed (batch means) and the standard error and degrees of freedom
 * behind it; without an interval where the summary has none.
 */
ddnn_interval
IterationFromSummary(const Point::Values& values, const std::string& key, double level)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::string stem = key.substr(0, key.size() - std::strlen("mean_s"));
    auto get = [&values, nan](const std::string& k) {
        auto it = values.find(k);
        return it == values.end() ? nan : it->second;
    };
    ddnn_interval i{get(key), get(stem + "ci_low_s"), get(stem + "ci_high_s"), nan, nan, 0, 0};
    const double batches = get(stem + "batches");
    double t = 0;
    if (std::isnan(i.low) || std::isnan(i.high) || !(batches >= 2)
        || ddnn_t_quantile(0.5 + level / 2, batches - 1, &t) != DDNN_OK)
    {
        i.low = i.high = nan;
        return i;
    }
    i.df = batches - 1;
    i.se = (i.high - i.low) / (2 * t);
    i.batches = static_cast<uint32_t>(batches);
    return i;
}

/**
 * The interval of the change of `key` from same to low priority at a point. With two seeds or
 * more: the seeds are independent replications, so the mean of their per-seed changes +-
 * t(seeds - 1) x its standard error. With one: the run's own interval, as ddnn-datacenter
 * --compare computes it (iteration means: the delta method on the batch means; FCTs: the
 * paired bootstrap over the flows completed in both runs); other figures have none (NA).
 */
ChangeInterval
IntervalOfChange(const Point& p, const std::string& key)
{
    ChangeInterval out;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out.change = ddnn_interval{nan, nan, nan, nan, nan, 0, 0};
    out.method = "NA";
    std::vector<double> changes;
    uint32_t seed = 0;
    for (const auto& [s, same] : p.same)
    {
        auto low = p.low.find(s);
        auto a = same.find(key);
        auto b = low == p.low.end() ? same.end() : low->second.find(key);
        if (low != p.low.end() && a != same.end() && b != low->second.end() && a->second != 0)
        {
            changes.push_back((b->second - a->second) / a->second * 100);
            seed = s;
        }
    }
    if (changes.size() >= 2)
    {
        if (ddnn_batch_means(changes.data(), changes.size(), p.confidenceLevel, &out.change)
            == DDNN_OK)
        {
            out.method = "seeds"; // below 20 seeds each is its own batch: independent samples
        }
        return out;
    }
    if (changes.size() != 1)
    {
        return out;
    }
    const std::string iteration = "iteration_time_mean_s";
    if (key.size() >= iteration.size()
        && key.compare(key.size() - iteration.size(), iteration.size(), iteration) == 0)
    {
        const ddnn_interval a = IterationFromSummary(p.same.at(seed), key, p.confidenceLevel);
        const ddnn_interval b = IterationFromSummary(p.low.at(seed), key, p.confidenceLevel);
        ddnn_change_of_means(&a, &b, p.confidenceLevel, &out.change);
        out.method = std::isnan(out.change.low) ? "NA" : "within-run";
        return out;
    }
    for (int c = 0; c < DDNN_FLOW_CLASSES; ++c)
    {
        const auto flowClass = static_cast<ddnn_flow_class>(c);
        const std::string name = std::string("fct_") + ddnn_flow_class_name(flowClass);
        const bool mean = key == name + "_mean_s";
        if (!mean && key != name + "_p99_s")
        {
            continue;
        }
        const auto same = CompletedFlows(*p.sameRun.at(seed));
        std::vector<double> a;
        std::vector<double> b;
        for (const auto& [id, flow] : CompletedFlows(*p.lowRun.at(seed)))
        {
            auto other = same.find(id);
            if (flow.inWindow && other != same.end()
                && (flowClass == DDNN_FLOWS_ALL || ddnn_flow_class_of(flow.bytes) == flowClass))
            {
                a.push_back(other->second.fctS);
                b.push_back(flow.fctS);
            }
        }
        ddnn_bootstrap_paired_change(a.data(),
                                     b.data(),
                                     a.size(),
                                     mean ? DDNN_STATISTIC_MEAN : DDNN_STATISTIC_P99,
                                     p.confidenceLevel,
                                     1,
                                     &out.change);
        out.method = std::isnan(out.change.low) ? "NA" : "within-run";
        return out;
    }
    out.change.estimate = changes[0];
    return out;
}

/**
 * A panel with nothing to draw: its axes and a note saying why, instead of a gnuplot error.
 * xrange: [1:10] is valid on log axes too; "[]" keeps a figure's explicit range (and its tics).
 */
void
EmptyPanel(std::ofstream& gp, const std::string& why, const std::string& xrange = "[1:10]")
{
    gp << "set label 99 '" << why << "' at graph 0.5, graph 0.5 center\n"
       << "plot " << xrange << " [0:1] 1/0 notitle\nunset label 99\n";
}

/** One panel of the given plot clauses, or an empty panel saying why there are none. */
void
PlotLines(std::ofstream& gp,
          const std::vector<std::string>& clauses,
          const std::string& why,
          const std::string& xrange = "[1:10]")
{
    if (clauses.empty())
    {
        EmptyPanel(gp, why, xrange);
        return;
    }
    gp << "plot ";
    for (size_t i = 0; i < clauses.size(); ++i)
    {
        gp << (i ? ", " : "") << clauses[i];
    }
    gp << "\n";
}

const char* const kPngTerminal = "set terminal pngcairo noenhanced size 1500,480 font ',10'\n";

/** The uplink share neither tenant used: 1 - training - background (measured, wire bytes). */
const char* const kLeftoverKey = "util_leftover_measured";

void
PlotPriorityEffect(const std::map<std::pair<double, double>, Point>& points,
                   const std::string& dir,
                   const std::string& label)
{
    std::set<double> rcps;
    for (const auto& [key, point] : points)
    {
        rcps.insert(key.first);
    }
    auto data = Open(dir + "/priority-effect.dat");
    data << "# per block: one R_cp_to_nw; columns: flow_rate, then for the mean FCT of small "
            "flows, of large flows and the mean iteration time: the change from same to low "
            "priority in percent, its mean over seeds, the low and high ends of its confidence "
            "interval (changes.csv's change_ci_*_percent and interval_method; NA where it has "
            "none), the fewest samples of a run at either priority (flows completed in the "
            "window, iterations measured) and 1 when a run has fewer than the minimum "
            "(min-flows, min-iterations), else 0\n";
    const char* keys[] = {"fct_small_mean_s", "fct_large_mean_s", "iteration_time_mean_s"};
    std::ostringstream titles;
    int block = 0;
    for (double rcp : rcps)
    {
        data << "# rcp " << rcp << "\n";
        for (const auto& [key, point] : points)
        {
            if (key.first == rcp)
            {
                data << key.second;
                for (const char* name : keys)
                {
                    const Change c = PerSeedChange(point, name);
                    const ddnn_interval ci = IntervalOfChange(point, name).change;
                    const uint32_t minimum = MinimumSamples(point, name);
                    const Evidence same = EvidenceOf(point.same, name, minimum);
                    const Evidence low = EvidenceOf(point.low, name, minimum);
                    data << " " << FormatFigure(c.mean) << " " << FormatFigure(ci.low) << " "
                         << FormatFigure(ci.high) << " "
                         << FormatFigure(std::min(same.fewest, low.fewest)) << " "
                         << (same.few || low.few ? 1 : 0);
                }
                data << "\n";
            }
        }
        data << "\n\n";
        titles << (block++ ? " " : "") << "R=" << rcp;
    }
    data.close();
    auto gp = Open(dir + "/priority-effect.gp");
    gp << kPngTerminal << "set output " << GpQuoted(dir + "/priority-effect.png") << "\n"
       << "titles = \"" << titles.str() << "\"\n"
       << "set datafile missing 'NA'\n"
       << "set multiplot layout 1,3 title '"
       << CaseTitle(label,
                    "Training at low instead of same priority: n = the fewest samples of a run; "
                    "hollow squares: fewer than the minimum")
       << "'\n"
       << "set xlabel 'background flows per second per server'\nset key outside bottom center "
          "horizontal\nset grid\nset xzeroaxis\n"
       // 0 % always in view: one point or a narrow spread is not blown up to fill the panel
       << "set yrange [*<0:0<*]\nset offsets 0, 0, graph 0.1, graph 0.1\n";
    const char* names[]
        = {"mean FCT of small flows (%)", "mean FCT of large flows (%)", "mean iteration time (%)"};
    for (int panel = 0; panel < 3; ++panel)
    {
        gp << "set ylabel 'change of " << names[panel] << "'\n";
        bool anySample = false;
        for (const auto& [key, point] : points)
        {
            anySample = anySample || !std::isnan(ChangePercent(point, keys[panel]));
        }
        if (!anySample)
        {
            EmptyPanel(gp,
                       std::string("no sample: no seed measured this at both priorities (NA in "
                                   "changes.csv)"));
            continue;
        }
        // columns of the panel's mean, interval, fewest samples and flag (see the .dat header)
        const int c = 2 + 5 * panel;
        const std::string mean = std::to_string(c);
        const std::string samples = std::to_string(c + 3);
        const std::string flag = std::to_string(c + 4);
        // The means as lines, the intervals as bars where there is one (a missing end drops
        // only the bar); one colour per R in both.
        gp << "plot for [i=0:" << block - 1 << "] " << GpQuoted(dir + "/priority-effect.dat")
           << " index i using 1:" << mean
           << " with linespoints lc i+1 pt 7 title word(titles, i+1).' (mean over seeds)', "
           << "for [i=0:" << block - 1 << "] '' index i using 1:" << mean << ":" << c + 1 << ":"
           << c + 2
           << " with yerrorbars lc i+1 pt 7 title (i == 0 ? 'confidence interval of "
              "the change (changes.csv)' : ''), "
           << "for [i=0:" << block - 1 << "] '' index i using 1:($" << flag << " > 0 ? $" << mean
           << " : NaN) with points pt 4 ps 3 lc rgb 'black' title (i == 0 ? 'fewer samples "
              "than the minimum' : ''), "
           << "for [i=0:" << block - 1 << "] '' index i using 1:" << mean
           << ":(sprintf('n=%d', int($" << samples
           << "))) with labels offset 0,1 font ',8' notitle\n";
    }
    gp << "unset multiplot\n";
    gp.close();
    RenderPlot(dir + "/priority-effect.gp", dir + "/priority-effect.png");
}

void
PlotOperatingBoundary(const std::map<std::pair<double, double>, Point>& points,
                      const std::string& dir,
                      const ReportOptions& options,
                      const std::string& caseLabel)
{
    std::vector<double> xs;
    std::vector<double> ys;
    for (const auto& [key, point] : points)
    {
        xs.push_back(point.backgroundLoad);
        ys.push_back(point.trainingLoad);
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    auto index = [](const std::vector<double>& v, double x) {
        return std::find(v.begin(), v.end(), x) - v.begin();
    };
    auto data = Open(dir + "/operating-boundary.dat");
    data << "# x_index y_index background_load training_load iteration_slowdown_percent "
            "small_flow_fct_change_percent large_flow_fct_change_percent (low vs same: negative "
            "is faster) slowdown_colour (green: at most "
         << options.greenSlowdownPercent << " %, yellow: at most " << options.redSlowdownPercent
         << " %, red: more, grey: no sample), then the three values as cell labels, then "
            "the samples behind each (n=S/L: the fewest of a run at same / at low priority; "
            "',few': a run has fewer than the minimum), then 1 where a value's samples are "
            "few, else 0 (three columns)\n";
    auto label = [](double value) {
        std::ostringstream os;
        os << std::fixed << std::setprecision(1) << value;
        return std::isnan(value) ? std::string("NA") : os.str();
    };
    for (const auto& [key, point] : points)
    {
        const double slowdown = ChangePercent(point, "iteration_time_mean_s");
        const char* colour = std::isnan(slowdown)                       ? "0xbbbbbb"
                             : slowdown <= options.greenSlowdownPercent ? "0x2e8b57"
                             : slowdown <= options.redSlowdownPercent   ? "0xffd700"
                                                                        : "0xdc143c";
        const double small = ChangePercent(point, "fct_small_mean_s");
        const double large = ChangePercent(point, "fct_large_mean_s");
        data << index(xs, point.backgroundLoad) << " " << index(ys, point.trainingLoad) << " "
             << point.backgroundLoad << " " << point.trainingLoad << " " << slowdown << " " << small
             << " " << large << " " << colour << " " << label(slowdown) << " " << label(small)
             << " " << label(large);
        for (const char* key : {"iteration_time_mean_s", "fct_small_mean_s", "fct_large_mean_s"})
        {
            data << " " << SamplesLabel(point, key);
        }
        for (const char* key : {"iteration_time_mean_s", "fct_small_mean_s", "fct_large_mean_s"})
        {
            data << " " << (FewSamples(point, key) ? 1 : 0);
        }
        data << "\n";
    }
    data.close();
    auto tics = [](const std::vector<double>& v) {
        return IndexTics(v, [](double x) {
            // tic labels are format strings: %% prints a percent sign
            std::ostringstream os;
            os << std::fixed << std::setprecision(1) << x * 100 << "%%";
            return os.str();
        });
    };
    auto gp = Open(dir + "/operating-boundary.gp");
    gp << kPngTerminal << "set output " << GpQuoted(dir + "/operating-boundary.png") << "\n"
       << "set multiplot layout 1,3 title '"
       << CaseTitle(caseLabel, "Operating boundary: training at low priority") << "'\n"
       << "set xtics " << tics(xs) << "\nset ytics " << tics(ys) << "\n"
       << "set xrange [-0.5:" << xs.size() - 0.5 << "]\nset yrange [-0.5:" << ys.size() - 0.5
       << "]\nset xlabel 'background load: expected flow bytes per second over the link rate (eq. "
          "5.3)'"
          "\nset ylabel 'training load: ring bytes per compute time over the link rate (eq. 5.2)'\n"
       << "set palette defined (-1 'red', 0 'white', 1 'forest-green')\nunset key\n"
       << "set style textbox opaque noborder fillcolor rgb 'white'\n"
       << "set label 98 'Cells: the change (mean over seeds), below it n=S/L, the fewest "
          "samples of a run at same / at low priority (iterations, or flows of the class); "
          "few: fewer than the minimum, the cell hatched' at screen 0.5, screen 0.025 center "
          "font ',9'\nset bmargin 5\n";
    struct Panel
    {
        const char* column; //!< in operating-boundary.dat
        const char* label;  //!< its text column
        const char* title;
        const char* sign; //!< green is good: a change below zero (faster)
        std::string key;  //!< the summary key whose change the panel shows
    };

    const Panel panels[]
        = {{"5", "9", "iteration slowdown (%)", "-1", "iteration_time_mean_s"},
           {"6", "10", "small-flow mean FCT change (%)", "-1", "fct_small_mean_s"},
           {"7", "11", "large-flow mean FCT change (%)", "-1", "fct_large_mean_s"}};
    // A cell's samples below its value, and hatching over a cell whose samples are few.
    // (drawn before the labels, which stay readable over it)
    auto hatch = [&](int which) {
        return ", '' using 1:($" + std::to_string(15 + which)
               + " > 0 ? $2 : NaN):(0.5):(0.5) with boxxyerror fillstyle pattern 5 transparent "
                 "lc rgb 'gray40'";
    };
    auto samples = [&](int which) {
        return ", '' using 1:2:" + std::to_string(12 + which)
               + " with labels offset 0,-1 font ',8' boxed";
    };
    // The operating map (thesis Fig. 5.19): the slowdown's cells by the traffic light.
    gp << "set title 'iteration slowdown (%): green <= " << options.greenSlowdownPercent
       << ", yellow <= " << options.redSlowdownPercent << ", red above'\n"
       << "plot " << GpQuoted(dir + "/operating-boundary.dat")
       << " using 1:2:(0.5):(0.5):8 with boxxyerror "
          "fillstyle solid lc rgb variable"
       << hatch(0) << ", '' using 1:2:9 with labels offset 0,0.5 boxed" << samples(0) << "\n";
    for (const auto& panel : panels)
    {
        if (panel.key == "iteration_time_mean_s")
        {
            continue; // drawn above, as the operating map
        }
        // A colour scale symmetric around zero, so that white is no change.
        double largest = 0;
        for (const auto& [key, point] : points)
        {
            largest = std::max(largest, std::abs(ChangePercent(point, panel.key)));
        }
        gp << "set cbrange [" << -std::max(largest, 1.0) << ":" << std::max(largest, 1.0) << "]\n"
           << "set title '" << panel.title << "'\n"
           << "set cblabel 'FCT change at low training priority (%): green faster, red slower'\n"
           << "plot " << GpQuoted(dir + "/operating-boundary.dat") << " using 1:2:(0.5):(0.5):("
           << panel.sign << "*$" << panel.column
           << ") with boxxyerror fillstyle solid fillcolor palette"
           << hatch(panel.key == "fct_small_mean_s" ? 1 : 2) << ", '' using 1:2:" << panel.label
           << " with labels offset 0,0.5 boxed" << samples(panel.key == "fct_small_mean_s" ? 1 : 2)
           << "\n";
    }
    gp << "unset multiplot\n";
    gp.close();
    RenderPlot(dir + "/operating-boundary.gp", dir + "/operating-boundary.png");
}

/** A panel of the figures against a parameter: a summary key, its title and axis unit. */
struct Metric
{
    std::string key;
    std::string title;
    std::string unit;   //!< the y axis label
    double scale;       //!< from the summary's unit (s, fraction of the link rate) to the axis's
    const char* colour; //!< of a utilization series (the FCT panels colour by priority)
};

/** The columns of every figure against a parameter, in their .dat's order. */
std::vector<Metric>
AgainstMetrics()
{
    const std::string small
        = "small flows (<= " + Format3(DDNN_SMALL_FLOW_MAX_BYTES / 1e3) + " KB)";
    const std::string medium = "medium flows";
    const std::string large
        = "large flows (>= " + Format3(DDNN_LARGE_FLOW_MIN_BYTES / 1e6) + " MB)";
    const std::string fct = "FCT (ms)";
    return {{"fct_small_mean_s", small + ": mean FCT", fct, 1e3, ""},
            {"fct_medium_mean_s", medium + ": mean FCT", fct, 1e3, ""},
            {"fct_large_mean_s", large + ": mean FCT", fct, 1e3, ""},
            {"fct_small_p99_s", small + ": 99th percentile FCT", fct, 1e3, ""},
            {"fct_medium_p99_s", medium + ": 99th percentile FCT", fct, 1e3, ""},
            {"fct_large_p99_s", large + ": 99th percentile FCT", fct, 1e3, ""},
            {"iteration_time_mean_s", "mean iteration time", "iteration time (ms)", 1e3, ""},
            {"util_training_measured", "training", "", 100, "dark-orange"},
            {"util_background_measured", "background", "", 100, "forest-green"},
            {kLeftoverKey, "leftover", "", 100, "gray50"}};
}

/**
 * R_p_to_hrvd of a point (eq. 5.5): background over training traffic per second, which is the
 * ratio of their expected loads (eqs. 5.3 and 5.2, as the run computed them from its scenario);
 * three digits, as R_cp_to_nw, so that equal ratios group; NaN without both loads.
 */
double
BackgroundToTraining(const Point& p)
{
    if (!(p.trainingLoad > 0) || std::isnan(p.backgroundLoad))
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return std::stod(Format3(p.backgroundLoad / p.trainingLoad));
}

/** A point of the grid placed on the x axis of a figure against a parameter. */
struct Placed
{
    double x;
    double rcp;
    double flowRate;
    const Point* point;
};

/**
 * One figure against a parameter (thesis Figs. 5.5, 5.8-5.18): mean and p99 FCT per size class,
 * iteration time, and the uplink utilization of each tenant and what they leave, at same and at
 * low training priority; each run (seed) a point, the mean over the seeds with a value a line
 * with open circles (a mean of one point shows too).
 */
void
PlotAgainst(std::vector<Placed> entries,
            const std::string& xLabel,
            const std::string& stem,
            const std::string& title,
            const std::string& dir)
{
    std::sort(entries.begin(), entries.end(), [](const Placed& a, const Placed& b) {
        return std::tie(a.x, a.rcp, a.flowRate) < std::tie(b.x, b.rcp, b.flowRate);
    });
    const std::vector<Metric> metrics = AgainstMetrics();
    const std::string file = dir + "/" + stem + ".dat";
    auto data = Open(file);
    // The samples behind the figures, after them (the fewest over the seeds on a mean row).
    const std::vector<std::string> counts = {"iterations_measured",
                                             "flows_small_completed",
                                             "flows_medium_completed",
                                             "flows_large_completed"};
    data << "# " << title << "\n# columns: x rcp flow_rate rph seed";
    for (const auto& m : metrics)
    {
        data << " " << m.key;
    }
    for (const auto& c : counts)
    {
        data << " " << c;
    }
    data << "\n# x: " << xLabel
         << "; rcp: R_cp_to_nw (eq. 5.1); flow_rate: background flows per second per server; "
            "rph: R_p_to_hrvd (eq. 5.5); times in s, utilization as a fraction of the link "
            "rate; NA: no sample (never 0); the last columns count the samples (on a mean row "
            "the fewest of its seeds)\n";
    // Per priority a block of a row per run, then one of the mean over seeds at each point.
    // Only blocks with rows are written: gnuplot does not count an empty one.
    std::map<std::string, int> blocks;
    int block = 0;
    for (const std::string priority : {"same", "low"})
    {
        for (const bool mean : {false, true})
        {
            std::ostringstream rows;
            for (const Placed& e : entries)
            {
                const auto& seeds = priority == "low" ? e.point->low : e.point->same;
                std::vector<std::pair<std::string, const Point::Values*>> lines;
                for (const auto& [seed, values] : seeds)
                {
                    lines.emplace_back(std::to_string(seed), &values);
                }
                if (lines.empty())
                {
                    continue;
                }
                const std::string where = FormatFigure(e.x) + " " + FormatFigure(e.rcp) + " "
                                          + FormatFigure(e.flowRate) + " "
                                          + FormatFigure(BackgroundToTraining(*e.point));
                if (!mean)
                {
                    for (const auto& [seed, values] : lines)
                    {
                        rows << where << " " << seed;
                        for (const auto& m : metrics)
                        {
                            auto it = values->find(m.key);
                            rows << " " << (it == values->end() ? "NA" : FormatFigure(it->second));
                        }
                        for (const auto& c : counts)
                        {
                            auto it = values->find(c);
                            rows << " " << (it == values->end() ? "NA" : FormatFigure(it->second));
                        }
                        rows << "\n";
                    }
                    continue;
                }
                rows << where << " mean";
                for (const auto& m : metrics)
                {
                    double sum = 0;
                    int n = 0;
                    for (const auto& [seed, values] : lines)
                    {
                        auto it = values->find(m.key);
                        if (it != values->end())
                        {
                            sum += it->second;
                            ++n;
                        }
                    }
                    rows << " " << (n ? FormatFigure(sum / n) : "NA");
                }
                for (const auto& c : counts)
                {
                    double fewest = std::numeric_limits<double>::quiet_NaN();
                    for (const auto& [seed, values] : lines)
                    {
                        auto it = values->find(c);
                        const double n = it == values->end() ? 0 : it->second;
                        fewest = std::isnan(fewest) ? n : std::min(fewest, n);
                    }
                    rows << " " << FormatFigure(fewest);
                }
                rows << "\n";
            }
            if (!rows.str().empty())
            {
                data << "# training at " << priority
                     << " priority: " << (mean ? "the mean over seeds at each x" : "a row per run")
                     << "\n"
                     << rows.str() << "\n\n";
                blocks[priority + (mean ? " mean" : " runs")] = block++;
            }
        }
    }
    data.close();

    // Points and mean line of one column at one priority; none when no run has a value.
    auto clauses = [&](size_t m,
                       const std::string& priority,
                       const std::string& colour,
                       const std::string& name,
                       std::vector<std::string>& plotted) {
        bool any = false;
        for (const Placed& e : entries)
        {
            for (const auto& [seed, values] : priority == "low" ? e.point->low : e.point->same)
            {
                any = any || values.count(metrics[m].key);
            }
        }
        if (!any)
        {
            return;
        }
        const std::string y = "$" + std::to_string(6 + m) + "*" + Format3(metrics[m].scale);
        const std::string using_ = " using 1:(" + y + ") ";
        const std::string runs
            = GpQuoted(file) + " index " + std::to_string(blocks.at(priority + " runs"));
        const std::string means
            = GpQuoted(file) + " index " + std::to_string(blocks.at(priority + " mean"));
        const std::string sampleKey = SampleKey(metrics[m].key);
        const auto at = std::find(counts.begin(), counts.end(), sampleKey);
        if (at == counts.end())
        {
            plotted.push_back(runs + using_ + "with points pt 7 ps 0.7 lc rgb '" + colour
                              + "' title '" + name + ", per seed'");
            plotted.push_back(means + using_ + "with linespoints lw 2 pt 6 ps 1.3 lc rgb '" + colour
                              + "' title '" + name + ", mean'");
            return;
        }
        // A run with fewer samples than the minimum is drawn hollow; the mean carries the
        // fewest samples of its seeds as a label.
        const std::string n = "$" + std::to_string(6 + metrics.size() + (at - counts.begin()));
        const std::string minimum
            = std::to_string(MinimumSamples(*entries.front().point, metrics[m].key));
        plotted.push_back(runs + " using 1:(" + n + " >= " + minimum + " ? " + y
                          + " : NaN) with points pt 7 ps 0.7 lc rgb '" + colour + "' title '" + name
                          + ", per seed'");
        bool few = false; // a hollow point to draw (and to explain in the key)
        for (const Placed& e : entries)
        {
            const uint32_t least = MinimumSamples(*e.point, metrics[m].key);
            few = few
                  || EvidenceOf(
                         priority == "low" ? e.point->low : e.point->same, metrics[m].key, least)
                         .few;
        }
        if (few)
        {
            plotted.push_back(runs + " using 1:(" + n + " < " + minimum + " ? " + y
                              + " : NaN) with points pt 6 ps 1.2 lc rgb '" + colour + "' title '"
                              + name + ", per seed, fewer than " + minimum + " samples'");
        }
        plotted.push_back(means + using_ + "with linespoints lw 2 pt 6 ps 1.3 lc rgb '" + colour
                          + "' title '" + name + ", mean (n: fewest samples of a seed)'");
        plotted.push_back(means + " using 1:(" + y + "):(sprintf('n=%d', int(" + n
                          + "))) with labels offset 0,0.9 font ',7' tc rgb '" + colour
                          + "' notitle");
    };

    std::set<double> xs;
    for (const Placed& e : entries)
    {
        xs.insert(e.x);
    }
    const double lo = *xs.begin();
    const double hi = *xs.rbegin();
    auto gp = Open(dir + "/" + stem + ".gp");
    gp << "set terminal pngcairo noenhanced size 1500,1150 font ',10'\nset output "
       << GpQuoted(dir + "/" + stem + ".png") << "\nset datafile missing 'NA'\n"
       << "set multiplot layout 3,3 title \"" << title
       << "\\npoints: one run each (its seed), lines: mean over seeds\"\n"
       << "set xlabel '" << xLabel
       << "'\nset grid\nset key top left samplen 2 font ',8'\n"
       // room above the data for the key
       << "set offsets 0, 0, graph 0.6, 0\n";
    // Explicit x ranges: one point is centred with room around it, not on a +-1 % axis. The
    // thesis doubles R and the flow rate from one configuration to the next: log 2 axes.
    if (lo > 0)
    {
        gp << "set logscale x 2\nset xrange [" << lo / 1.4 << ":" << hi * 1.4 << "]\n";
    }
    else
    {
        const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(std::abs(lo) * 0.5, 1.0);
        gp << "set xrange [" << lo - pad << ":" << hi + pad << "]\n";
    }
    if (xs.size() <= 12)
    {
        gp << "set xtics (";
        for (auto it = xs.begin(); it != xs.end(); ++it)
        {
            gp << (it == xs.begin() ? "" : ", ") << "'" << Format3(*it) << "' " << *it;
        }
        gp << ")\n";
    }
    // From zero: a single point or a narrow spread is not blown up to fill the panel.
    gp << "set yrange [0:*]\n";
    size_t m = 0;
    // The FCT and time panels, then the utilization ones (AgainstMetrics' order).
    for (; metrics[m].key.compare(0, 5, "util_") != 0; ++m)
    {
        std::vector<std::string> plotted;
        clauses(m, "same", "royalblue", "training same", plotted);
        clauses(m, "low", "red", "training low", plotted);
        gp << "set title '" << metrics[m].title << "'\nset ylabel '" << metrics[m].unit << "'\n";
        PlotLines(gp,
                  plotted,
                  metrics[m].key == "iteration_time_mean_s"
                      ? "no sample (NA): no iteration started in the window"
                      : "no sample (NA): no flow of this class completed",
                  "[]");
    }
    gp << "set yrange [0:1<*]\nset ylabel 'server uplink utilization (%, wire bytes)'\n";
    for (const std::string priority : {"same", "low"})
    {
        std::vector<std::string> plotted;
        for (size_t u = m; u < metrics.size(); ++u)
        {
            clauses(u, priority, metrics[u].colour, metrics[u].title, plotted);
        }
        gp << "set title 'uplink utilization per tenant, training at " << priority
           << " priority'\n";
        PlotLines(gp, plotted, "no run at " + priority + " priority", "[]");
    }
    gp << "unset multiplot\n";
    gp.close();
    RenderPlot(dir + "/" + stem + ".gp", dir + "/" + stem + ".png");
}

/**
 * The figures against a parameter: per R_cp_to_nw against the flow rate, and against
 * R_cp_to_nw per flow rate and per R_p_to_hrvd (constant traffic ratio, Figs. 5.17-5.18).
 */
void
PlotAgainstParameters(const std::map<std::pair<double, double>, Point>& points,
                      const std::string& dir,
                      const std::string& label)
{
    std::map<double, std::vector<Placed>> byRcp;
    std::map<double, std::vector<Placed>> byRate;
    std::map<double, std::vector<Placed>> byRatio;
    for (const auto& [key, point] : points)
    {
        if (point.same.empty() && point.low.empty())
        {
            continue; // only runs at high training priority
        }
        const auto [rcp, rate] = key;
        byRcp[rcp].push_back({rate, rcp, rate, &point});
        byRate[rate].push_back({rcp, rcp, rate, &point});
        const double ratio = BackgroundToTraining(point);
        if (!std::isnan(ratio))
        {
            byRatio[ratio].push_back({rcp, rcp, rate, &point});
        }
    }
    const std::string rcpLabel
        = "R_cp_to_nw: compute time over the ideal network time of the collective (eq. 5.1)";
    // A figure of the same points as one drawn before (a grid with one value on an axis) is
    // not drawn again under another name.
    std::set<std::set<const Point*>> drawn;
    auto first = [&drawn](const std::vector<Placed>& entries) {
        std::set<const Point*> points;
        for (const Placed& e : entries)
        {
            points.insert(e.point);
        }
        return drawn.insert(points).second;
    };
    for (const auto& [rcp, entries] : byRcp)
    {
        if (!first(entries))
        {
            continue;
        }
        PlotAgainst(
            entries,
            "background flows per second per server",
            "vs-flow-rate-rcp-" + Format3(rcp),
            CaseTitle(label, "R_cp_to_nw = " + Format3(rcp) + ": against the background flow rate"),
            dir);
    }
    for (const auto& [rate, entries] : byRate)
    {
        if (!first(entries))
        {
            continue;
        }
        PlotAgainst(
            entries,
            rcpLabel,
            "vs-rcp-flow-rate-" + FormatFigure(rate),
            CaseTitle(label,
                      FormatFigure(rate) + " background flows/s per server: against R_cp_to_nw"),
            dir);
    }
    for (const auto& [ratio, entries] : byRatio)
    {
        if (!first(entries))
        {
            continue;
        }
        PlotAgainst(
            entries,
            rcpLabel,
            "vs-rcp-rph-" + Format3(ratio),
            CaseTitle(label,
                      "R_p_to_hrvd = " + Format3(ratio)
                          + " (background / training traffic, eq. 5.5): against R_cp_to_nw"),
            dir);
    }
}

/** A run's completed flows that started in the window: their FCTs (s) by size class. */
std::map<ddnn_flow_class, std::vector<double>>
MeasuredFcts(const CampaignRun& run)
{
    std::map<ddnn_flow_class, std::vector<double>> fct;
    for (const auto& [id, flow] : CompletedFlows(run))
    {
        if (flow.inWindow)
        {
            fct[ddnn_flow_class_of(flow.bytes)].push_back(flow.fctS);
        }
    }
    return fct;
}

/** One block of a CDF .dat: the sorted values (in ms) and their cumulative fractions. */
void
WriteCdfBlock(std::ofstream& data, const std::string& title, std::vector<double>& values)
{
    std::sort(values.begin(), values.end());
    data << "# " << title << ": fct_ms cumulative_fraction\n";
    for (size_t i = 0; i < values.size(); ++i)
    {
        data << values[i] * 1e3 << " " << (i + 1.0) / values.size() << "\n";
    }
    data << "\n\n";
}

void
PlotFctCdf(const std::vector<CampaignRun>& runs, const std::string& dir, const std::string& label)
{
    // [class][priority] -> completed FCTs of flows in the window, over all runs
    std::map<std::string, std::map<std::string, std::vector<double>>> fct;
    for (const auto& run : runs)
    {
        for (auto& [c, values] : MeasuredFcts(run))
        {
            auto& all = fct[ddnn_flow_class_name(c)][run.scenario.values.training_priority];
            all.insert(all.end(), values.begin(), values.end());
        }
    }
    const uint32_t minimum = runs.front().scenario.values.min_flows;
    auto gp = Open(dir + "/fct-cdf.gp");
    gp << kPngTerminal << "set output " << GpQuoted(dir + "/fct-cdf.png") << "\n"
       << "set multiplot layout 1,3 title '"
       << CaseTitle(label,
                    "Flow completion times of the flows that started in the window and "
                    "completed, the runs (seeds, cells) pooled; n: flows; hollow circles: fewer "
                    "than "
                        + std::to_string(minimum) + " flows (min-flows)")
       << "'\n"
       << "set logscale x\nset xlabel 'FCT (ms)'\nset ylabel 'fraction of flows'\nset grid\n"
       << "set key bottom right\nset yrange [0:1]\n";
    for (const char* name : {"small", "medium", "large"})
    {
        std::string file = dir + "/fct-cdf-" + name + ".dat";
        auto data = Open(file);
        std::vector<std::string> plotted;
        int block = 0;
        for (auto& [priority, values] : fct[name])
        {
            const size_t n = values.size();
            WriteCdfBlock(data, "training priority " + priority, values);
            const std::string at = GpQuoted(file) + " index " + std::to_string(block++);
            // The colours of the figures against a parameter: same blue, low red.
            const std::string colour = priority == "same"  ? "royalblue"
                                       : priority == "low" ? "red"
                                                           : "dark-orange";
            plotted.push_back(at + " using 1:2 with steps lc rgb '" + colour + "' title 'training "
                              + priority + " (n=" + std::to_string(n)
                              + (n < minimum ? ", few samples" : "") + ")'");
            if (n < minimum)
            {
                plotted.push_back(at + " using 1:2 with points pt 6 ps 1.5 lc rgb '" + colour
                                  + "' notitle");
            }
        }
        gp << "set title '" << name << " flows'\n";
        PlotLines(gp,
                  plotted,
                  std::string("no ") + name
                      + " flow started in the window and completed, in any run");
    }
    gp << "unset multiplot\n";
    gp.close();
    RenderPlot(dir + "/fct-cdf.gp", dir + "/fct-cdf.png");
}

/**
 * Small-flow FCT CDFs per configuration (thesis Fig. 5.6): a panel per compute setting and
 * flow rate, a line per seed and training priority, so that the spread between seeds shows.
 */
void
PlotSmallFctCdfs(const std::vector<CampaignRun>& runs,
                 const std::string& dir,
                 const std::string& label)
{
    // configuration -> "priority, seed" -> completed FCTs of small flows in the window
    std::map<std::string, std::map<std::string, std::vector<double>>> fct;
    for (const auto& run : runs)
    {
        const ddnn_scenario& s = run.scenario.values;
        std::ostringstream config;
        config << (s.jobs[0].compute_ms > 0 ? "compute " + Format3(s.jobs[0].compute_ms) + " ms"
                                            : "R=" + Format3(s.jobs[0].rcp))
               << ", " << Format3(s.flow_rate) << " flows/s";
        fct[config.str()][std::string(s.training_priority) + ", seed " + std::to_string(s.seed)]
            = MeasuredFcts(run)[DDNN_FLOWS_SMALL];
    }
    const uint32_t minimum = runs.front().scenario.values.min_flows;
    const size_t columns = std::min<size_t>(4, fct.size());
    const size_t rows = (fct.size() + columns - 1) / columns;
    auto gp = Open(dir + "/small-fct-cdf.gp");
    gp << "set terminal pngcairo noenhanced size " << std::max<size_t>(640, 420 * columns) << ","
       << 380 * rows + 60 << " font ',9'\nset output " << GpQuoted(dir + "/small-fct-cdf.png")
       << "\n"
       << "set multiplot layout " << rows << "," << columns << " title '"
       << CaseTitle(label,
                    "Small-flow FCT per configuration: a line per training priority and seed "
                    "(n: small flows that started in the window and completed)")
       << "'\n"
       << "set logscale x\nset xlabel 'FCT (ms)'\nset ylabel 'fraction of small flows'\nset grid\n"
       << "set key bottom right\nset yrange [0:1]\n";
    int panel = 0;
    for (auto& [config, lines] : fct)
    {
        std::string file = dir + "/small-fct-cdf-" + std::to_string(panel++) + ".dat";
        auto data = Open(file);
        data << "# " << config << "\n";
        std::vector<std::string> plotted;
        int block = 0;
        for (auto& [line, values] : lines)
        {
            WriteCdfBlock(data, "training " + line, values);
            if (!values.empty())
            {
                const std::string at = GpQuoted(file) + " index " + std::to_string(block);
                const bool few = values.size() < minimum;
                plotted.push_back(at + " using 1:2 with steps title '" + line
                                  + " (n=" + std::to_string(values.size())
                                  + (few ? ", few samples" : "") + ")'");
                if (few)
                {
                    plotted.push_back(at + " using 1:2 with points pt 6 ps 1.5 notitle");
                }
            }
            ++block;
        }
        gp << "set title '" << config << "'\n";
        PlotLines(gp, plotted, "no small flow started in the window and completed");
    }
    gp << "unset multiplot\n";
    gp.close();
    RenderPlot(dir + "/small-fct-cdf.gp", dir + "/small-fct-cdf.png");
}

/** A run's allreduce start times (s): every buffer's, from its buffers.csv. */
std::vector<double>
AllreduceStarts(const CampaignRun& run)
{
    std::string path = run.dir + "/buffers.csv";
    Table buffers = ReadTable(path);
    size_t start = buffers.Column("start_s", path);
    std::vector<double> starts;
    for (const auto& row : buffers.rows)
    {
        const double t = Number(row.at(start));
        if (!std::isnan(t))
        {
            starts.push_back(t);
        }
    }
    std::sort(starts.begin(), starts.end());
    return starts;
}

/**
 * Per-flow FCT at low minus at same training priority on the simulated timeline, with the
 * allreduce starts of both runs marked (thesis Fig. 5.7). Both priorities of a seed see the
 * same flows, paired by flow id. Shown for one cell: the most loaded (expected training plus
 * background load; the first in (R_cp_to_nw, flow rate) order on a tie), its first seed run at
 * both priorities.
 */
void
PlotFctDifference(const std::map<std::pair<double, double>, Point>& points,
                  const std::string& dir,
                  const std::string& label)
{
    const Point* chosen = nullptr;
    std::pair<double, double> where;
    uint32_t seed = 0;
    double heaviest = -std::numeric_limits<double>::infinity();
    for (const auto& [key, point] : points)
    {
        double load = point.trainingLoad + point.backgroundLoad;
        load = std::isnan(load) ? -std::numeric_limits<double>::max() : load;
        for (const auto& [s, run] : point.sameRun)
        {
            if (point.lowRun.count(s) && (chosen == nullptr || load > heaviest))
            {
                chosen = &point;
                where = key;
                seed = s;
                heaviest = load;
            }
            if (point.lowRun.count(s))
            {
                break; // the cell's first seed at both priorities
            }
        }
    }
    if (chosen == nullptr)
    {
        std::cerr << "campaign report: no seed ran at both same and low training priority; "
                     "fct-difference plot skipped"
                  << std::endl;
        return;
    }
    const CampaignRun& same = *chosen->sameRun.at(seed);
    const CampaignRun& low = *chosen->lowRun.at(seed);
    const auto sameFlows = CompletedFlows(same);
    const auto lowFlows = CompletedFlows(low);
    std::map<ddnn_flow_class, std::ostringstream> rows;
    std::map<ddnn_flow_class, double> largest;  // |difference| in ms, for a symmetric axis
    std::map<ddnn_flow_class, size_t> inWindow; // flows plotted, started in the window
    std::map<ddnn_flow_class, size_t> outside;  // and not
    size_t unpaired = 0;
    for (const auto& [id, a] : sameFlows)
    {
        auto b = lowFlows.find(id);
        if (b == lowFlows.end())
        {
            continue; // did not complete in both
        }
        if (b->second.bytes != a.bytes || b->second.startS != a.startS)
        {
            ++unpaired; // not the same flow: the runs did not replay the same flows
            continue;
        }
        const ddnn_flow_class c = ddnn_flow_class_of(a.bytes);
        const double difference = b->second.fctS - a.fctS;
        rows[c] << FormatFigure(a.startS) << " " << id << " " << a.bytes << " "
                << FormatFigure(a.fctS) << " " << FormatFigure(b->second.fctS) << " "
                << FormatFigure(difference) << " " << (a.inWindow ? "true" : "false") << "\n";
        largest[c] = std::max(largest[c], std::abs(difference) * 1e3);
        ++(a.inWindow ? inWindow[c] : outside[c]);
    }
    std::ostringstream title;
    title << CaseTitle(label, "")
          << "FCT at low minus at same training priority per flow: R_cp_to_nw = "
          << Format3(where.first) << ", " << FormatFigure(where.second)
          << " flows/s per server, seed " << seed << " (the most loaded cell, its first seed)";
    const std::string file = dir + "/fct-difference.dat";
    auto data = Open(file);
    data << "# " << title.str() << "\n# same run: " << same.dir << "\n# low run: " << low.dir
         << "\n# flows completed in both runs; flow blocks: start_s id size_bytes fct_same_s "
            "fct_low_s fct_low_minus_same_s in_window\n";
    if (unpaired)
    {
        data << "# left out: " << unpaired
             << " flow ids of different size or start in the two runs\n";
    }
    // Only blocks with rows are written: gnuplot does not count an empty one.
    int block = 0;
    std::map<ddnn_flow_class, int> flowBlock;
    for (auto& [c, text] : rows)
    {
        data << "# " << ddnn_flow_class_name(c) << " flows\n" << text.str() << "\n\n";
        flowBlock[c] = block++;
    }
    std::vector<std::string> marks;
    for (const auto& [name, run, colour] :
         {std::make_tuple("same", &same, "#a04169e1"), std::make_tuple("low", &low, "#a0ff0000")})
    {
        const std::vector<double> starts = AllreduceStarts(*run);
        if (starts.empty())
        {
            continue;
        }
        data << "# allreduce starts (every buffer's) of the run at " << name
             << " priority: start_s\n";
        for (double t : starts)
        {
            data << FormatFigure(t) << "\n";
        }
        data << "\n\n";
        // full-height lines on the second y axis, [0:1]
        marks.push_back(GpQuoted(file) + " index " + std::to_string(block++)
                        + " using 1:(1) axes x1y2 with impulses lc rgb '" + colour
                        + "' title 'allreduce start, training " + name + "'");
    }
    data.close();

    const ddnn_scenario& s = same.scenario.values;
    auto gp = Open(dir + "/fct-difference.gp");
    gp << "set terminal pngcairo noenhanced size 1500,1100 font ',10'\nset output "
       << GpQuoted(dir + "/fct-difference.png") << "\n"
       << "set multiplot layout 3,1 title \"" << title.str()
       << "\\nvertical lines: allreduce starts; dashed: the measurement window\"\n"
       << "set xrange [0:" << s.duration_s << "]\nset xlabel 'simulated time (s), flow start'\n"
       << "set ylabel 'FCT low - same (ms)'\nset y2range [0:1]\nunset y2tics\nset grid\n"
       << "set xzeroaxis lt -1\nset key outside right font ',8'\n"
       // fixed margins: a panel without a key (an empty one) keeps the others' time axis
       << "set lmargin at screen 0.07\nset rmargin at screen 0.83\n"
       << "set arrow 1 from " << s.warmup_s << ", graph 0 to " << s.warmup_s
       << ", graph 1 nohead dt 2 lc rgb 'gray30'\n"
       << "set arrow 2 from " << s.duration_s - s.cooldown_s << ", graph 0 to "
       << s.duration_s - s.cooldown_s << ", graph 1 nohead dt 2 lc rgb 'gray30'\n";
    for (const ddnn_flow_class c : {DDNN_FLOWS_SMALL, DDNN_FLOWS_MEDIUM, DDNN_FLOWS_LARGE})
    {
        const std::string name = ddnn_flow_class_name(c);
        gp << "set title '" << name << " flows'\n";
        if (!flowBlock.count(c))
        {
            EmptyPanel(gp, "no " + name + " flow completed in both runs", "[]");
            continue;
        }
        // Symmetric around 0 and never narrower than 1 us: a single point is not blown up.
        const double range = std::max(largest[c], 1e-3) * 1.15;
        gp << "set yrange [" << -range << ":" << range << "]\n";
        std::vector<std::string> plotted = marks;
        // Flows that started outside the measurement window are in no statistic: drawn hollow
        // and grey, apart from the counted ones.
        const std::string at = GpQuoted(file) + " index " + std::to_string(flowBlock[c]);
        plotted.push_back(at
                          + " using 1:(strcol(7) eq 'true' ? $6*1e3 : NaN) with points pt 7 "
                            "ps 0.6 lc rgb 'black' title '"
                          + name + " flow in the window (n=" + std::to_string(inWindow[c]) + ")'");
        plotted.push_back(at
                          + " using 1:(strcol(7) eq 'true' ? NaN : $6*1e3) with points pt 6 "
                            "ps 0.6 lc rgb 'gray50' title 'outside the window, not counted (n="
                          + std::to_string(outside[c]) + ")'");
        PlotLines(gp, plotted, "");
    }
    gp << "unset multiplot\n";
    gp.close();
    RenderPlot(dir + "/fct-difference.gp", dir + "/fct-difference.png");
}

void
PlotTrainingProgression(const CampaignRun& run, const std::string& dir)
{
    std::string buffersPath = run.dir + "/buffers.csv";
    std::string iterationsPath = run.dir + "/iterations.csv";
    Table buffers = ReadTable(buffersPath);
    Table iterations = ReadTable(iterationsPath);
    auto data = Open(dir + "/training-progression.dat");
    data << "# block 0: iteration spans of worker 0 (start_ms y duration_ms 0); block 1: "
            "buffer transfers (start_ms buffer allreduce_ms 0 iteration)\n";
    size_t worker = iterations.Column("worker", iterationsPath);
    size_t start = iterations.Column("start_s", iterationsPath);
    size_t duration = iterations.Column("duration_s", iterationsPath);
    for (const auto& row : iterations.rows)
    {
        if (row.at(worker) == "0")
        {
            data << Number(row.at(start)) * 1e3 << " -1 " << Number(row.at(duration)) * 1e3
                 << " 0\n";
        }
    }
    data << "\n\n";
    size_t iteration = buffers.Column("iteration", buffersPath);
    size_t buffer = buffers.Column("buffer", buffersPath);
    size_t bufferStart = buffers.Column("start_s", buffersPath);
    size_t allreduce = buffers.Column("allreduce_s", buffersPath);
    for (const auto& row : buffers.rows)
    {
        data << Number(row.at(bufferStart)) * 1e3 << " " << row.at(buffer) << " "
             << Number(row.at(allreduce)) * 1e3 << " 0 " << row.at(iteration) << "\n";
    }
    data.close();
    auto gp = Open(dir + "/training-progression.gp");
    gp << kPngTerminal << "set output " << GpQuoted(dir + "/training-progression.png") << "\n"
       << "set title 'Training progression of run " << run.name
       << ": iterations (y = -1) and each buffer''s allreduce'\n"
       << "set xlabel 'time (ms)'\nset ylabel 'fusion buffer (0 = last layers)'\nset grid\n"
       << "set key outside right\n"
       << "plot " << GpQuoted(dir + "/training-progression.dat")
       << " index 0 using 1:2:3:4 with vectors nohead lw 6 "
          "title 'iteration (forward, backward, sync)', '' index 1 using 1:2:3:4:5 with "
          "vectors nohead lw 3 lc variable title 'buffer allreduce (colour: iteration)'\n";
    gp.close();
    RenderPlot(dir + "/training-progression.gp", dir + "/training-progression.png");
}

/**
 * One iteration of worker 0 in detail (thesis Figs 5.20-5.23): each layer's forward and
 * backward compute, each buffer's allreduce and the partitions worker 0 sent for it, on a
 * time axis starting at the iteration's start. The iteration is the middle one worker 0
 * completed, away from the start-up and the end of the run.
 */
void
PlotIterationDetail(const CampaignRun& run, const std::string& dir)
{
    const std::string layersPath = run.dir + "/layers.csv";
    const std::string iterationsPath = run.dir + "/iterations.csv";
    const std::string buffersPath = run.dir + "/buffers.csv";
    const std::string partitionsPath = run.dir + "/partitions.csv";
    auto gp = Open(dir + "/iteration-detail.gp");
    gp << "set terminal pngcairo noenhanced size 1500,900 font ',10'\n"
       << "set output " << GpQuoted(dir + "/iteration-detail.png") << "\n"
       << "set multiplot layout 2,1\nset grid\nset key outside right\n"
       << "set lmargin at screen 0.06\nset rmargin at screen 0.86\n" // aligned time axes
       << "set xlabel 'time since the iteration started (ms)'\n";
    // Both panels empty, saying why.
    auto nothingToShow = [&](const std::string& why) {
        gp << "set title 'Iteration detail of run " << run.name << "'\n";
        EmptyPanel(gp, why);
        EmptyPanel(gp, why);
        gp << "unset multiplot\n";
        gp.close();
        RenderPlot(dir + "/iteration-detail.gp", dir + "/iteration-detail.png");
    };
    if (!PathExists(layersPath))
    {
        nothingToShow("no layers.csv in the run (written from the LayerCompute trace)");
        return;
    }
    const Table iterations = ReadTable(iterationsPath);
    std::vector<std::pair<std::string, double>> completed; // worker 0: iteration, start_s
    {
        const size_t worker = iterations.Column("worker", iterationsPath);
        const size_t iteration = iterations.Column("iteration", iterationsPath);
        const size_t start = iterations.Column("start_s", iterationsPath);
        const size_t end = iterations.Column("end_s", iterationsPath);
        for (const auto& row : iterations.rows)
        {
            if (row.at(worker) == "0" && !std::isnan(Number(row.at(end))))
            {
                completed.emplace_back(row.at(iteration), Number(row.at(start)));
            }
        }
    }
    auto data = Open(dir + "/iteration-detail.dat");
    if (completed.empty())
    {
        data.close();
        nothingToShow("worker 0 completed no iteration");
        return;
    }
    const std::string shown = completed[completed.size() / 2].first;
    const double origin = completed[completed.size() / 2].second;
    auto ms = [origin](double seconds) { return (seconds - origin) * 1e3; };
    data << "# run " << run.name << ", worker 0, iteration " << shown
         << "; times in ms since the iteration started\n"
         << "# block 0: forward (start_ms layer duration_ms 0); block 1: backward (same); "
            "block 2: buffer allreduce (start_ms buffer duration_ms 0); block 3: partitions "
            "worker 0 sent (time_ms buffer bytes)\n";
    const Table layers = ReadTable(layersPath);
    const size_t layerIteration = layers.Column("iteration", layersPath);
    const size_t layerWorker = layers.Column("worker", layersPath);
    const size_t layer = layers.Column("layer", layersPath);
    const size_t pass = layers.Column("pass", layersPath);
    const size_t layerStart = layers.Column("start_s", layersPath);
    const size_t layerEnd = layers.Column("end_s", layersPath);
    double lastMs = 0;   // both panels share the time axis up to the last span's end
    double topLayer = 0; // and each its own rows, half a row of margin around them
    double topBuffer = 0;
    for (const char* which : {"forward", "backward"})
    {
        for (const auto& row : layers.rows)
        {
            if (row.at(layerWorker) == "0" && row.at(layerIteration) == shown
                && row.at(pass) == which)
            {
                data << ms(Number(row.at(layerStart))) << " " << row.at(layer) << " "
                     << (Number(row.at(layerEnd)) - Number(row.at(layerStart))) * 1e3 << " 0\n";
                lastMs = std::max(lastMs, ms(Number(row.at(layerEnd))));
                topLayer = std::max(topLayer, Number(row.at(layer)));
            }
        }
        data << "\n\n";
    }
    const Table buffers = ReadTable(buffersPath);
    const size_t bufferIteration = buffers.Column("iteration", buffersPath);
    const size_t buffer = buffers.Column("buffer", buffersPath);
    const size_t bufferStart = buffers.Column("start_s", buffersPath);
    const size_t allreduce = buffers.Column("allreduce_s", buffersPath);
    for (const auto& row : buffers.rows)
    {
        if (row.at(bufferIteration) == shown && !std::isnan(Number(row.at(allreduce))))
        {
            data << ms(Number(row.at(bufferStart))) << " " << row.at(buffer) << " "
                 << Number(row.at(allreduce)) * 1e3 << " 0\n";
            lastMs = std::max(lastMs,
                              ms(Number(row.at(bufferStart))) + Number(row.at(allreduce)) * 1e3);
            topBuffer = std::max(topBuffer, Number(row.at(buffer)));
        }
    }
    data << "\n\n";
    const Table partitions = ReadTable(partitionsPath);
    const size_t partWorker = partitions.Column("worker", partitionsPath);
    const size_t partIteration = partitions.Column("iteration", partitionsPath);
    const size_t partBuffer = partitions.Column("buffer", partitionsPath);
    const size_t partBytes = partitions.Column("bytes", partitionsPath);
    const size_t event = partitions.Column("event", partitionsPath);
    const size_t time = partitions.Column("time_s", partitionsPath);
    for (const auto& row : partitions.rows)
    {
        if (row.at(partWorker) == "0" && row.at(partIteration) == shown && row.at(event) == "sent")
        {
            data << ms(Number(row.at(time))) << " " << row.at(partBuffer) << " "
                 << row.at(partBytes) << "\n";
        }
    }
    data.close();
    const std::string file = GpQuoted(dir + "/iteration-detail.dat");
    gp << "set xrange [0:" << lastMs * 1.02 << "]\n"
       << "set title 'Run " << run.name << ", worker 0, iteration " << shown
       << ": compute per layer'\nset ylabel 'layer'\nset yrange [-0.5:" << topLayer + 0.5 << "]\n"
       << "plot " << file << " index 0 using 1:2:3:4 with vectors nohead lw 4 lc rgb '#1f77b4' "
       << "title 'forward', '' index 1 using 1:2:3:4 with vectors nohead lw 4 lc rgb '#d62728' "
       << "title 'backward'\n"
       << "set title 'Allreduce of each fusion buffer (0 = last layers) and the partitions "
          "worker 0 sent'\nset ylabel 'fusion buffer'\nset yrange [-0.5:"
       << topBuffer + 0.5 << "]\n"
       << "plot " << file << " index 2 using 1:2:3:4 with vectors nohead lw 6 lc rgb '#2ca02c' "
       << "title 'allreduce', '' index 3 using 1:2 with points pt 2 ps 0.6 lc rgb 'black' "
       << "title 'partition sent'\n"
       << "unset multiplot\n";
    gp.close();
    RenderPlot(dir + "/iteration-detail.gp", dir + "/iteration-detail.png");
}

void
PlotUtilization(const CampaignRun& run, const std::string& dir)
{
    std::string path = run.dir + "/utilization.csv";
    Table table = ReadTable(path);
    size_t time = table.Column("time_s", path);
    size_t link = table.Column("link", path);
    size_t tenant = table.Column("tenant", path);
    size_t utilization = table.Column("utilization", path);
    std::map<std::string, std::map<double, double>> series; // tenant -> time -> sum
    for (const auto& row : table.rows)
    {
        const std::string& name = row.at(link);
        if (name.size() > 3 && name.compare(name.size() - 3, 3, "-up") == 0)
        {
            series[row.at(tenant)][Number(row.at(time))] += Number(row.at(utilization));
        }
    }
    auto data = Open(dir + "/utilization.dat");
    std::vector<std::string> plotted;
    int block = 0;
    for (const auto& [name, points] : series)
    {
        data << "# tenant " << name << ": time_s mean_uplink_utilization_percent\n";
        for (const auto& [t, sum] : points)
        {
            data << t << " " << sum / run.scenario.values.workers * 100 << "\n";
        }
        data << "\n\n";
        plotted.push_back(GpQuoted(dir + "/utilization.dat") + " index " + std::to_string(block++)
                          + " using 1:2 with steps title '" + name + "'");
    }
    data.close();
    auto gp = Open(dir + "/utilization.gp");
    gp << kPngTerminal << "set output " << GpQuoted(dir + "/utilization.png") << "\n"
       << "set title 'Mean server uplink utilization per tenant, run " << run.name << "'\n"
       << "set xlabel 'time (s)'\nset ylabel 'utilization (%, wire bytes)'\nset grid\n";
    if (plotted.empty())
    {
        // A run without packets (the ideal transport, no flows): an empty frame that says so.
        gp << "set label 'no traffic measured' at graph 0.5, 0.5 center\n"
           << "plot [0:1] [0:100] -1 notitle\n";
    }
    else
    {
        gp << "plot ";
        for (size_t i = 0; i < plotted.size(); ++i)
        {
            gp << (i ? ", " : "") << plotted[i];
        }
        gp << "\n";
    }
    gp.close();
    RenderPlot(dir + "/utilization.gp", dir + "/utilization.png");
}

/**
 * The priority policies of a campaign with a dimension of cases named "policy" (see
 * data/scenarios/policy-grid.xml): its case "same" (training at the background's priority) is
 * the baseline, its case "low" all-low; every other case is a policy compared with the
 * baseline of the same cell and seed (both see the same flows).
 */
const char* const kPolicyDimension = "policy";
const char* const kBaselineCase = "same";
const char* const kAllLowCase = "low";
/**
 * Whether a run is compared by its training priority: every run of a campaign without
 * policies, and the baseline and all-low cases of one with.
 */
bool
IsPriorityRun(const CampaignRun& run)
{
    auto policy = run.cases.find(kPolicyDimension);
    return policy == run.cases.end() || policy->second == kBaselineCase
           || policy->second == kAllLowCase;
}

/** Adds a run and its summary.csv `row` to its point: its figures as its priority's side. */
void
AddToPoint(Point& point, const CampaignRun& run, const std::map<std::string, std::string>& row)
{
    const ddnn_scenario& s = run.scenario.values;
    auto expected = [&row](const char* key) {
        auto it = row.find(key);
        return it == row.end() ? std::numeric_limits<double>::quiet_NaN() : Number(it->second);
    };
    point.trainingLoad = expected("util_training_expected");
    point.backgroundLoad = expected("util_background_expected");
    point.minIterations = s.min_iterations;
    point.minFlows = s.min_flows;
    point.confidenceLevel = s.confidence;
    // A campaign of policies compares its "same" and "low" cases as any campaign does its
    // priorities; its other cases are policies (ComparePolicies).
    if (!IsPriorityRun(run) || !(Is(s.training_priority, "low") || Is(s.training_priority, "same")))
    {
        return;
    }
    const bool low = Is(s.training_priority, "low");
    auto& side = low ? point.low[s.seed] : point.same[s.seed];
    (low ? point.lowRun : point.sameRun)[s.seed] = &run;
    for (const auto& [key, value] : row)
    {
        const double number = Number(value);
        if (!std::isnan(number)) // a missing value is not averaged as data
        {
            side[key] = number;
        }
    }
    // What the tenants leave of the server uplinks (thesis Figs. 5.11-5.12).
    auto training = side.find("util_training_measured");
    auto background = side.find("util_background_measured");
    if (training != side.end() && background != side.end())
    {
        side[kLeftoverKey] = 1 - training->second - background->second;
    }
}

/** A policy "keeps" training when it slows the iteration by at most this. */
const double kPolicySlowdownLimitPercent = 2;
/** ... and meets the target when it keeps this share of all-low's small-flow gain. */
const double kPolicyGainShare = 0.8;

/**
 * One figure of a policy in one cell: its per-seed values' mean, min and max, and the
 * confidence interval of the mean with the seeds as independent replications (a
 * t-interval, as changes.csv's "seeds" method; NA below two seeds).
 */
struct Spread
{
    int seeds{0};
    double mean{std::numeric_limits<double>::quiet_NaN()};
    double min{std::numeric_limits<double>::quiet_NaN()};
    double max{std::numeric_limits<double>::quiet_NaN()};
    std::vector<double> values;

    void
    Add(double value)
    {
        if (std::isnan(value))
        {
            return;
        }
        min = seeds ? std::min(min, value) : value;
        max = seeds ? std::max(max, value) : value;
        mean = (seeds ? mean * seeds + value : value) / (seeds + 1);
        ++seeds;
        values.push_back(value);
    }

    /** The interval at `level`: low and high, NA below two seeds. */
    std::pair<double, double>
    Interval(double level) const
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        ddnn_interval i{};
        if (values.size() < 2
            || ddnn_batch_means(values.data(), values.size(), level, &i) != DDNN_OK)
        {
            return {nan, nan};
        }
        return {i.low, i.high};
    }
};

/** A policy against the baseline in one cell. */
struct PolicyFigures
{
    Spread slowdown;  //!< iteration time, percent above the baseline's
    Spread smallGain; //!< small flows' mean FCT, percent below the baseline's
    Spread p99Gain;   //!< small flows' p99 FCT, percent below the baseline's
    double fewestIterations{std::numeric_limits<double>::quiet_NaN()};
    double fewestSmallFlows{std::numeric_limits<double>::quiet_NaN()};
    bool few{false};    //!< a run has fewer samples than its minimum
    double level{0.95}; //!< the runs' confidence level (summary.csv's confidence_level)
};

/**
 * Whether a policy meets the target (at most kPolicySlowdownLimitPercent slower, at least
 * kPolicyGainShare of all-low's mean small-flow gain), judged on its intervals over the seeds:
 * "true" where the slowdown interval lies at or below the limit and the gain interval at or
 * above the share, "false" where either lies wholly on the wrong side, "inconclusive" where an
 * interval spans its threshold, "NA" without an interval (fewer than two seeds) or gain.
 */
std::string
TargetVerdict(const PolicyFigures& policy, double lowGainMean)
{
    const auto [slowLow, slowHigh] = policy.slowdown.Interval(policy.level);
    const auto [gainLow, gainHigh] = policy.smallGain.Interval(policy.level);
    const double gainNeeded = kPolicyGainShare * lowGainMean;
    if (std::isnan(slowLow) || std::isnan(gainLow) || !(lowGainMean > 0))
    {
        return "NA";
    }
    if (slowLow > kPolicySlowdownLimitPercent || gainHigh < gainNeeded)
    {
        return "false";
    }
    return slowHigh <= kPolicySlowdownLimitPercent && gainLow >= gainNeeded ? "true"
                                                                            : "inconclusive";
}

/** Writes policies.csv and policy-map.csv, and draws the trade-off plots and the policy map. */
void
ComparePolicies(const std::vector<CampaignRun>& runs,
                const std::string& outDir,
                const std::string& dir)
{
    using Values = std::map<std::string, double>;
    // cell (rcp, flow rate) -> case -> seed -> summary values
    std::map<std::pair<double, double>, std::map<std::string, std::map<uint32_t, Values>>> cells;
    std::vector<std::string> policies; // in the campaign's order
    uint32_t minIterations = 1;
    uint32_t minFlows = 0;
    for (const auto& run : runs)
    {
        auto policy = run.cases.find(kPolicyDimension);
        if (policy == run.cases.end())
        {
            continue;
        }
        Values values;
        for (const auto& [key, value] : ReadSummary(run.dir + "/summary.csv"))
        {
            values[key] = Number(value);
        }
        const double load = values["util_training_expected"];
        const double rcp = load > 0 ? std::stod(Format3(1 / load)) : 0;
        const ddnn_scenario& s = run.scenario.values;
        cells[{rcp, s.flow_rate}][policy->second][s.seed] = values;
        if (std::find(policies.begin(), policies.end(), policy->second) == policies.end())
        {
            policies.push_back(policy->second);
        }
        minIterations = std::max<uint32_t>(s.min_iterations, 1);
        minFlows = s.min_flows;
    }
    if (cells.empty())
    {
        return;
    }
    if (std::find(policies.begin(), policies.end(), kBaselineCase) == policies.end())
    {
        std::cerr << "campaign report: the '" << kPolicyDimension << "' cases have no '"
                  << kBaselineCase << "' to compare with; policy plots skipped" << std::endl;
        return;
    }
    policies.erase(std::find(policies.begin(), policies.end(), kBaselineCase));
    auto figuresOf = [&](const std::map<std::string, std::map<uint32_t, Values>>& cell,
                         const std::string& policy) {
        PolicyFigures f;
        auto base = cell.find(kBaselineCase);
        auto other = cell.find(policy);
        if (base == cell.end() || other == cell.end())
        {
            return f;
        }
        auto get = [](const Values& v, const char* key) {
            auto it = v.find(key);
            return it == v.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
        };
        for (const auto& [seed, values] : other->second)
        {
            auto same = base->second.find(seed);
            if (same == base->second.end())
            {
                continue;
            }
            const Values& b = same->second;
            if (!std::isnan(get(values, "confidence_level")))
            {
                f.level = get(values, "confidence_level");
            }
            f.slowdown.Add(
                (get(values, "iteration_time_mean_s") / get(b, "iteration_time_mean_s") - 1) * 100);
            f.smallGain.Add((1 - get(values, "fct_small_mean_s") / get(b, "fct_small_mean_s"))
                            * 100);
            f.p99Gain.Add((1 - get(values, "fct_small_p99_s") / get(b, "fct_small_p99_s")) * 100);
            for (const Values* v : {&values, &b})
            {
                const double iterations = get(*v, "iterations_measured");
                const double flows = get(*v, "flows_small_completed");
                f.fewestIterations = std::isnan(f.fewestIterations)
                                         ? iterations
                                         : std::min(f.fewestIterations, iterations);
                f.fewestSmallFlows
                    = std::isnan(f.fewestSmallFlows) ? flows : std::min(f.fewestSmallFlows, flows);
                f.few = f.few || !(iterations >= minIterations) || !(flows >= minFlows);
            }
        }
        return f;
    };

    AtomicFile table(outDir + "/policies.csv");
    table.Out() << "rcp,flow_rate,policy,seeds,slowdown_mean_percent,slowdown_min_percent,"
                   "slowdown_max_percent,small_gain_mean_percent,small_gain_min_percent,"
                   "small_gain_max_percent,small_p99_gain_mean_percent,"
                   "small_p99_gain_min_percent,small_p99_gain_max_percent,iterations_fewest,"
                   "small_flows_fewest,few_samples,share_of_low_small_gain_percent,"
                   "slowdown_ci_low_percent,slowdown_ci_high_percent,"
                   "small_gain_ci_low_percent,small_gain_ci_high_percent,"
                   "small_p99_gain_ci_low_percent,small_p99_gain_ci_high_percent,"
                   "interval_method\n";
    AtomicFile map(outDir + "/policy-map.csv");
    map.Out() << "rcp,flow_rate,best_policy,slowdown_mean_percent,small_gain_mean_percent,"
                 "low_small_gain_mean_percent,share_of_low_small_gain_percent,target_met\n";
    std::vector<double> rcps;
    std::vector<double> rates;
    for (const auto& [where, cell] : cells)
    {
        rcps.push_back(where.first);
        rates.push_back(where.second);
    }
    std::sort(rcps.begin(), rcps.end());
    rcps.erase(std::unique(rcps.begin(), rcps.end()), rcps.end());
    std::sort(rates.begin(), rates.end());
    rates.erase(std::unique(rates.begin(), rates.end()), rates.end());
    auto index = [](const std::vector<double>& v, double x) {
        return std::find(v.begin(), v.end(), x) - v.begin();
    };
    auto tradeoff = Open(dir + "/policy-tradeoff.dat");
    tradeoff << "# per cell (a block each, in the order of policy-tradeoff.gp's panels): "
                "slowdown mean and confidence interval low high (%), small-flow mean FCT gain "
                "mean low high (%), p99 gain mean low high (%) (the interval over seeds, NA "
                "below two), policy (',few': a run has fewer samples than its minimum)\n";
    auto mapData = Open(dir + "/policy-map.dat");
    mapData << "# x_index y_index colour label (best policy: largest small-flow gain at most "
            << kPolicySlowdownLimitPercent << " % slower)\n";
    int block = 0;
    std::map<std::pair<double, double>, int> blockOf;
    std::map<std::pair<double, double>, std::pair<double, double>> slowdownRange;
    for (const auto& [where, cell] : cells)
    {
        const PolicyFigures low = figuresOf(cell, kAllLowCase);
        std::string best;
        PolicyFigures bestFigures;
        bool any = false;
        for (const std::string& policy : policies)
        {
            const PolicyFigures f = figuresOf(cell, policy);
            const double share = low.smallGain.mean > 0
                                     ? f.smallGain.mean / low.smallGain.mean * 100
                                     : std::numeric_limits<double>::quiet_NaN();
            table.Out() << where.first << "," << where.second << "," << policy << ","
                        << f.slowdown.seeds << "," << FormatFigure(f.slowdown.mean) << ","
                        << FormatFigure(f.slowdown.min) << "," << FormatFigure(f.slowdown.max)
                        << "," << FormatFigure(f.smallGain.mean) << ","
                        << FormatFigure(f.smallGain.min) << "," << FormatFigure(f.smallGain.max)
                        << "," << FormatFigure(f.p99Gain.mean) << "," << FormatFigure(f.p99Gain.min)
                        << "," << FormatFigure(f.p99Gain.max) << ","
                        << FormatFigure(f.fewestIterations) << ","
                        << FormatFigure(f.fewestSmallFlows) << ","
                        << (f.slowdown.seeds ? (f.few ? "true" : "false") : "NA") << ","
                        << FormatFigure(share);
            for (const Spread* spread : {&f.slowdown, &f.smallGain, &f.p99Gain})
            {
                const auto [low, high] = spread->Interval(f.level);
                table.Out() << "," << FormatFigure(low) << "," << FormatFigure(high);
            }
            table.Out() << "," << (f.slowdown.seeds >= 2 ? "seeds" : "NA") << "\n";
            if (f.slowdown.seeds == 0)
            {
                continue;
            }
            any = true;
            for (const Spread* spread : {&f.slowdown, &f.smallGain, &f.p99Gain})
            {
                const auto [low, high] = spread->Interval(f.level);
                tradeoff << FormatFigure(spread->mean) << " " << FormatFigure(low) << " "
                         << FormatFigure(high) << " ";
            }
            tradeoff << "\"" << policy << (f.few ? ",few" : "") << "\"\n";
            // Each panel shows no slowdown and the limit, and every point and bar.
            const auto [ciLow, ciHigh] = f.slowdown.Interval(f.level);
            auto& [low, high] = slowdownRange[where];
            low = std::min({low, f.slowdown.mean, std::isnan(ciLow) ? 0.0 : ciLow, 0.0});
            high = std::max({high,
                             f.slowdown.mean,
                             std::isnan(ciHigh) ? 0.0 : ciHigh,
                             kPolicySlowdownLimitPercent * 1.5});
            // A policy that gains nothing for the small flows is no answer: "none" then.
            if (f.slowdown.mean <= kPolicySlowdownLimitPercent && f.smallGain.mean > 0
                && (best.empty() || f.smallGain.mean > bestFigures.smallGain.mean))
            {
                best = policy;
                bestFigures = f;
            }
        }
        if (any)
        {
            tradeoff << "\n\n";
            blockOf[where] = block++;
        }
        const double share = !best.empty() && low.smallGain.mean > 0
                                 ? bestFigures.smallGain.mean / low.smallGain.mean * 100
                                 : std::numeric_limits<double>::quiet_NaN();
        const std::string target
            = best.empty() ? "NA" : TargetVerdict(bestFigures, low.smallGain.mean);
        const bool met = target == "true";
        map.Out() << where.first << "," << where.second << "," << (best.empty() ? "none" : best)
                  << "," << FormatFigure(bestFigures.slowdown.mean) << ","
                  << FormatFigure(bestFigures.smallGain.mean) << ","
                  << FormatFigure(low.smallGain.mean) << "," << FormatFigure(share) << "," << target
                  << "\n";
        std::ostringstream label;
        label << std::fixed << std::setprecision(1) << (best.empty() ? "none" : best);
        if (!best.empty())
        {
            label << "\\n"
                  << bestFigures.slowdown.mean << " % slower, small " << bestFigures.smallGain.mean
                  << " % faster";
        }
        if (!std::isnan(share))
        {
            label << "\\n" << share << " % of all-low's gain; target: " << target;
        }
        mapData << index(rates, where.second) << " " << index(rcps, where.first) << " "
                << (best.empty() ? "0xbbbbbb"
                    : met        ? "0x2e8b57"
                                 : "0xffd700")
                << " \"" << label.str() << "\"\n";
    }
    table.Commit();
    map.Commit();
    tradeoff.close();
    mapData.close();

    // Trade-off: a panel per cell, rows by R_cp_to_nw and columns by flow rate.
    for (const bool p99 : {false, true})
    {
        const std::string name = p99 ? "policy-tradeoff-p99" : "policy-tradeoff";
        auto gp = Open(dir + "/" + name + ".gp");
        gp << "set terminal pngcairo noenhanced size " << std::max<size_t>(1000, 420 * rates.size())
           << "," << 340 * rcps.size() << " font ',9'\nset output "
           << GpQuoted(dir + "/" + name + ".png") << "\nset multiplot layout " << rcps.size() << ","
           << rates.size()
           << " title 'Priority policies against training at the same priority (mean over "
              "seeds, bars: confidence interval over seeds; dashed: "
           << kPolicySlowdownLimitPercent << " % slowdown)'\n"
           << "set xlabel 'iteration slowdown (%)'\nset ylabel 'small-flow "
           << (p99 ? "p99" : "mean") << " FCT gain (%)'\nunset key\nset grid\n";
        for (auto rcp = rcps.rbegin(); rcp != rcps.rend(); ++rcp)
        {
            for (double rate : rates)
            {
                gp << "set title 'R_cp_to_nw " << *rcp << ", " << rate << " flows/s'\n";
                auto found = blockOf.find({*rcp, rate});
                if (found == blockOf.end())
                {
                    EmptyPanel(gp, "no policy and baseline of one seed");
                    continue;
                }
                const int y = p99 ? 7 : 4; // mean, then the interval's low and high
                const auto [low, high] = slowdownRange[{*rcp, rate}];
                const double pad = (high - low) * 0.05;
                gp << "set xrange [" << low - pad << ":" << high + pad << "]\nset arrow 1 from "
                   << kPolicySlowdownLimitPercent << ", graph 0 to " << kPolicySlowdownLimitPercent
                   << ", graph 1 nohead dt 2\n"
                   << "set datafile missing 'NA'\n"
                   << "plot " << GpQuoted(dir + "/policy-tradeoff.dat") << " index "
                   << found->second << " using 1:" << y << " with points pt 7, '' index "
                   << found->second << " using 1:" << y << ":2:3:" << y + 1 << ":" << y + 2
                   << " with xyerrorbars pt 7, '' index " << found->second << " using 1:" << y
                   << ":10 with labels offset 0,1 font ',8'\nunset arrow 1\n";
            }
        }
        gp << "unset multiplot\n";
        gp.close();
        RenderPlot(dir + "/" + name + ".gp", dir + "/" + name + ".png");
    }

    // The policy map: per cell, the policy with the largest small-flow gain that keeps
    // training; green where it keeps 80 % of all-low's gain.
    auto tics = [](const std::vector<double>& v, const char* unit) {
        return IndexTics(v, [unit](double x) { return Format3(x) + unit; });
    };
    auto gp = Open(dir + "/policy-map.gp");
    gp << "set terminal pngcairo noenhanced size " << 300 * rates.size() + 200 << ","
       << 160 * rcps.size() + 160 << " font ',9'\nset output " << GpQuoted(dir + "/policy-map.png")
       << "\n"
       << "set title 'Policy map: the largest small-flow gain at most "
       << kPolicySlowdownLimitPercent << " % slower (green: 80 % of all-low''s gain or more, "
       << "yellow: less, grey: none)'\n"
       << "set xtics " << tics(rates, " flows/s") << "\nset ytics " << tics(rcps, "")
       << "\nset xlabel 'background flow rate per server'\nset ylabel 'R_cp_to_nw'\n"
       << "set xrange [-0.5:" << rates.size() - 0.5 << "]\nset yrange [-0.5:" << rcps.size() - 0.5
       << "]\nunset key\n"
       << "plot " << GpQuoted(dir + "/policy-map.dat")
       << " using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid lc rgb variable, '' using "
          "1:2:4 with labels font ',8'\n";
    gp.close();
    RenderPlot(dir + "/policy-map.gp", dir + "/policy-map.png");
}

/** The dimensions the report draws against or compares by: not cases of their own. */
bool
DrawnAgainst(const std::string& dimension)
{
    return dimension == "priority.training" || dimension == "run.seed"
           || dimension == "training.rcp" || dimension == "training.compute-ms"
           || dimension == "background.flow-rate" || dimension == kPolicyDimension;
}

/**
 * The case a run is in: its values in the dimensions the report does not draw against
 * ("service=ring topology.queue-disc=prio"); "" in a campaign without such dimensions.
 * Figures and tables are per case: nothing is pooled across cases.
 */
std::string
CaseLabel(const CampaignRun& run)
{
    std::string label;
    for (const auto& [dimension, value] : run.point)
    {
        if (!DrawnAgainst(dimension))
        {
            label += (label.empty() ? "" : " ") + dimension + "=" + value;
        }
    }
    return label;
}

/** A case's report folder under report/: "case-" and its label, safe as a folder name. */
std::string
CaseFolder(const std::string& label)
{
    std::string folder = "case-";
    for (unsigned char c : label)
    {
        folder += std::isalnum(c) || c == '.' || c == '-' || c == '=' ? static_cast<char>(c) : '_';
    }
    return folder;
}

/** The runs of one case, as the report compares them: (rcp, flow rate) -> point. */
using CasePoints = std::map<std::pair<double, double>, Point>;

/** The dimension of a scaled replica's factor (scaled-replica.h). */
constexpr const char* kScaleDimension = "run.scale";

/**
 * A campaign that varies run.scale with 1 among its values: scale-validation.csv compares, per
 * scaled case, cell and figure, the replica's same-to-low change with the full-scale case's
 * (the case whose label has run.scale=1 instead), and says whether the replica's mean change
 * falls inside the full-scale interval; one line per scale on the terminal.
 */
void
CompareScales(const std::vector<std::string>& labels,
              const std::map<std::string, CasePoints>& cases,
              const std::string& outDir,
              const ReportOptions& options)
{
    const std::string prefix = std::string(kScaleDimension) + "=";
    // label -> (the scale, the label without it); the full-scale label of each such rest
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> scaled;
    std::map<std::string, std::string> fullOf;
    for (const std::string& label : labels)
    {
        const size_t at = label.find(prefix);
        if (at == std::string::npos)
        {
            continue;
        }
        const size_t end = std::min(label.find(' ', at), label.size());
        const std::string scale = label.substr(at + prefix.size(), end - at - prefix.size());
        const std::string rest = label.substr(0, at) + label.substr(end);
        if (Number(scale) == 1)
        {
            fullOf[rest] = label;
        }
        else
        {
            scaled.push_back({label, {scale, rest}});
        }
    }
    if (scaled.empty())
    {
        return;
    }
    AtomicFile file(outDir + "/scale-validation.csv");
    std::ofstream& csv = file.Out();
    csv << "case,scale,rcp,flow_rate,key,full_seeds,full_change_percent,full_ci_low_percent,"
           "full_ci_high_percent,scaled_seeds,scaled_change_percent,scaled_ci_low_percent,"
           "scaled_ci_high_percent,inside_full_interval,full_verdict,scaled_verdict\n";
    std::cout << "scaled replicas against full scale (inside: the replica's mean same-to-low "
                 "change within the full-scale interval; "
              << outDir << "/scale-validation.csv):\n";
    for (const auto& [label, what] : scaled)
    {
        const auto& [scale, rest] = what;
        auto full = fullOf.count(rest) ? cases.find(fullOf.at(rest)) : cases.end();
        uint32_t inside = 0;
        uint32_t compared = 0;
        uint32_t verdictsSame = 0;
        uint32_t verdicts = 0; // cells where both sides' intervals decide a verdict
        uint32_t undecided = 0;
        for (const auto& [where, point] : cases.at(label))
        {
            const Point* fullPoint = nullptr;
            if (full != cases.end())
            {
                auto it = full->second.find(where);
                fullPoint = it == full->second.end() ? nullptr : &it->second;
            }
            for (const char* key : {"iteration_time_mean_s",
                                    "fct_small_mean_s",
                                    "fct_small_p99_s",
                                    "fct_medium_mean_s",
                                    "fct_medium_p99_s",
                                    "fct_large_mean_s",
                                    "fct_large_p99_s"})
            {
                const bool iteration = std::string(key) == "iteration_time_mean_s";
                const ChangeInterval scaledChange = IntervalOfChange(point, key);
                const double scaledMean = ChangePercent(point, key);
                ChangeInterval fullChange{};
                double fullMean = std::numeric_limits<double>::quiet_NaN();
                fullChange.change.low = fullChange.change.high = fullMean;
                if (fullPoint != nullptr)
                {
                    fullChange = IntervalOfChange(*fullPoint, key);
                    fullMean = ChangePercent(*fullPoint, key);
                }
                const bool known = !std::isnan(scaledMean) && !std::isnan(fullChange.change.low)
                                   && !std::isnan(fullChange.change.high);
                const bool in = known && scaledMean >= fullChange.change.low
                                && scaledMean <= fullChange.change.high;
                compared += known;
                inside += in;
                auto verdict = [&](const ChangeInterval& c) {
                    return iteration ? SlowdownVerdict(
                               c.change, options.greenSlowdownPercent, options.redSlowdownPercent)
                                     : std::string();
                };
                if (iteration && known)
                {
                    // Two INCONCLUSIVE verdicts agree on nothing: counted apart.
                    const bool decided = verdict(fullChange) != "INCONCLUSIVE"
                                         && verdict(scaledChange) != "INCONCLUSIVE";
                    verdicts += decided;
                    undecided += !decided;
                    verdictsSame += decided && verdict(fullChange) == verdict(scaledChange);
                }
                csv << CsvField(label) << "," << scale << "," << where.first << "," << where.second
                    << "," << key << ","
                    << (fullPoint != nullptr ? PerSeedChange(*fullPoint, key).seeds : 0) << ","
                    << FormatFigure(fullMean) << "," << FormatFigure(fullChange.change.low) << ","
                    << FormatFigure(fullChange.change.high) << ","
                    << PerSeedChange(point, key).seeds << "," << FormatFigure(scaledMean) << ","
                    << FormatFigure(scaledChange.change.low) << ","
                    << FormatFigure(scaledChange.change.high) << ","
                    << (known ? (in ? "yes" : "no") : "NA") << ","
                    << (fullPoint != nullptr ? verdict(fullChange) : "") << ","
                    << verdict(scaledChange) << "\n";
            }
        }
        std::cout << "  " << label << ": " << inside << " of " << compared
                  << " changes inside the full-scale interval"
                  << (compared == 0 ? " (no full-scale cell to compare: run.scale=1 missing)" : "")
                  << "; iteration verdict the same in " << verdictsSame << " of " << verdicts
                  << " cells where both decide one (" << undecided
                  << " with an inconclusive side)\n";
    }
    file.Commit();
}

} // namespace

void
WriteCampaignReport(const std::vector<CampaignRun>& runs,
                    const std::string& outDir,
                    const ReportOptions& options)
{
    if (runs.empty())
    {
        throw DdnnError("campaign report: no runs");
    }
    // summary.csv: the parameters of each run, then every key of its summary.csv
    std::vector<std::string> keys;
    std::vector<std::map<std::string, std::string>> values;
    std::vector<std::string> labels; // the cases, in the campaign's order
    std::map<std::string, CasePoints> cases;
    for (const auto& run : runs)
    {
        std::string path = run.dir + "/summary.csv";
        std::map<std::string, std::string> row;
        for (const auto& [key, value] : ReadSummary(path))
        {
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
            {
                keys.push_back(key);
            }
            row[key] = value;
        }
        values.push_back(row);
        const std::string label = CaseLabel(run);
        if (std::find(labels.begin(), labels.end(), label) == labels.end())
        {
            labels.push_back(label);
        }
        // The compute-to-network ratio in effect (eq. 5.2: the reciprocal of the training
        // load), whether the run gave rcp or a compute time; 3 digits keep 16, 8, 4, 2 exact.
        const double load = Number(row["util_training_expected"]);
        const double rcp = load > 0 ? std::stod(Format3(1 / load)) : 0;
        AddToPoint(cases[label][{rcp, run.scenario.values.flow_rate}], run, row);
    }
    AtomicFile summary(outDir + "/summary.csv");
    std::ofstream& csv = summary.Out();
    csv << "run,case,workers,rcp,compute_ms,flow_rate,training_priority,seed,transport";
    for (const auto& key : keys)
    {
        if (key != "workers" && key != "training_priority")
        {
            csv << "," << key;
        }
    }
    csv << "\n" << std::setprecision(12);
    for (size_t i = 0; i < runs.size(); ++i)
    {
        const ddnn_scenario& s = runs[i].scenario.values;
        csv << runs[i].name << "," << CsvField(CaseLabel(runs[i])) << "," << s.workers << ","
            << s.jobs[0].rcp << "," << s.jobs[0].compute_ms << "," << s.flow_rate << ","
            << s.training_priority << "," << s.seed << "," << s.jobs[0].transport;
        for (const auto& key : keys)
        {
            if (key != "workers" && key != "training_priority")
            {
                csv << "," << values[i][key];
            }
        }
        csv << "\n";
    }
    summary.Commit();

    // changes.csv: per case, (R_cp_to_nw, flow rate) and key, the change from same to low
    // priority taken per seed, then its mean, spread and interval over the seeds; "NA" where
    // no seed has both.
    AtomicFile changes(outDir + "/changes.csv");
    changes.Out() << "case,rcp,flow_rate,key,seeds,change_vs_same_mean_percent,"
                     "change_vs_same_min_percent,change_vs_same_max_percent,"
                     "change_ci_low_percent,change_ci_high_percent,interval_method,verdict,"
                     "change_vs_low_mean_percent,same_samples_fewest,low_samples_fewest,"
                     "few_samples,confidence_level\n";
    // The answer on the terminal: per case and cell, the iteration and small-flow changes.
    std::ostringstream answer;
    answer << "campaign: training at low vs same priority, change with its "
           << ConfidenceText(runs.front().scenario.values.confidence)
           << " interval (a change is (low - same) / same; negative FCT: "
           << "a gain); verdict on the iteration: SAFE up to +" << options.greenSlowdownPercent
           << " %, COSTLY up to +" << options.redSlowdownPercent
           << " %, HARMFUL above, INCONCLUSIVE where the interval spans two\n";
    answer << std::left << std::setw(labels.size() > 1 ? 28 : 0)
           << (labels.size() > 1 ? "case" : "") << std::setw(8) << "rcp" << std::setw(11)
           << "flows/s" << std::setw(7) << "seeds" << std::setw(36) << "iteration time"
           << std::setw(14) << "verdict"
           << "small flows' mean FCT\n";
    size_t answered = 0; // the cells that ran at both priorities
    for (const std::string& label : labels)
    {
        for (const auto& [where, point] : cases[label])
        {
            for (const char* key : {"fct_small_mean_s",
                                    "fct_small_p99_s",
                                    "fct_medium_mean_s",
                                    "fct_large_mean_s",
                                    "fct_all_mean_s",
                                    "iteration_time_mean_s",
                                    "allreduce_time_mean_s",
                                    "util_training_measured",
                                    "util_background_measured"})
            {
                const Change c = PerSeedChange(point, key);
                const ChangeInterval interval = IntervalOfChange(point, key);
                const bool iteration = std::string(key) == "iteration_time_mean_s";
                const uint32_t minimum = MinimumSamples(point, key);
                const Evidence same = EvidenceOf(point.same, key, minimum);
                const Evidence low = EvidenceOf(point.low, key, minimum);
                changes.Out() << CsvField(label) << "," << where.first << "," << where.second << ","
                              << key << "," << c.seeds << "," << FormatFigure(c.mean) << ","
                              << FormatFigure(c.min) << "," << FormatFigure(c.max) << ","
                              << FormatFigure(interval.change.low) << ","
                              << FormatFigure(interval.change.high) << "," << interval.method << ","
                              << (iteration ? SlowdownVerdict(interval.change,
                                                              options.greenSlowdownPercent,
                                                              options.redSlowdownPercent)
                                            : "")
                              << "," << FormatFigure(c.meanVsLow) << ","
                              << FormatFigure(same.fewest) << "," << FormatFigure(low.fewest) << ","
                              << (SampleKey(key).empty() ? "NA"
                                  : same.few || low.few  ? "true"
                                                         : "false")
                              << "," << FormatFigure(point.confidenceLevel) << "\n";
            }
            if (point.same.empty() || point.low.empty())
            {
                continue;
            }
            ++answered;
            ChangeInterval iteration = IntervalOfChange(point, "iteration_time_mean_s");
            ChangeInterval small = IntervalOfChange(point, "fct_small_mean_s");
            // The table shows the seeds' mean change (changes.csv's), beside its interval.
            iteration.change.estimate = ChangePercent(point, "iteration_time_mean_s");
            small.change.estimate = ChangePercent(point, "fct_small_mean_s");
            answer << std::setw(labels.size() > 1 ? 28 : 0) << label << std::setw(8)
                   << Format3(where.first) << std::setw(11) << FormatFigure(where.second)
                   << std::setw(7) << PerSeedChange(point, "iteration_time_mean_s").seeds
                   << std::setw(36) << ChangeWithInterval(iteration.change) << std::setw(14)
                   << (FewSamples(point, "iteration_time_mean_s")
                           ? std::string("FEW SAMPLES")
                           : SlowdownVerdict(iteration.change,
                                             options.greenSlowdownPercent,
                                             options.redSlowdownPercent))
                   << ChangeWithInterval(small.change) << "\n";
        }
    }
    changes.Commit();
    if (answered > 0)
    {
        std::cout << answer.str() << "(per case and key with the interval's method: " << outDir
                  << "/changes.csv)" << std::endl;
    }
    else
    {
        std::cout << "campaign: no cell ran at both same and low training priority: no answer "
                     "table (each run's figures: "
                  << outDir << "/summary.csv)" << std::endl;
    }

    const std::string reportDir = outDir + "/report";
    PrepareOutputDirectory("--outDir", reportDir);
    std::vector<std::string> uncompared; // the cases without a point at both priorities
    for (const std::string& label : labels)
    {
        // One case: the report's folder; several: a folder per case, each figure titled by it.
        const std::string dir = labels.size() > 1 ? reportDir + "/" + CaseFolder(label) : reportDir;
        if (labels.size() > 1)
        {
            PrepareOutputDirectory("--outDir", dir);
        }
        CasePoints compared;
        for (const auto& [key, point] : cases[label])
        {
            if (!point.same.empty() && !point.low.empty())
            {
                compared[key] = point;
            }
        }
        if (compared.empty())
        {
            uncompared.push_back(label);
        }
        else
        {
            PlotPriorityEffect(compared, dir, label);
            PlotOperatingBoundary(compared, dir, options, label);
            PlotFctDifference(compared, dir, label);
        }
        PlotAgainstParameters(cases[label], dir, label);
        // The priorities' runs of the case (without a policy campaign's other cases), whose
        // plots are by training priority.
        std::vector<CampaignRun> priorityRuns;
        std::copy_if(runs.begin(),
                     runs.end(),
                     std::back_inserter(priorityRuns),
                     [&label](const CampaignRun& run) {
                         return IsPriorityRun(run) && CaseLabel(run) == label;
                     });
        PlotFctCdf(priorityRuns, dir, label);
        PlotSmallFctCdfs(priorityRuns, dir, label);
    }
    if (!uncompared.empty())
    {
        std::string which;
        for (const std::string& label : uncompared)
        {
            which
                += (which.empty() ? "" : ", ") + (label.empty() ? std::string("the runs") : label);
        }
        std::cerr << "campaign report: no point ran at both same and low training priority ("
                  << (uncompared.size() == labels.size() ? "every case" : which)
                  << "): priority-effect, operating-boundary and fct-difference plots skipped"
                  << std::endl;
    }
    ComparePolicies(runs, outDir, reportDir);
    CompareScales(labels, cases, outDir, options);
    if (!options.referenceFile.empty())
    {
        WriteValidation(runs, values, SeedReference::Read(options.referenceFile), outDir);
    }
    // The progression and utilization of the first run at low priority (else the first run).
    const CampaignRun* shown = &runs[0];
    for (const auto& run : runs)
    {
        if (Is(run.scenario.values.training_priority, "low"))
        {
            shown = &run;
            break;
        }
    }
    PlotTrainingProgression(*shown, reportDir);
    PlotIterationDetail(*shown, reportDir);
    PlotUtilization(*shown, reportDir);
}

ChangeInterval
ChangeOverSeeds(const std::vector<CampaignRun>& runs, const std::string& key)
{
    Point point;
    for (const CampaignRun& run : runs)
    {
        std::map<std::string, std::string> row;
        for (const auto& [k, value] : ReadSummary(run.dir + "/summary.csv"))
        {
            row[k] = value;
        }
        AddToPoint(point, run, row);
    }
    ChangeInterval out = IntervalOfChange(point, key);
    out.seeds = PerSeedChange(point, key).seeds;
    return out;
}

} // namespace ns3
