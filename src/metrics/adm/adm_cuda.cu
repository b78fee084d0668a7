// ADM, CUDA twin: every stage of spec/adm.md on the device from the luma planes the executor
// uploaded, into the same Block of integer sums as the CPU twin (the Scorer then does the float
// tail on the host). Per scale: the DWT of both images, then decoupling, CSF, masking and the
// denominator over the scored region into per-row partial sums; finally the per-row rounding into
// the block. Scratch is sized once for the frame size; nothing waits for the host.
#include <array>
#include <cstdint>
#include <memory>

#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/adm/adm.hpp"
#include "metrics/adm/adm_cuda_kernels.cuh"

namespace vq::adm {
namespace {

class AdmCuda final : public ScorerTwin<cuda::CudaFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t) override {
        const Config& config = scorer_.config();
        for (int s = 0; s < scale_count; ++s) {
            const ScaleGeometry& g = config.geometry[s];
            bands_[s] = cuda::DeviceBuffer(2 * device::bands_per_image * band_samples(s) * coefficient_bytes(s));
            if (scored(s))
                partial_[s] = cuda::DeviceBuffer(std::size_t(device::sum_count) * std::size_t(device::column_tiles(g)) *
                                                 std::size_t(device::region_rows(g)) * sizeof(unsigned long long));
        }
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block, cudaStream_t stream) override {
        const Config& config = scorer_.config();
        if (config.bit_depth > 8) dwt0<std::uint16_t>(frame, stream);
        else dwt0<std::uint8_t>(frame, stream);
        for (int s = 1; s < scale_count; ++s) {
            const int width = config.geometry[s - 1].width, height = config.geometry[s - 1].height;
            if (s == 1)
                device::launch_dwt_wide(s, band<std::int16_t>(0, 0, device::band_a),
                                        band<std::int16_t>(0, 1, device::band_a), width, height,
                                        bands_of<std::int32_t>(s), stream);
            else
                device::launch_dwt_wide(s, band<std::int32_t>(s - 1, 0, device::band_a),
                                        band<std::int32_t>(s - 1, 1, device::band_a), width, height,
                                        bands_of<std::int32_t>(s), stream);
        }
        std::array<device::ScaleRows, scale_count> rows{};
        for (int s = 0; s < scale_count; ++s) {
            const ScaleGeometry& g = config.geometry[s];
            rows[s] = {nullptr, device::region_rows(g), device::column_tiles(g), g.den_row_shift, g.row_shift,
                       !config.options.skip_aim};
            if (!scored(s)) continue;
            device::MaskLaunch launch{};
            for (int b = 0; b < band_count; ++b) {
                launch.bands.reference[b] = band_bytes(s, 0, device::band_h + b);
                launch.bands.distorted[b] = band_bytes(s, 1, device::band_h + b);
            }
            launch.scale = s;
            launch.geometry = g;
            launch.multipliers = config.multipliers.band[s];
            launch.gain_limit = config.options.gain_limit;
            launch.aim = !config.options.skip_aim;
            launch.partial = reinterpret_cast<unsigned long long*>(partial_[s].data());
            device::launch_mask(launch, stream);
            rows[s].partial = launch.partial;
        }
        device::launch_row_totals(rows, reinterpret_cast<Block*>(device_block), stream);
    }

private:
    // adm_skip_scale0 leaves scale 0's sums out (§11.2): its DWT still feeds scale 1.
    bool scored(int s) const { return s > 0 || !scorer_.config().options.skip_scale0; }

    std::size_t band_samples(int s) const {
        const ScaleGeometry& g = scorer_.config().geometry[s];
        return std::size_t(g.width) * std::size_t(g.height);
    }
    static std::size_t coefficient_bytes(int s) { return s == 0 ? sizeof(std::int16_t) : sizeof(std::int32_t); }

    // Band `index` (a, h, v, d) of image 0 (reference) or 1 (distorted) at scale s.
    std::byte* band_bytes(int s, int image, int index) const {
        return bands_[s].data() + (std::size_t(image * device::bands_per_image + index) * band_samples(s)) *
                                      coefficient_bytes(s);
    }
    template <typename T>
    T* band(int s, int image, int index) const {
        return reinterpret_cast<T*>(band_bytes(s, image, index));
    }
    template <typename T>
    device::DwtBands<T> bands_of(int s) const {
        device::DwtBands<T> out{};
        for (int image = 0; image < 2; ++image)
            for (int index = 0; index < device::bands_per_image; ++index) out.band[image][index] = band<T>(s, image, index);
        return out;
    }

    template <typename Sample>
    void dwt0(const cuda::DeviceFrame& frame, cudaStream_t stream) const {
        const Config& config = scorer_.config();
        device::launch_dwt0(cuda::DeviceFrame::plane<Sample>(frame.reference, frame.format, 0),
                            cuda::DeviceFrame::plane<Sample>(frame.distorted, frame.format, 0), config.width,
                            config.height, config.bit_depth, bands_of<std::int16_t>(0), stream);
    }

    std::array<cuda::DeviceBuffer, scale_count> bands_;    // per scale: [image][a, h, v, d] bands
    std::array<cuda::DeviceBuffer, scale_count> partial_;  // per scale: per-row partial sums
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<AdmCuda>(Scorer(values));
}

}  // namespace vq::adm
