// Per-scale geometry (spec §3.2, §8.1) and shifts (§9.2, §9.3, §10).
#include "metrics/adm/adm_geometry.hpp"

#include <algorithm>

namespace vq::adm {
namespace {

constexpr double border_factor = 0.1;  // ADM_BORDER_FACTOR

// §8.1: truncation toward zero of a double expression, as the reference's int conversion does.
int scored_border(int size) { return int(size * border_factor - 0.5); }
int working_border(int size) { return int((size * border_factor - 0.5) - 1); }

}  // namespace

std::array<ScaleGeometry, scale_count> make_geometry(int width, int height) {
    std::array<ScaleGeometry, scale_count> scales;
    int w = width, h = height;
    for (int s = 0; s < scale_count; ++s) {
        w = (w + 1) >> 1;  // nested ceilings (§3.2)
        h = (h + 1) >> 1;
        ScaleGeometry& g = scales[s];
        g.width = w;
        g.height = h;
        g.left = scored_border(w);
        g.top = scored_border(h);
        g.area = std::int64_t(h - 2 * g.top) * (w - 2 * g.left);

        // The upper end uses the unclamped border, as the reference does; clamping both ends to
        // the band leaves exactly the scored region plus its ring.
        const int lw = working_border(w), lh = working_border(h);
        g.work_col_begin = std::max(lw, 0);
        g.work_col_end = std::min(w, w - lw + 2);
        g.work_row_begin = std::max(lh, 0);
        g.work_row_end = std::min(h, h - lh + 2);

        const int cw = clog2(w);
        g.row_shift = clog2(h);
        if (s == 0) {
            g.cube_shift = {cw - 4, cw - 4, cw - 3};
            // Sa = max(0, ceil(log2(area) - 20)); area is an integer, so this is clog2(area) - 20.
            g.den_row_shift = std::max(0, clog2(g.area) - 20);
        } else {
            g.cube_shift = {cw, cw, cw};
            g.den_col_shift = clog2(w - 2 * g.left);
            g.den_row_shift = clog2(h - 2 * g.top);
        }
    }
    return scales;
}

}  // namespace vq::adm
