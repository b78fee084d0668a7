// ADM CUDA twin, the accumulators (spec §9.3, §10): each complete row sum is rounded and shifted
// per row, and the rounded rows are summed into the block. One block per scale and quantity
// writes its total directly, so the device block needs no clearing; the row sums are cleared as
// they are read, ready for the next frame's mask launch.
#include <cstddef>
#include <cstdint>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "metrics/adm/adm_cuda_kernels.cuh"

namespace vq::adm::device {
namespace {

constexpr unsigned rows_threads = 256;

// Block (q, s): quantity q of scale s.
__global__ void __launch_bounds__(rows_threads)
    row_totals(const MaskPlan* plan, unsigned long long* block) {
    const int q = int(blockIdx.x), s = int(blockIdx.y);
    const ScaleMask& scale = plan->scales[s];
    const bool den = q < 3, aim = q >= 6;
    const int shift = den ? scale.den_row_shift : scale.row_shift;
    const unsigned long long round = shift >= 1 ? 1ull << (shift - 1) : 0;
    unsigned long long total = 0;
    if (scale.row_sums != nullptr && (!aim || plan->aim)) {
        unsigned long long* sums = scale.row_sums + std::size_t(q) * std::size_t(scale.rows);
        for (int row = int(threadIdx.x); row < scale.rows; row += int(rows_threads)) {
            const unsigned long long sum = sums[row] + round;
            sums[row] = 0;
            // The den sums are uint64, the masked ones int64 (arithmetic shift).
            total += den ? sum >> shift : (unsigned long long)((long long)sum >> shift);
        }
    }
    total = cuda::block_sum<rows_threads>(total);
    if (threadIdx.x == 0) block[s * sum_count + q] = total;
}

static_assert(sizeof(ScaleSums) == sum_count * sizeof(std::uint64_t) &&
                  offsetof(ScaleSums, den) == 0 &&
                  offsetof(ScaleSums, dlm) == 3 * sizeof(std::uint64_t) &&
                  offsetof(ScaleSums, aim) == 6 * sizeof(std::uint64_t),
              "ScaleSums is written as 9 consecutive 64-bit sums: den, dlm, aim");
static_assert(sizeof(Block) == scale_count * sizeof(ScaleSums),
              "Block is the scales' sums back to back");

}  // namespace

void launch_row_totals(const MaskPlan* plan, Block* block, cudaStream_t stream) {
    row_totals<<<dim3(sum_count, scale_count), rows_threads, 0, stream>>>(
        plan, reinterpret_cast<unsigned long long*>(block));
    VQ_CUDA_CHECK_LAUNCH(row_totals);
}

}  // namespace vq::adm::device
