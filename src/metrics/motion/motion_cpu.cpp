// Motion, CPU twin: the SAD of the blurred difference of two reference frames (spec/vmaf.md §3.2),
// the earlier frame handed over by the temporal contract (FramePair::previous_references).
#include <cstdlib>
#include <vector>

#include "metrics/motion/motion.hpp"

namespace vq::motion {
namespace {

int mirror(int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; }

// Vertical sums of the 8-bit difference fit 32 bits; above 8 bits they need 64.
template <typename Sample>
using VerticalSum = std::conditional_t<sizeof(Sample) == 1, std::int32_t, std::int64_t>;

template <typename Sample>
std::uint64_t sad(const PlaneView<Sample>& previous, const PlaneView<Sample>& current,
                  int bit_depth) {
    const int w = current.width, h = current.height;
    // (Ry, Sy): the vertical pass leaves the blurred difference in the same unit at every depth.
    const int shift = bit_depth == 8 ? 8 : bit_depth;
    const VerticalSum<Sample> round = VerticalSum<Sample>(1) << (shift - 1);
    std::vector<std::int64_t> blurred_column(std::size_t(w) + 2 * blur_radius);
    std::int64_t* y = blurred_column.data() + blur_radius;
    std::uint64_t total = 0;
    for (int i = 0; i < h; ++i) {
        const Sample* rows_p[5];
        const Sample* rows_c[5];
        for (int k = 0; k < 5; ++k) {
            const int r = mirror(i - blur_radius + k, h);
            rows_p[k] = previous.row(r);
            rows_c[k] = current.row(r);
        }
        bool any = false;
        for (int j = 0; j < w; ++j) {
            VerticalSum<Sample> a = 0;
            for (int k = 0; k < 5; ++k)
                a += blur_taps[k] *
                     (VerticalSum<Sample>(rows_p[k][j]) - VerticalSum<Sample>(rows_c[k][j]));
            y[j] = (a + round) >> shift;  // arithmetic: floor on negative values
            any |= y[j] != 0;
        }
        if (!any) continue;  // a zero row blurs to zero: nothing to add
        for (int k = 1; k <= blur_radius; ++k) {
            y[-k] = y[mirror(-k, w)];
            y[w - 1 + k] = y[mirror(w - 1 + k, w)];
        }
        for (int j = 0; j < w; ++j) {
            std::int64_t b = 0;
            for (int k = 0; k < 5; ++k) b += blur_taps[k] * y[j - blur_radius + k];
            total += std::uint64_t(std::llabs((b + 32768) >> 16));
        }
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
};

}  // namespace

std::uint64_t blurred_difference_sad(const Picture& previous, const Picture& current) {
    const int depth = current.format().bit_depth;
    return depth > 8 ? sad(previous.plane<std::uint16_t>(0), current.plane<std::uint16_t>(0), depth)
                     : sad(previous.plane<std::uint8_t>(0), current.plane<std::uint8_t>(0), depth);
}

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<MotionCpu>(Scorer(values));
}

}  // namespace vq::motion
