// The outputs of a model set for one frame: the model itself, and for a bootstrap collection its
// members and their statistics (spec/vmaf.md §8, in the spec's operation order).
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "model/model.hpp"

namespace vq::model {
namespace {

// Linear interpolation between the order statistics around P percent of a sorted list.
double percentile(std::span<const double> sorted, double percent) {
    const double p = percent * double(sorted.size() - 1) / 100.;
    const double l = std::floor(p);
    const double r = std::ceil(p);
    const double low = sorted[std::size_t(l)];
    if (l == r) return low;
    return low * (r - p) + sorted[std::size_t(r)] * (p - l);
}

// A strict weak order even with NaN (placed last), so a NaN feature cannot break the sort.
bool before(double a, double b) { return a < b || (!std::isnan(a) && std::isnan(b)); }

}  // namespace

std::vector<std::string> output_names(const ModelSet& set) {
    std::vector<std::string> names = {set.main.name};
    if (set.collection.empty()) return names;
    for (const Model& member : set.collection) names.push_back(member.name);
    for (const char* suffix : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"})
        names.push_back(set.main.name + suffix);
    return names;
}

void predict_frame(const ModelSet& set, std::span<const double> features, std::span<double> out) {
    const std::size_t n = set.collection.size();
    if (out.size() != (n == 0 ? 1 : n + 5))
        throw std::invalid_argument("vq::model::predict_frame: wrong output size");
    out[0] = predict(set.main, features);
    if (n == 0) return;

    std::array<double, max_collection> storage;
    const std::span<double> u(storage.data(), n);
    for (std::size_t k = 0; k < n; ++k) {
        u[k] = predict_unfinished(set.collection[k], features);
        out[1 + k] = finish(set.collection[k], u[k]);
    }

    double sum = 0;
    for (const double v : u) sum += v;
    const double mean = sum / double(n);
    double ssd = 0;
    for (const double v : u) ssd += std::pow(v - mean, 2);
    double stddev = std::sqrt(ssd / double(n));

    std::sort(u.begin(), u.end(), before);
    const Model& first = set.collection[0];
    const double lo = finish(first, percentile(u, 2.5));
    const double hi = finish(first, percentile(u, 97.5));
    const double bagging = finish(first, mean);
    const double plus = finish(first, mean + 0.01);
    const double minus = finish(first, mean - 0.01);
    const double slope = (plus - minus) / (2.0 * 0.01);
    stddev = stddev * slope;

    out[n + 1] = bagging;
    out[n + 2] = stddev;
    out[n + 3] = lo;
    out[n + 4] = hi;
}

}  // namespace vq::model
