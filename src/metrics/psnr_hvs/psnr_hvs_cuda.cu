// PSNR-HVS, CUDA twin: the whole of spec §4-§8 on the device for all three planes of the pair the
// executor uploaded, with the CPU twin's bits. The block work (DCTs, masks, the 64 error terms per
// block) runs the CPU twin's own block math (psnr_hvs_cuda_terms.cu); each plane's accumulator is
// the serial float sum of the reference, reproduced exactly by composing runs of terms
// (psnr_hvs_cuda_sum.cu, psnr_hvs_float_sum.hpp). The result block is the CPU twin's Block (the
// three accumulators), scored on the host by the same Scorer.
#include <array>
#include <cstddef>

#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cpu_tables.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cuda.hpp"

namespace vq::psnr_hvs {
namespace {

using cuda_twin::DeviceTables;
using cuda_twin::FrameJob;
using cuda_twin::GroupMaps;

class PsnrHvsCuda final : public ScorerTwin<cuda::CudaFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    // The tables, and scratch for every plane's terms, group sums and group maps (reused frame
    // after frame: frames are enqueued in order on one stream).
    void prepare(cudaStream_t) override {
        std::array<DeviceTables, 3> tables;
        std::size_t terms = 0, groups = 0;
        for (int p = 0; p < 3; ++p) {
            const PlaneTables& host = plane_tables(p);
            for (int i = 0; i < 64; ++i) {
                tables[p].csf[i] = host.csf[i];
                tables[p].mask_weight[i] = host.mask_weight[i];
            }
            const Sizes sizes = sizes_of(p);
            terms += sizes.terms;
            groups += sizes.groups;
        }
        tables_ = cuda::DeviceArray<DeviceTables>(3);
        cuda::copy(tables_.data(), tables.data(), 3);
        terms_ = cuda::DeviceArray<float>(terms);
        group_sums_ = cuda::DeviceArray<double>(groups);
        groups_ = cuda::DeviceArray<GroupMaps>(groups);
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        const VideoFormat& format = this->format();
        FrameJob job{};
        std::size_t terms = 0, groups = 0;
        for (int p = 0; p < 3; ++p) {
            const Sizes sizes = sizes_of(p);
            const std::size_t offset = format.plane_offset(p);
            job.planes[p] = {.reference = frame.reference + offset,
                             .distorted = frame.distorted + offset,
                             .stride = format.plane_width(p),
                             .columns = sizes.columns,
                             .rows = sizes.rows,
                             .term_count = sizes.terms,
                             .group_count = sizes.groups,
                             .terms = terms_.data() + terms,
                             .group_sums = group_sums_.data() + groups,
                             .groups = groups_.data() + groups,
                             .tables = tables_.data() + p};
            terms += sizes.terms;
            groups += sizes.groups;
        }
        cuda_twin::enqueue_terms(job, format.bit_depth, stream);
        cuda_twin::enqueue_sum(
            job, reinterpret_cast<float*>(device_block + offsetof(Block, error_sum)), stream);
    }

private:
    struct Sizes {
        int columns, rows;
        std::size_t terms, groups;
    };

    // The scored plane's blocks (spec §3, §4; init() has refused planes under 8x8).
    Sizes sizes_of(int plane) const {
        const int columns = block_count(scored_width(format(), plane));
        const int rows = block_count(scored_height(format(), plane));
        const std::size_t terms = 64 * std::size_t(columns) * std::size_t(rows);
        return {columns, rows, terms,
                (terms + cuda_twin::group_terms - 1) / cuda_twin::group_terms};
    }

    cuda::DeviceArray<DeviceTables> tables_;
    cuda::DeviceArray<float> terms_;
    cuda::DeviceArray<double> group_sums_;
    cuda::DeviceArray<GroupMaps> groups_;
};

static_assert(sizeof(Block::error_sum) == 3 * sizeof(float), "the walker writes three floats");

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<PsnrHvsCuda>(Scorer(values));
}

}  // namespace vq::psnr_hvs
