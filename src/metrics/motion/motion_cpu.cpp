// Motion, CPU twin: the SAD of the blurred difference of two reference frames (spec/vmaf.md §3.2),
// the earlier frame handed over by the temporal contract (FramePair::previous_references).
#include <vector>

#include "metrics/motion/motion.hpp"
#include "metrics/motion/motion_cpu_kernels.hpp"
#include "metrics/toolkit/mirror.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::motion {
namespace {

template <typename Sample>
std::uint64_t sad(const PlaneView<Sample>& previous, const PlaneView<Sample>& current,
                  int bit_depth, const Kernels& kernels) {
    const int w = current.width, h = current.height;
    const std::size_t entries = std::size_t(w) + 2 * blur_radius + BlurredRow::padding;
    std::vector<std::int16_t> high(entries), low(entries);
    const BlurredRow row{high.data() + blur_radius, low.data() + blur_radius};
    std::uint64_t total = 0;
    for (int i = 0; i < h; ++i) {
        const Sample* rows_p[5];
        const Sample* rows_c[5];
        for (int k = 0; k < 5; ++k) {
            const int r = mirror(i - blur_radius + k, h);
            rows_p[k] = previous.row(r);
            rows_c[k] = current.row(r);
        }
        // A zero row blurs to zero: nothing to add.
        if (!kernels.vertical_row(rows_p, rows_c, w, bit_depth, row)) continue;
        for (std::int16_t* part : {row.high, row.low})
            for (int k = 1; k <= blur_radius; ++k) {
                part[-k] = part[mirror(-k, w)];
                part[w - 1 + k] = part[mirror(w - 1 + k, w)];
            }
        total += kernels.horizontal_row_sad(row, w);
    }
    return total;
}

class MotionCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        auto& block = block_as<Block>(bytes);
        const Picture& earlier = pair.previous_references[std::size_t(scorer_.options().lag() - 1)];
        block = {0, !earlier.empty()};
        if (!earlier.empty() && !scorer_.options().force_zero)
            block.sad = blurred_difference_sad(earlier, pair.reference);
    }

    // The blurred differences are the reference's: the whole block is its reference side.
    BlockPart reference_side() const override { return {0, block_bytes()}; }
    void compute_reference_side(const FramePair& pair, std::span<std::byte> part) const override {
        compute(pair, part);
    }
};

}  // namespace

std::uint64_t blurred_difference_sad(const Picture& previous, const Picture& current,
                                     const Kernels& kernels) {
    const int depth = current.format().bit_depth;
    return with_sample_type(depth, [&](auto sample) {
        using Sample = decltype(sample);
        return sad(previous.plane<Sample>(0), current.plane<Sample>(0), depth, kernels);
    });
}

std::uint64_t blurred_difference_sad(const Picture& previous, const Picture& current) {
    return blurred_difference_sad(previous, current, available_kernels().front());
}

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<MotionCpu>(Scorer(values));
}

}  // namespace vq::motion
