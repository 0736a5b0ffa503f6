/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "campaign-estimate.h"

#include "ns3/data-rate.h"
#include "ns3/ddnn-exception.h"

#include <algorithm>
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

const char* const kCalibrationHeader = "profile,workers,rcp,flow_rate,cpu_s_per_sim_s";

namespace
{

/** The table's data rate: the bench measures the thesis's 10 Gbit/s links. */
const double kTableBitRate = 10e9;

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

/** Inside or on the hull, with a relative tolerance for points on its edges. */
bool
Inside(const std::vector<Point>& hull, const Point& q, double scaleX, double scaleY)
{
    for (size_t i = 0; i < hull.size(); ++i)
    {
        const Point& a = hull[i];
        const Point& b = hull[(i + 1) % hull.size()];
        if (Cross(a, b, q) < -1e-9 * scaleX * scaleY)
        {
            return false;
        }
    }
    return true;
}

/** The profile's points in the fitting plane: x = 1/rcp, y = flow rate, z = per worker. */
struct Fit
{
    double a{0};
    double b{0};
    double c{0};
    std::vector<Point> hull;
    double minZ{0};
    double scaleX{1};
    double scaleY{1};
};

double
Det3(const double m[3][3])
{
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
           - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
           + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/** Least-squares plane z = a + b x + c y; false when the points lie on one line. */
bool
FitPlane(const std::vector<CalibrationPoint>& rows, Fit& fit)
{
    std::vector<Point> pts;
    double n[3][3] = {};
    double r[3] = {};
    fit.minZ = INFINITY;
    for (const CalibrationPoint& p : rows)
    {
        double v[3] = {1, 1 / p.rcp, p.flowRate};
        double z = p.cpuPerSimS / p.workers;
        for (int i = 0; i < 3; ++i)
        {
            for (int j = 0; j < 3; ++j)
            {
                n[i][j] += v[i] * v[j];
            }
            r[i] += v[i] * z;
        }
        pts.push_back({v[1], v[2]});
        fit.minZ = std::min(fit.minZ, z);
        fit.scaleX = std::max(fit.scaleX, v[1]);
        fit.scaleY = std::max(fit.scaleY, v[2]);
    }
    fit.hull = Hull(pts);
    if (fit.hull.size() < 3)
    {
        return false;
    }
    double d = Det3(n);
    double coef[3];
    for (int k = 0; k < 3; ++k)
    {
        double m[3][3];
        std::memcpy(m, n, sizeof m);
        for (int i = 0; i < 3; ++i)
        {
            m[i][k] = r[i];
        }
        coef[k] = Det3(m) / d;
    }
    fit.a = coef[0];
    fit.b = coef[1];
    fit.c = coef[2];
    return true;
}

std::string
Text(double value)
{
    std::ostringstream os;
    os << value;
    return os.str();
}

} // namespace

std::vector<CalibrationPoint>
ReadCalibration(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw DdnnError(path + ": cannot open the calibration table: " + std::strerror(errno));
    }
    std::vector<CalibrationPoint> points;
    std::string line;
    bool header = false;
    for (size_t number = 1; std::getline(in, line); ++number)
    {
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        const std::string where = path + ":" + std::to_string(number) + ": ";
        if (!header)
        {
            if (line != kCalibrationHeader)
            {
                throw DdnnError(where + "expected the header '" + kCalibrationHeader + "'");
            }
            header = true;
            continue;
        }
        std::vector<std::string> f;
        std::stringstream fields(line);
        for (std::string field; std::getline(fields, field, ',');)
        {
            f.push_back(field);
        }
        if (f.size() != 5 || line.back() == ',')
        {
            throw DdnnError(where + "expected 5 comma-separated fields (" + kCalibrationHeader
                            + ")");
        }
        auto number_ = [&](size_t i, const char* name, double min) {
            char* end = nullptr;
            errno = 0;
            double v = std::strtod(f[i].c_str(), &end);
            if (f[i].empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || !(v > min)
                || v > 1e9)
            {
                throw DdnnError(where + "field '" + name + "': expected a number above " + Text(min)
                                + ", got '" + f[i] + "'");
            }
            return v;
        };
        CalibrationPoint p;
        p.profile = f[0];
        if (p.profile.empty())
        {
            throw DdnnError(where + "field 'profile': empty");
        }
        double w = number_(1, "workers", 0);
        if (w != std::floor(w))
        {
            throw DdnnError(where + "field 'workers': expected a whole number, got '" + f[1] + "'");
        }
        p.workers = static_cast<uint32_t>(w);
        p.rcp = number_(2, "rcp", 0);
        p.flowRate = number_(3, "flow_rate", -1);
        if (p.flowRate < 0)
        {
            throw DdnnError(where + "field 'flow_rate': expected a number from 0, got '" + f[3]
                            + "'");
        }
        p.cpuPerSimS = number_(4, "cpu_s_per_sim_s", 0);
        points.push_back(p);
    }
    if (!header || points.empty())
    {
        throw DdnnError(path + ": the calibration table has no rows");
    }
    std::map<std::string, std::vector<CalibrationPoint>> byProfile;
    for (const CalibrationPoint& p : points)
    {
        byProfile[p.profile].push_back(p);
    }
    for (const auto& [profile, rows] : byProfile)
    {
        Fit fit;
        if (!FitPlane(rows, fit))
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
    std::ofstream out(path);
    if (!out)
    {
        throw DdnnError(path + ": cannot write the calibration table: " + std::strerror(errno));
    }
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
    if (!out.flush())
    {
        throw DdnnError(path + ": cannot write the calibration table");
    }
}

RunEstimate
EstimateRun(const std::vector<CalibrationPoint>& table, const DatacenterScenario& s)
{
    std::vector<CalibrationPoint> rows;
    for (const CalibrationPoint& p : table)
    {
        if (p.profile == s.transportSettings.profile)
        {
            rows.push_back(p);
        }
    }
    if (rows.empty())
    {
        throw DdnnError("the calibration table has no row for transport profile '"
                        + s.transportSettings.profile + "'");
    }
    Fit fit;
    FitPlane(rows, fit); // checked by ReadCalibration
    RunEstimate e;
    std::vector<std::string> why;
    double x = s.rcp > 0 ? 1 / s.rcp : 0;
    if (!(s.rcp > 0))
    {
        why.push_back("compute time given in ms, training load taken as none");
    }
    Point q{x, s.flowRate};
    if (!Inside(fit.hull, q, fit.scaleX, fit.scaleY))
    {
        why.push_back("load outside the table's");
    }
    if (DataRate(s.dataRate).GetBitRate() != kTableBitRate)
    {
        why.push_back("data rate " + s.dataRate + ", the table's is 10Gbps");
    }
    if (s.transport != "tcp")
    {
        why.push_back("transport " + s.transport + ", the table's is tcp");
    }
    double perWorker = fit.a + fit.b * q.x + fit.c * q.y;
    if (perWorker < 0.1 * fit.minZ)
    {
        // The plane goes below zero far outside the table: keep a floor, and say so.
        perWorker = 0.1 * fit.minZ;
        why.push_back("plane below a tenth of the cheapest point, floored there");
    }
    e.cpuS = perWorker * s.workers * s.durationS;
    // Scaling by workers and duration is the model (cost per worker), not an extrapolation.
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
