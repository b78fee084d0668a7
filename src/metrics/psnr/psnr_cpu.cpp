// PSNR, CPU twin: exact integer sums of squared differences per plane.
#include "metrics/psnr/psnr.hpp"

#include "metrics/toolkit/sample_type.hpp"

namespace vq::psnr {
namespace {

template <typename Sample>
std::uint64_t sum_squared_error(const PlaneView<Sample>& a, const PlaneView<Sample>& b) {
    std::uint64_t total = 0;
    for (int y = 0; y < a.height; ++y) {
        const Sample* ra = a.row(y);
        const Sample* rb = b.row(y);
        // One row's sum fits 64 bits for any width vq accepts (16384 * 65535^2 < 2^46); the inner
        // loop in 64-bit integers vectorises and is exact.
        std::uint64_t row = 0;
        for (int x = 0; x < a.width; ++x) {
            const std::int64_t d = std::int64_t(ra[x]) - std::int64_t(rb[x]);
            row += std::uint64_t(d * d);
        }
        total += row;
    }
    return total;
}

// 8-bit rows: squared differences fit 16 bits and a row sum fits 32, which vectorises twice as
// wide.
template <>
std::uint64_t sum_squared_error(const PlaneView<std::uint8_t>& a,
                                const PlaneView<std::uint8_t>& b) {
    std::uint64_t total = 0;
    for (int y = 0; y < a.height; ++y) {
        const std::uint8_t* ra = a.row(y);
        const std::uint8_t* rb = b.row(y);
        std::uint32_t row = 0;
        for (int x = 0; x < a.width; ++x) {
            const std::int32_t d = std::int32_t(ra[x]) - std::int32_t(rb[x]);
            row += std::uint32_t(d * d);
        }
        total += row;
    }
    return total;
}

class PsnrCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        auto& block = block_as<Block>(bytes);
        block = {};
        with_sample_type(pair.distorted.format().bit_depth, [&](auto sample) {
            using Sample = decltype(sample);
            for (int p = 0; p < scorer_.plane_count(); ++p)
                block.sse[p] = sum_squared_error(pair.reference.plane<Sample>(p),
                                                 pair.distorted.plane<Sample>(p));
        });
    }
};

}  // namespace

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<PsnrCpu>(Scorer(values));
}

}  // namespace vq::psnr
