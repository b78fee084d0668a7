// CIEDE2000, CPU twin: Σ ΔE00 over the luma grid of one frame pair (spec/ciede.md §3-4).
#include <cstdint>
#include <vector>

#include "metrics/ciede/ciede.hpp"
#include "metrics/ciede/ciede_cpu_delta_e_row.hpp"
#include "metrics/ciede/ciede_cpu_lab_converter.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::ciede {
namespace {

// The chroma codes each pixel of one luma row uses, at luma resolution.
template <typename Sample>
void gather_chroma_row(const Picture& picture, const ChromaAddressing& addressing, int row,
                       std::vector<int>& cb, std::vector<int>& cr) {
    const Sample* cb_plane = picture.plane<Sample>(1).data;
    const Sample* cr_plane = picture.plane<Sample>(2).data;
    for (int col = 0; col < int(cb.size()); ++col) {
        const long index = chroma_sample_index(addressing, row, col);
        cb[col] = index < 0 ? 0 : cb_plane[index];
        cr[col] = index < 0 ? 0 : cr_plane[index];
    }
}

template <typename Sample>
double delta_e_sum(const FramePair& pair, const ChromaAddressing& addressing, int bit_depth) {
    const auto ref_luma = pair.reference.plane<Sample>(0);
    const auto dist_luma = pair.distorted.plane<Sample>(0);
    const int width = ref_luma.width;
    std::vector<int> ref_cb(width), ref_cr(width), dist_cb(width), dist_cr(width);
    LabConverter lab(bit_depth, 2 * width);
    DeltaERow delta_e(width);
    double sum = 0.0;
    for (int row = 0; row < ref_luma.height; ++row) {
        gather_chroma_row<Sample>(pair.reference, addressing, row, ref_cb, ref_cr);
        gather_chroma_row<Sample>(pair.distorted, addressing, row, dist_cb, dist_cr);
        const Sample* ref_y = ref_luma.row(row);
        const Sample* dist_y = dist_luma.row(row);
        // Identical colours have ΔE00 = +0 exactly, and adding +0 leaves the sum (never -0) as it
        // is, so only differing pixels are computed, in raster order, and summed (§4.7).
        int differing = 0;
        for (int col = 0; col < width; ++col) {
            if (ref_y[col] == dist_y[col] && ref_cb[col] == dist_cb[col] &&
                ref_cr[col] == dist_cr[col])
                continue;
            lab.request(ref_y[col], ref_cb[col], ref_cr[col], delta_e.reference(differing));
            lab.request(dist_y[col], dist_cb[col], dist_cr[col], delta_e.distorted(differing));
            ++differing;
        }
        lab.flush();
        double row_sum = sum;  // a local, so that the running sum stays in a register
        for (const float value : delta_e.compute(differing)) row_sum += double(value);
        sum = row_sum;
    }
    return sum;
}

class CiedeCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        const int bit_depth = scorer_.format().bit_depth;
        block_as<Block>(bytes).delta_e_sum = with_sample_type(bit_depth, [&](auto sample) {
            return delta_e_sum<decltype(sample)>(pair, scorer_.chroma(), bit_depth);
        });
    }
};

}  // namespace

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<CiedeCpu>(Scorer(values));
}

}  // namespace vq::ciede
