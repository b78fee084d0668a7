// §5: the luminance model and the visibility thresholds, computed once per run in double
// precision exactly as the spec writes them (the build disables FMA contraction, §5.7).

#include <algorithm>
#include <cmath>

#include "metrics/cambi/cambi.hpp"

namespace vq::cambi {
namespace {

// The model works on 10-bit limited-range codes (§5.1).
constexpr int foot = 64;
constexpr int head = 940;

double bt1886(double v) {  // §5.2
    const double gamma = 2.4;
    const double rw = std::pow(300.0, 1.0 / gamma);
    const double rb = std::pow(0.01, 1.0 / gamma);
    const double a = std::pow(rw - rb, gamma);
    const double b = rb / (rw - rb);
    return a * std::pow(std::max(v + b, 0.0), gamma);
}

double pq(double v) {  // §5.3
    const double m1 = 0.1593017578125;
    const double m2 = 78.84375;
    const double c1 = 0.8359375;
    const double c2 = 18.8515625;
    const double c3 = 18.6875;
    const double e = std::pow(v, 1.0 / m2);
    const double num = std::max(e - c1, 0.0);
    const double den = c2 - c3 * std::pow(v, 1.0 / m2);
    return 10000.0 * std::pow(num / den, 1.0 / m1);
}

// §5.4: is a step of delta codes at code s visible?
bool visible(Eotf eotf, double tvi_threshold, int s, int delta) {
    const double ls = luminance(eotf, s);
    return luminance(eotf, s + delta) - ls > tvi_threshold * ls;
}

enum class Fit { too_big, too_small, correct };

Fit classify(Eotf eotf, double tvi_threshold, int s, int delta) {
    if (!visible(eotf, tvi_threshold, s, delta)) return Fit::too_big;
    if (visible(eotf, tvi_threshold, s + 1, delta)) return Fit::too_small;
    return Fit::correct;
}

// §5.5: the largest code at which a step of delta is still visible, by the reference's bisection.
// The loop ends: lo stays too_small (so lo+1 is visible) and hi too_big (hi is not), hence
// hi - lo >= 2 and mid is strictly between them.
int tvi_threshold_code(Eotf eotf, double tvi_threshold, int delta) {
    int lo = foot;
    int hi = head - delta - 1;
    switch (classify(eotf, tvi_threshold, lo, delta)) {
    case Fit::too_big: return 0;
    case Fit::correct: return lo;
    case Fit::too_small: break;
    }
    switch (classify(eotf, tvi_threshold, hi, delta)) {
    case Fit::too_small: return 1023;
    case Fit::correct: return hi;
    case Fit::too_big: break;
    }
    while (true) {
        const int mid = lo + (hi - lo) / 2;
        switch (classify(eotf, tvi_threshold, mid, delta)) {
        case Fit::too_big: hi = mid; break;
        case Fit::too_small: lo = mid; break;
        case Fit::correct: return mid;
        }
    }
}

// §5.6: the first code whose luminance reaches the threshold; the foot itself counts as 0.
// L(head) is the EOTF's peak (>= 300 cd/m², the option's maximum), so the scan ends by head.
int vis_lum_code(Eotf eotf, double vis_lum_threshold) {
    int s = foot;
    while (s < head && luminance(eotf, s) < vis_lum_threshold) ++s;
    return s == foot ? 0 : s;
}

}  // namespace

double luminance(Eotf eotf, int code) {
    const int c = std::clamp(code, foot, head);
    const double v = double(c - foot) / 876;
    return eotf == Eotf::pq ? pq(v) : bt1886(v);
}

ContrastParams contrast_params(Eotf eotf, double tvi_threshold, double vis_lum_threshold,
                               int max_log_contrast) {
    ContrastParams params;
    params.num_diffs = 1 << max_log_contrast;
    for (int delta = 1; delta <= params.num_diffs; ++delta)
        params.tvi[delta - 1] = tvi_threshold_code(eotf, tvi_threshold, delta);
    params.vis_lum = vis_lum_code(eotf, vis_lum_threshold);
    return params;
}

ValueBand value_band(const ContrastParams& contrast) {
    // A pixel of value v passes the gate of step δ when v <= T_δ and v + N + δ > V_lt (§10.1);
    // it then reads the counts of v, v + δ and v - δ. So every count read lies in
    // [V_lt - 3N + 1, max(T_δ + δ)], and a band that is empty means no pixel passes any gate.
    const int n = contrast.num_diffs;
    ValueBand band;
    band.lo = std::max(0, contrast.vis_lum - 3 * n + 1);
    band.hi = -1;
    for (int delta = 1; delta <= n; ++delta)
        band.hi = std::max(band.hi, contrast.tvi[delta - 1] + delta);
    return band;
}

}  // namespace vq::cambi
