// Per-frame prediction of one model (spec/vmaf.md §5, spec/vmaf-v1.md §4), in the spec's operation
// order: the result must match the reference bit for bit, so nothing here may be reassociated or
// fused.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "model/model.hpp"

namespace vq::model {
namespace {

// Piecewise-linear through the knots, the first and last segments extended beyond them.
double through_knots(const std::vector<std::pair<double, double>>& knots, double x) {
    std::size_t i = 0;
    while (i + 2 < knots.size() && x > knots[i + 1].first) ++i;
    const auto [x0, y0] = knots[i];
    const auto [x1, y1] = knots[i + 1];
    return y0 + (x - x0) * (y1 - y0) / (x1 - x0);
}

double transform(const Transform& t, double y) {
    double z = y;
    if (t.p0 || t.p1 || t.p2) {
        z = 0;
        if (t.p0) z += *t.p0;
        if (t.p1) z += *t.p1 * y;
        if (t.p2) z += (*t.p2 * y) * y;
    }
    if (!t.knots.empty()) z = through_knots(t.knots, z);
    if (t.out_lte_in) z = std::min(z, y);
    if (t.out_gte_in) z = std::max(z, y);
    return z;
}

// spec/vmaf-v1.md §4.2, on the normalised features: the round-tripped speed value is compared
// with exactly 0, and the round-tripped adm3 (not the raw feature) guides the replacement.
void correct_chroma(const Model& model, std::span<double> x) {
    const ChromaCorrection& c = *model.chroma_correction;
    const double speed_slope = model.slopes[c.speed + 1];
    const double speed_intercept = model.intercepts[c.speed + 1];
    const double speed = (x[c.speed] - speed_intercept) / speed_slope;
    if (speed != 0.0) return;
    const double adm3 = (x[c.adm3] - model.intercepts[c.adm3 + 1]) / model.slopes[c.adm3 + 1];
    const double replacement = (-c.parameter * adm3) + c.parameter;
    x[c.speed] = speed_slope * replacement + speed_intercept;
}

}  // namespace

double predict_unfinished(const Model& model, std::span<const double> features) {
    const std::size_t n = model.features.size();
    if (features.size() != n)
        throw std::invalid_argument("vq::model::predict: wrong number of features");
    const bool rescale = model.norm == Norm::linear_rescale;

    std::array<double, max_features> x;
    for (std::size_t k = 0; k < n; ++k)
        x[k] = rescale ? model.slopes[k + 1] * features[k] + model.intercepts[k + 1] : features[k];
    if (model.chroma_correction) correct_chroma(model, std::span(x.data(), n));

    const Svm& svm = model.svm;
    const double minus_gamma = -svm.gamma;  // negation is exact: (−γ)·d as the spec writes it
    double sum = 0.0;
    const double* row = svm.vectors.data();
    for (const double alpha : svm.coefficients) {
        double d = 0.0;
        for (std::size_t t = 0; t < n; ++t) {
            const double e = x[t] - row[t];
            d += e * e;
        }
        sum += alpha * std::exp(minus_gamma * d);
        row += n;
    }
    const double raw = sum - svm.rho;
    return rescale ? (raw - model.intercepts[0]) / model.slopes[0] : raw;
}

double finish(const Model& model, double score) {
    if (model.transform_enabled) score = transform(model.transform, score);
    if (model.clip) {
        score = std::max(score, model.clip_min);
        score = std::min(score, model.clip_max);
    }
    return score;
}

double predict(const Model& model, std::span<const double> features) {
    return finish(model, predict_unfinished(model, features));
}

}  // namespace vq::model
