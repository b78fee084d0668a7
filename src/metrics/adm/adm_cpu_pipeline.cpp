// Streams each scale row by row (spec §3): band row i of both images comes out of the DWT,
// feeds the denominator at once, is decoupled and CSF-weighted into a ring of three rows, and
// row i - 1 is masked as soon as its lower neighbour exists. Only the A bands, which the next
// scale reads, are kept whole.
#include "metrics/adm/adm_cpu_pipeline.hpp"

#include "metrics/toolkit/mirror.hpp"
#include "metrics/toolkit/sample_type.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace vq::adm {
namespace {

// Fills indices -1, n and n + 1 of a row of n >= 2 values by the §3.1 mapping.
template <typename T>
void mirror_border(T* row, int n) {
    row[-1] = row[1];
    row[n] = row[n - 1];
    row[n + 1] = row[n - 2];
}

// Asks for `bytes` from `row` to be brought into the cache ahead of their first read.
void prefetch_row(const void* row, std::size_t bytes) {
    const char* p = static_cast<const char*>(row);
    for (std::size_t at = 0; at < bytes; at += 64) __builtin_prefetch(p + at);
}

template <typename T>
std::int64_t rounded_shift(T sum, int shift) {
    return std::int64_t((sum + (shift > 0 ? T(1) << (shift - 1) : T(0))) >> shift);
}

// Scale 0's per-band constants: CSF rounding (§8) and masking shifts (§9.2).
constexpr int csf0_add[3] = {16384, 16384, 65535};
constexpr int csf0_shift[3] = {15, 15, 17};
constexpr int mask0_thr_shift[3] = {10, 10, 12};
constexpr int mask0_square_shift[3] = {29, 29, 30};
// §10: the denominator's squaring shift Pd at scales 1-3.
constexpr int den_square_shift[4] = {0, 31, 30, 31};

// One scale's streaming over band rows. `dwt_row(image, i, a, bands)` produces row i of the four
// bands of image 0 (ref) or 1 (dis), writing the A band to `a` and h, v, d to `bands`.
template <typename Coef, typename DwtRow>
void stream_scale(int scale, const Config& config, const Kernels& k, ScaleRows<Coef>& rows,
                  DwtRow&& dwt_row, bool score, ScaleSums& sums) {
    constexpr bool scale0 = std::is_same_v<Coef, std::int16_t>;
    const ScaleGeometry& g = config.geometry[scale];
    const Options& options = config.options;
    const auto& multiplier = config.multipliers.band[scale];
    const int width = g.width, height = g.height;
    const int row_end = g.row_end(), col_end = g.col_end();
    const int work_begin = g.work_col_begin, work_end = g.work_col_end;

    Coef* ref[3] = {rows.ref[0].get(), rows.ref[1].get(), rows.ref[2].get()};
    Coef* dis[3] = {rows.dis[0].get(), rows.dis[1].get(), rows.dis[2].get()};

    auto add_denominator = [&] {
        for (int b = 0; b < 3; ++b) {
            std::uint64_t sum;
            if constexpr (scale0)
                sum = k.cubed_row0(ref[b], g.left, col_end);
            else
                sum = k.cubed_row_wide(ref[b], g.left, col_end, den_square_shift[scale],
                                       g.den_col_shift);
            sums.den[b] += std::uint64_t(rounded_shift(sum, g.den_row_shift));
        }
    };

    auto decouple_and_weight = [&](auto& slot) {
        Coef* restored[3] = {slot.restored[0].get(), slot.restored[1].get(),
                             slot.restored[2].get()};
        Coef* additive[3] = {slot.additive[0].get(), slot.additive[1].get(),
                             slot.additive[2].get()};
        if constexpr (scale0)
            k.decouple0(ref, dis, work_begin, work_end, options.gain_limit, rows.angle.get(),
                        restored, additive);
        else
            k.decouple_wide(ref, dis, work_begin, work_end, options.gain_limit, rows.angle.get(),
                            restored, additive);
        for (int b = 0; b < 3; ++b) {
            if constexpr (scale0) {
                k.csf0(additive[b], work_begin, work_end, int(multiplier[b]), csf0_add[b],
                       csf0_shift[b], slot.c_of_a[b].get(), slot.m_of_a[b].get());
                k.csf0(restored[b], work_begin, work_end, int(multiplier[b]), csf0_add[b],
                       csf0_shift[b], slot.c_of_r[b].get(), slot.m_of_r[b].get());
            } else {
                k.csf_wide(additive[b], work_begin, work_end, multiplier[b], slot.c_of_a[b].get(),
                           slot.m_of_a[b].get());
                k.csf_wide(restored[b], work_begin, work_end, multiplier[b], slot.c_of_r[b].get(),
                           slot.m_of_r[b].get());
            }
            // The 3x3 window leaves the band only where the scored region touches its edge.
            if (g.left == 0) {
                mirror_border(slot.m_of_a[b].get(), width);
                mirror_border(slot.m_of_r[b].get(), width);
            }
        }
    };

    // §9 for band row c: DLM (values R, masker CSF(A)) and AIM (values A, masker CSF(R)).
    auto mask_row = [&](int c) {
        auto& up = rows.ring[mirror_repeating_end(c - 1, height) % 3];
        auto& mid = rows.ring[c % 3];
        auto& down = rows.ring[mirror_repeating_end(c + 1, height) % 3];
        std::int32_t* thr = rows.thr.get();
        auto pass = [&](auto maps, auto centres, auto values, std::array<std::int64_t, 3>& acc) {
            const Coef* m[9];
            const Coef* centre[3];
            for (int b = 0; b < 3; ++b) {
                m[3 * b] = (up.*maps)[b].get();
                m[3 * b + 1] = (mid.*maps)[b].get();
                m[3 * b + 2] = (down.*maps)[b].get();
                centre[b] = (mid.*centres)[b].get();
            }
            if constexpr (scale0)
                k.threshold0(m, centre, g.left, col_end, thr);
            else
                k.threshold_wide(m, centre, g.left, col_end, thr);
            for (int b = 0; b < 3; ++b) {
                std::int64_t sum;
                if constexpr (scale0)
                    sum = k.masked_row0((mid.*values)[b].get(), thr, g.left, col_end,
                                        int(multiplier[b]), mask0_thr_shift[b],
                                        mask0_square_shift[b], g.cube_shift[b]);
                else
                    sum = k.masked_row_wide((mid.*values)[b].get(), thr, g.left, col_end,
                                            g.cube_shift[b]);
                acc[b] += rounded_shift(sum, g.row_shift);
            }
        };
        using Slot = typename ScaleRows<Coef>::Slot;
        // At scales 1-3 the masked x of the values is their CSF map c (§9.2), computed already.
        pass(&Slot::m_of_a, &Slot::c_of_a, scale0 ? &Slot::restored : &Slot::c_of_r, sums.dlm);
        if (!options.skip_aim)
            pass(&Slot::m_of_r, &Slot::c_of_r, scale0 ? &Slot::additive : &Slot::c_of_a, sums.aim);
    };

    for (int i = 0; i < height; ++i) {
        dwt_row(0, i, ref);
        dwt_row(1, i, dis);
        if (!score) continue;
        if (i >= g.top && i < row_end) add_denominator();
        if (i >= g.work_row_begin && i < g.work_row_end) decouple_and_weight(rows.ring[i % 3]);
        if (i - 1 >= g.top && i - 1 < row_end) mask_row(i - 1);
        if (i == height - 1 && i >= g.top && i < row_end)
            mask_row(i);  // its lower neighbour is itself
    }
}

template <typename Sample>
void run_frame(const Config& config, const Kernels& k, const PlaneView<Sample> (&luma)[2],
               Workspace& ws, Block& block) {
    const auto& geometry = config.geometry;
    ScaleRows<std::int16_t>& narrow = ws.narrow;
    ScaleRows<std::int32_t>& wide = ws.wide;

    // Scale 0: pixels -> int16 bands; the A band is kept for scale 1.
    {
        const int band_width = geometry[0].width;
        auto dwt_row = [&](int image, int i, std::int16_t* const* bands) {
            const PlaneView<Sample>& plane = luma[image];
            const Sample* in[4];
            for (int t = 0; t < 4; ++t)
                in[t] = plane.row(mirror_repeating_end(2 * i - 1 + t, plane.height));
            // The next band row reads input rows 2i + 3 and 2i + 4, not yet touched: the frame
            // was written by the reader's thread, and stalls on its first reads were this pass's
            // main cost. Fetching them now overlaps that wait with this row's work (a hint only:
            // past the end the last row stands in).
            for (int t = 4; t < 6; ++t)
                prefetch_row(plane.row(std::min(2 * i - 1 + t, plane.height - 1)),
                             std::size_t(plane.width) * sizeof(Sample));
            std::int16_t* lo = narrow.lo.get();
            std::int16_t* hi = narrow.hi.get();
            if constexpr (sizeof(Sample) == 1)
                k.dwt0_vertical_8(in, plane.width, config.bit_depth, lo, hi);
            else
                k.dwt0_vertical_16(in, plane.width, config.bit_depth, lo, hi);
            mirror_border(lo, plane.width);
            mirror_border(hi, plane.width);
            std::int16_t* a = ws.approximation0[image].data() + std::size_t(i) * band_width;
            k.dwt0_horizontal(lo, hi, band_width, a, bands[1], bands[0], bands[2]);
        };
        stream_scale<std::int16_t>(0, config, k, narrow, dwt_row, !config.options.skip_scale0,
                                   block.scales[0]);
    }

    // Scales 1-3: int32 bands from the previous scale's A band.
    for (int s = 1; s < scale_count; ++s) {
        const ScaleGeometry& in_size = geometry[s - 1];
        const int band_width = geometry[s].width;
        constexpr int horizontal_add[4] = {0, 16384, 32768, 16384};
        constexpr int horizontal_shift[4] = {0, 15, 16, 15};
        auto dwt_row = [&](int image, int i, std::int32_t* const* bands) {
            std::int32_t* lo = wide.lo.get();
            std::int32_t* hi = wide.hi.get();
            // in_rows[4] and [5] are the next band row's new input rows (a hint only: past the
            // end the last row stands in), fetched ahead as at scale 0: the previous scale's A
            // band was written a whole scale ago and has left the nearer caches (scale 1 reads a
            // megabyte per image at 1080p).
            int in_rows[6];
            for (int t = 0; t < 4; ++t)
                in_rows[t] = mirror_repeating_end(2 * i - 1 + t, in_size.height);
            for (int t = 4; t < 6; ++t) in_rows[t] = std::min(2 * i - 1 + t, in_size.height - 1);
            auto rows_of = [&](const auto& plane, auto* in) {
                for (int t = 0; t < 6; ++t)
                    in[t] = plane.data() + std::size_t(in_rows[t]) * in_size.width;
                for (int t = 4; t < 6; ++t)
                    prefetch_row(in[t], std::size_t(in_size.width) * sizeof(*in[t]));
            };
            if (s == 1) {
                const std::int16_t* in[6];
                rows_of(ws.approximation0[image], in);
                k.dwt1_vertical(in, in_size.width, lo, hi);
            } else {
                const std::int32_t* in[6];
                rows_of(s == 2 ? ws.approximation1[image] : ws.approximation2[image], in);
                k.dwt23_vertical(in, in_size.width, lo, hi);
            }
            mirror_border(lo, in_size.width);
            mirror_border(hi, in_size.width);
            std::int32_t* a =
                s == 3 ? wide.spare_a.get()
                       : (s == 1 ? ws.approximation1[image] : ws.approximation2[image]).data() +
                             std::size_t(i) * band_width;
            k.dwt_wide_horizontal(lo, hi, band_width, horizontal_add[s], horizontal_shift[s], a,
                                  bands[1], bands[0], bands[2]);
        };
        stream_scale<std::int32_t>(s, config, k, wide, dwt_row, true, block.scales[s]);
    }
}

void prepare(const Config& config, Workspace& ws) {
    if (ws.width == config.width && ws.height == config.height) return;
    const auto& g = config.geometry;
    for (int image = 0; image < 2; ++image) {
        ws.approximation0[image].assign(std::size_t(g[0].width) * g[0].height, 0);
        ws.approximation1[image].assign(std::size_t(g[1].width) * g[1].height, 0);
        ws.approximation2[image].assign(std::size_t(g[2].width) * g[2].height, 0);
    }
    ws.narrow.resize(config.width, g[0].width);
    ws.wide.resize(g[0].width, g[1].width);
    ws.width = config.width;
    ws.height = config.height;
}

}  // namespace

template <typename Coef>
void ScaleRows<Coef>::resize(int input_width, int band_width) {
    lo.resize(input_width);
    hi.resize(input_width);
    spare_a.resize(band_width);
    for (int b = 0; b < 3; ++b) {
        ref[b].resize(band_width);
        dis[b].resize(band_width);
        for (Slot& slot : ring)
            for (auto* row : {&slot.restored[b], &slot.additive[b], &slot.c_of_a[b],
                              &slot.m_of_a[b], &slot.c_of_r[b], &slot.m_of_r[b]})
                row->resize(band_width);
    }
    angle.resize(band_width);
    thr.resize(band_width);
}

template struct ScaleRows<std::int16_t>;
template struct ScaleRows<std::int32_t>;

void compute_block(const Config& config, const Kernels& kernels, const Picture& reference,
                   const Picture& distorted, Workspace& workspace, Block& block) {
    block = {};
    prepare(config, workspace);
    with_sample_type(config.bit_depth, [&](auto sample) {
        using Sample = decltype(sample);
        const PlaneView<Sample> luma[2] = {reference.plane<Sample>(0), distorted.plane<Sample>(0)};
        run_frame(config, kernels, luma, workspace, block);
    });
}

}  // namespace vq::adm
