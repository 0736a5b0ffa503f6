/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "campaign-estimate.h"

#include "ddnn-calibration.h"
#include "input-file.h"
#include "ns3/atomic-file.h"
#include "ns3/background-helper.h"
#include "ns3/data-rate.h"
#include "ns3/ddnn-csv.h"
#include "ns3/one-line-error.h"
#include "scenario-file.h"
#include "training-run.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <queue>
#include <sstream>

namespace ns3
{

const char* const kCalibrationHeader = DDNN_CALIBRATION_COLUMNS;

namespace
{

struct Point
{
    double x;
    double y;
};

double
Cross(const Point& o, const Point& a, const Point& b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** Convex hull, counter-clockwise (Andrew's monotone chain). */
std::vector<Point>
Hull(std::vector<Point> p)
{
    std::sort(p.begin(), p.end(), [](const Point& a, const Point& b) {
        return a.x < b.x || (a.x == b.x && a.y < b.y);
    });
    std::vector<Point> h(2 * p.size());
    size_t k = 0;
    for (size_t i = 0; i < p.size(); ++i)
    {
        while (k >= 2 && Cross(h[k - 2], h[k - 1], p[i]) <= 0)
        {
            --k;
        }
        h[k++] = p[i];
    }
    for (size_t i = p.size() - 1, t = k + 1; i > 0; --i)
    {
        while (k >= t && Cross(h[k - 2], h[k - 1], p[i - 1]) <= 0)
        {
            --k;
        }
        h[k++] = p[i - 1];
    }
    h.resize(k > 1 ? k - 1 : k);
    return h;
}

/**
 * The CPU cost of one packet crossing one link, by load, for one profile: linear over each
 * triangle of a Delaunay triangulation of the measured loads in the plane (training load
 * 1/rcp, log flow rate), each axis scaled to [0, 1] over the table's range. Exact at every
 * measured load, linear between them (on a full grid of loads it is close to bilinear). What
 * varies with the load is what the packet count leaves out: retransmissions, queueing,
 * timers. The flow rates of the thesis's grid double from one to the next: in the logarithm
 * they are evenly spaced.
 */
struct Model
{
    std::vector<Point> p;  //!< the loads, scaled
    std::vector<double> z; //!< CPU s per link crossing, at each load
    std::vector<std::array<size_t, 3>> triangles;
    std::vector<Point> hull;
    double x0{0}, xScale{1}, y0{0}, yScale{1};

    Point
    Scaled(double rcp, double flowRate) const
    {
        return {(1 / rcp - x0) / xScale, (std::log(flowRate) - y0) / yScale};
    }
};

/** Barycentric coordinates of q in triangle t; true when inside (with a tolerance). */
bool
Barycentric(const Model& m, const std::array<size_t, 3>& t, const Point& q, double w[3])
{
    const Point& a = m.p[t[0]];
    const Point& b = m.p[t[1]];
    const Point& c = m.p[t[2]];
    const double d = Cross(a, b, c);
    w[0] = Cross(q, b, c) / d;
    w[1] = Cross(a, q, c) / d;
    w[2] = 1 - w[0] - w[1];
    return w[0] >= -1e-9 && w[1] >= -1e-9 && w[2] >= -1e-9;
}

/** Bowyer-Watson: the Delaunay triangles of m.p (at least three points, not on one line). */
void
Triangulate(Model& m)
{
    std::vector<Point> p = m.p;
    const size_t n = p.size();
    // A triangle holding every point (they lie in [0, 1]^2) far away, removed at the end.
    p.push_back({-1e4, -1e4});
    p.push_back({1e4, -1e4});
    p.push_back({0.5, 1e4});
    std::vector<std::array<size_t, 3>> tris = {{n, n + 1, n + 2}};
    auto inCircle = [&](const std::array<size_t, 3>& t, const Point& q) {
        Point a = p[t[0]], b = p[t[1]], c = p[t[2]];
        if (Cross(a, b, c) < 0)
        {
            std::swap(b, c);
        }
        const double ax = a.x - q.x, ay = a.y - q.y;
        const double bx = b.x - q.x, by = b.y - q.y;
        const double cx = c.x - q.x, cy = c.y - q.y;
        return (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay)
                   + (cx * cx + cy * cy) * (ax * by - bx * ay)
               > 1e-12;
    };
    for (size_t i = 0; i < n; ++i)
    {
        std::vector<std::array<size_t, 2>> edges;
        std::vector<std::array<size_t, 3>> kept;
        for (const auto& t : tris)
        {
            if (inCircle(t, p[i]))
            {
                for (int e = 0; e < 3; ++e)
                {
                    edges.push_back(
                        {std::min(t[e], t[(e + 1) % 3]), std::max(t[e], t[(e + 1) % 3])});
                }
            }
            else
            {
                kept.push_back(t);
            }
        }
        std::sort(edges.begin(), edges.end());
        for (size_t e = 0; e < edges.size(); ++e)
        {
            const bool shared = (e + 1 < edges.size() && edges[e + 1] == edges[e])
                                || (e > 0 && edges[e - 1] == edges[e]);
            if (!shared)
            {
                kept.push_back({edges[e][0], edges[e][1], i});
            }
        }
        tris = kept;
    }
    m.triangles.clear();
    for (const auto& t : tris)
    {
        if (t[0] < n && t[1] < n && t[2] < n && std::fabs(Cross(p[t[0]], p[t[1]], p[t[2]])) > 1e-12)
        {
            m.triangles.push_back(t);
        }
    }
}

/** The model of a profile's rows; false when the loads lie on one line. */
bool
BuildModel(const std::vector<CalibrationPoint>& rows, Model& m)
{
    // One value per load: the mean cost per crossing of the rows measured there.
    std::map<std::pair<double, double>, std::pair<double, int>> loads;
    for (const CalibrationPoint& r : rows)
    {
        auto& v = loads[{r.rcp, r.flowRate}];
        v.first += r.cpuPerSimS / r.crossingsPerSimS;
        v.second += 1;
    }
    double x1 = -INFINITY, y1 = -INFINITY;
    m.x0 = m.y0 = INFINITY;
    for (const auto& [load, v] : loads)
    {
        m.x0 = std::min(m.x0, 1 / load.first);
        x1 = std::max(x1, 1 / load.first);
        m.y0 = std::min(m.y0, std::log(load.second));
        y1 = std::max(y1, std::log(load.second));
    }
    if (!(x1 > m.x0) || !(y1 > m.y0))
    {
        return false;
    }
    m.xScale = x1 - m.x0;
    m.yScale = y1 - m.y0;
    for (const auto& [load, v] : loads)
    {
        m.p.push_back(m.Scaled(load.first, load.second));
        m.z.push_back(v.first / v.second);
    }
    m.hull = Hull(m.p);
    if (m.hull.size() < 3)
    {
        return false;
    }
    Triangulate(m);
    return !m.triangles.empty();
}

/** The point of segment ab nearest to q. */
Point
Nearest(const Point& a, const Point& b, const Point& q)
{
    const double dx = b.x - a.x, dy = b.y - a.y;
    double t = ((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy);
    t = std::min(1.0, std::max(0.0, t));
    return {a.x + t * dx, a.y + t * dy};
}

/**
 * The model at q: inside the measured loads' hull, linear over q's triangle; outside, its
 * value at the hull's point nearest to q (a cost per packet is not carried on beyond what
 * was measured). `outside` says which.
 */
double
Evaluate(const Model& m, const Point& q, bool& outside)
{
    double w[3];
    for (const auto& t : m.triangles)
    {
        if (Barycentric(m, t, q, w))
        {
            outside = false;
            return w[0] * m.z[t[0]] + w[1] * m.z[t[1]] + w[2] * m.z[t[2]];
        }
    }
    outside = true;
    Point best = m.hull[0];
    double bestD = INFINITY;
    for (size_t i = 0; i < m.hull.size(); ++i)
    {
        Point c = Nearest(m.hull[i], m.hull[(i + 1) % m.hull.size()], q);
        double d = (c.x - q.x) * (c.x - q.x) + (c.y - q.y) * (c.y - q.y);
        if (d < bestD)
        {
            bestD = d;
            best = c;
        }
    }
    for (const auto& t : m.triangles)
    {
        if (Barycentric(m, t, best, w))
        {
            return w[0] * m.z[t[0]] + w[1] * m.z[t[1]] + w[2] * m.z[t[2]];
        }
    }
    return m.z[0]; // not reached: the hull's points lie in the triangles
}

/** Link crossings per payload byte sent over TCP: its segments and their delayed ACKs. */
double
CrossingsPerByte(const Scenario& s)
{
    const TransportSettings t = s.Transport();
    return s.GetPathLinks() * (1 + 1.0 / t.delAckCount) / t.segmentSize;
}

} // namespace

std::vector<CalibrationPoint>
ReadCalibration(const std::string& path)
{
    const std::string text = ReadInputFile(path, kCalibrationMaxBytes, "the calibration table");
    ddnn_diag diag{};
    ddnn_calibration table{};
    if (ddnn_calibration_parse(&table, text.data(), text.size(), &diag) != DDNN_OK)
    {
        char line[600];
        ddnn_diag_format(&diag, path.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    std::vector<CalibrationPoint> points;
    for (size_t i = 0; i < table.count; ++i)
    {
        const ddnn_calibration_row& r = table.rows[i];
        CalibrationPoint p{r.profile, r.workers, r.rcp, r.flow_rate, r.cpu_s_per_sim_s};
        p.crossingsPerSimS
            = PacketLoadOf(CalibrationScenario(p.profile, p.workers, p.rcp, p.flowRate)).PerSimS();
        points.push_back(p);
    }
    ddnn_calibration_free(&table);
    std::map<std::string, std::vector<CalibrationPoint>> byProfile;
    for (const CalibrationPoint& p : points)
    {
        byProfile[p.profile].push_back(p);
    }
    for (const auto& [profile, rows] : byProfile)
    {
        Model model;
        if (!BuildModel(rows, model))
        {
            throw DdnnError(path + ": profile " + profile
                            + ": needs at least three loads not on one line");
        }
    }
    return points;
}

void
WriteCalibration(const std::string& path,
                 const std::vector<CalibrationPoint>& points,
                 const std::string& comment)
{
    AtomicFile file(path); // an earlier table stays whole until the new one is
    std::ofstream& out = file.Out();
    out << std::setprecision(6); // a plain stream's, as the table was always written
    std::stringstream lines(comment);
    for (std::string line; std::getline(lines, line);)
    {
        out << "# " << line << "\n";
    }
    out << kCalibrationHeader << "\n";
    for (const CalibrationPoint& p : points)
    {
        out << p.profile << "," << p.workers << "," << p.rcp << "," << p.flowRate << ","
            << std::setprecision(4) << p.cpuPerSimS << "\n";
    }
    file.Commit();
}

Scenario
CalibrationScenario(const std::string& profile, uint32_t workers, double rcp, double flowRate)
{
    Scenario s; // the defaults, then the file's values
    LoadScenarioFile("scenarios/thesis-code-default.xml", s);
    ddnn_scenario& x = s.values;
    x.workers = workers;
    x.jobs[0].rcp = rcp;
    x.jobs[0].compute_ms = 0; // from rcp
    x.flow_rate = flowRate;
    s.SetTransport(TransportSettings::Profile(profile));
    return s;
}

double
PacketLoad::PerSimS() const
{
    double perS = backgroundPerS;
    for (size_t k = 0; k < trainingPerIteration.size(); ++k)
    {
        perS += trainingPerIteration[k] / idealPeriodS[k];
    }
    return perS;
}

double
PacketLoad::IterationsOfRun(const Scenario& s, uint32_t k) const
{
    const ddnn_scenario_job& job = s.Job(k);
    const double iterations = std::max(0.0, s.values.duration_s - job.start_s) / idealPeriodS[k];
    return job.iterations > 0 ? std::min(iterations, static_cast<double>(job.iterations))
                              : iterations;
}

double
PacketLoad::OfRun(const Scenario& s) const
{
    double all = backgroundPerS * s.values.duration_s;
    for (uint32_t k = 0; k < trainingPerIteration.size(); ++k)
    {
        all += trainingPerIteration[k] * IterationsOfRun(s, k);
    }
    return all;
}

PacketLoad
PacketLoadOf(const Scenario& s)
{
    PacketLoad load;
    const double perByte = CrossingsPerByte(s);
    const uint32_t servers = s.GetServerCount();
    load.backgroundPerS // the helper's figure is per server
        = CreateBackgroundHelper(s)->GetOfferedBytesPerSecond(servers) * servers * perByte;
    const Scenario training = s.TrainingPart();
    for (uint32_t k = 0; k < s.JobCount(); ++k)
    {
        // The ideal transport computes its transfer times: no packet of the training's.
        const bool packets = !Is(s.Job(k).transport, "ideal");
        load.trainingPerIteration.push_back(packets ? BytesSentPerIteration(training, k) * perByte
                                                    : 0.0);
        load.idealPeriodS.push_back(IdealIterationTime(training, k).GetSeconds());
    }
    return load;
}

RunEstimate
EstimateRun(const std::vector<CalibrationPoint>& table, const Scenario& scenario)
{
    const ddnn_scenario& s = scenario.values;
    std::map<std::string, std::vector<CalibrationPoint>> byProfile;
    for (const CalibrationPoint& p : table)
    {
        byProfile[p.profile].push_back(p);
    }
    if (byProfile.empty())
    {
        throw DdnnError("the calibration table has no row");
    }
    // The run's point: a compute time given in ms is priced at the table's lightest
    // training load.
    auto priceOf = [&](const std::vector<CalibrationPoint>& rows, bool& outside) {
        Model model;
        BuildModel(rows, model); // checked by ReadCalibration
        const double rcp = s.jobs[0].rcp > 0 ? s.jobs[0].rcp : 1 / model.x0;
        return Evaluate(model, model.Scaled(rcp, s.flow_rate), outside);
    };
    std::vector<std::string> why;
    bool outside = false;
    double perCrossing = 0;
    auto own = byProfile.find(s.transport_profile);
    if (own != byProfile.end())
    {
        perCrossing = priceOf(own->second, outside);
    }
    else
    {
        // A profile the table was not measured for: the costliest measured one stands in.
        std::string costliest;
        for (const auto& [profile, rows] : byProfile)
        {
            bool out = false;
            const double price = priceOf(rows, out);
            if (price > perCrossing)
            {
                perCrossing = price;
                costliest = profile;
                outside = out;
            }
        }
        why.push_back("transport profile " + std::string(s.transport_profile)
                      + ", priced as the table's costliest, " + costliest);
    }
    if (outside)
    {
        why.push_back("load outside the table's, priced as the nearest measured one");
    }
    if (!Is(s.topology_kind, "single-tor"))
    {
        why.push_back("topology " + std::string(s.topology_kind)
                      + ", every packet priced as crossing its longest path");
    }
    RunEstimate e;
    const PacketLoad load = PacketLoadOf(scenario);
    e.crossings = load.OfRun(scenario);
    double workerIterations = 0;
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        workerIterations += load.IterationsOfRun(scenario, k) * scenario.WorkersOf(k);
    }
    // Lost packets cost more than their resends: TCP's recovery walks its send buffer.
    const uint32_t lossyLinks = s.loss_rate > 0 ? (s.impaired_servers[0] ? 1 : 2) : 0;
    const double pathLoss = 1 - std::pow(1 - s.loss_rate, lossyLinks);
    const double lossFactor = 1 + kLossCostFactor * pathLoss * pathLoss;
    e.cpuS = kRunSetupCpuS + kWorkerIterationCpuS * workerIterations
             + perCrossing * lossFactor * e.crossings;
    // A run with a precision runs stages until it is reached or max-cpu-s is spent.
    e.worstCpuS = s.precision > 0 ? std::max(e.cpuS, s.max_cpu_s) : e.cpuS;
    e.extrapolated = !why.empty();
    for (size_t i = 0; i < why.size(); ++i)
    {
        e.why += (i ? "; " : "") + why[i];
    }
    return e;
}

double
Makespan(const std::vector<double>& costs, uint64_t slots)
{
    std::priority_queue<double, std::vector<double>, std::greater<double>> free;
    for (uint64_t i = 0; i < std::min<uint64_t>(slots, std::max<size_t>(costs.size(), 1)); ++i)
    {
        free.push(0);
    }
    double end = 0;
    for (double cost : costs)
    {
        double t = free.top() + cost;
        free.pop();
        free.push(t);
        end = std::max(end, t);
    }
    return end;
}

} // namespace ns3
