// ADM, CUDA twin: every stage of spec/adm.md on the device from the luma planes the executor
// uploaded, into the same Block of integer sums as the CPU twin (the Scorer then does the float
// tail on the host). Per frame: the DWT of both images scale by scale, then one launch for the
// decoupling, CSF, masking and denominator of every scale's scored region into per-row sums, and
// one for the per-row rounding into the block. Scratch and the launch plan are made once for the
// frame size; nothing waits for the host.
#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/adm/adm.hpp"
#include "metrics/adm/adm_cuda_kernels.cuh"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::adm {
namespace {

class AdmCuda final : public ScorerTwin<cuda::CudaFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t stream) override {
        const Config& config = scorer_.config();
        for (int s = 0; s < scale_count; ++s)
            bands_[s] = cuda::DeviceBuffer(2 * device::bands_per_image * band_samples(s) *
                                           coefficient_bytes(s));

        // The mask launch's plan: fixed for the run, so it lives on the device and each block
        // reads its scale's constants from there.
        device::MaskPlan plan{};
        std::size_t row_sum_count = 0;
        for (int s = 0; s < scale_count; ++s)
            if (scored(s))
                row_sum_count += std::size_t(device::sum_count) * std::size_t(region_rows(s));
        row_sums_ = cuda::DeviceArray<unsigned long long>(row_sum_count);
        cuda::zero_async(row_sums_.data(), row_sum_count, stream);
        std::size_t row_sum_offset = 0;
        int blocks = 0;
        for (int s = 0; s < scale_count; ++s) {
            const ScaleGeometry& g = config.geometry[s];
            device::ScaleMask& m = plan.scales[s];
            for (int b = 0; b < band_count; ++b) {
                m.reference[b] = band_bytes(s, 0, device::band_h + b);
                m.distorted[b] = band_bytes(s, 1, device::band_h + b);
                m.multiplier[b] = config.multipliers.band[s][b];
                m.cube_shift[b] = g.cube_shift[b];
            }
            m.width = g.width;
            m.height = g.height;
            m.top = g.top;
            m.left = g.left;
            m.row_end = g.row_end();
            m.col_end = g.col_end();
            m.rows = region_rows(s);
            m.tiles_x = (g.col_end() - g.left + device::tile_width - 1) / device::tile_width;
            constexpr int den_square_shift[scale_count] = {0, 31, 30, 31};  // §10 Pd
            m.den_square_shift = den_square_shift[s];
            m.den_col_shift = g.den_col_shift;
            m.den_row_shift = g.den_row_shift;
            m.row_shift = g.row_shift;
            m.block_begin = m.block_end = blocks;
            if (!scored(s)) continue;
            m.block_end += m.tiles_x * ((m.rows + device::tile_height - 1) / device::tile_height);
            blocks = m.block_end;
            m.row_sums = row_sums_.data() + row_sum_offset;
            row_sum_offset += std::size_t(device::sum_count) * std::size_t(m.rows);
        }
        plan.blocks = blocks;
        plan.gain_limit = config.options.gain_limit;
        plan.aim = !config.options.skip_aim;
        plan_ = cuda::to_device(std::span<const device::MaskPlan>(&plan, 1));
        mask_blocks_ = blocks;
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        const Config& config = scorer_.config();
        with_sample_type(config.bit_depth,
                         [&](auto sample) { dwt0<decltype(sample)>(frame, stream); });
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
        device::launch_mask(plan_.data(), mask_blocks_, !config.options.skip_aim, stream);
        device::launch_row_totals(plan_.data(), reinterpret_cast<Block*>(device_block), stream);
    }

private:
    // adm_skip_scale0 leaves scale 0's sums out (§11.2): its DWT still feeds scale 1.
    bool scored(int s) const { return s > 0 || !scorer_.config().options.skip_scale0; }

    int region_rows(int s) const {
        const ScaleGeometry& g = scorer_.config().geometry[s];
        return g.row_end() - g.top;
    }

    std::size_t band_samples(int s) const {
        const ScaleGeometry& g = scorer_.config().geometry[s];
        return std::size_t(g.width) * std::size_t(g.height);
    }
    static std::size_t coefficient_bytes(int s) {
        return s == 0 ? sizeof(std::int16_t) : sizeof(std::int32_t);
    }

    // Band `index` (a, h, v, d) of image 0 (reference) or 1 (distorted) at scale s.
    std::byte* band_bytes(int s, int image, int index) const {
        return bands_[s].data() +
               (std::size_t(image * device::bands_per_image + index) * band_samples(s)) *
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
            for (int index = 0; index < device::bands_per_image; ++index)
                out.band[image][index] = band<T>(s, image, index);
        return out;
    }

    template <typename Sample>
    void dwt0(const cuda::DeviceFrame& frame, cudaStream_t stream) const {
        const Config& config = scorer_.config();
        device::launch_dwt0(cuda::DeviceFrame::plane<Sample>(frame.reference, frame.format, 0),
                            cuda::DeviceFrame::plane<Sample>(frame.distorted, frame.format, 0),
                            config.width, config.height, config.bit_depth,
                            bands_of<std::int16_t>(0), stream);
    }

    std::array<cuda::DeviceBuffer, scale_count> bands_;  // per scale: [image][a, h, v, d] bands
    cuda::DeviceArray<unsigned long long> row_sums_;     // per scored scale: [quantity][region row]
    cuda::DeviceArray<device::MaskPlan> plan_;
    int mask_blocks_ = 0;
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<AdmCuda>(Scorer(values));
}

}  // namespace vq::adm
