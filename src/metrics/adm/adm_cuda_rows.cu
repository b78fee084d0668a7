// ADM CUDA twin, the accumulators (spec §9.3, §10): each region row's partial sums (one per column
// tile) are added into the complete row sum, rounded and shifted per row, and the rounded rows are
// summed into the block. One thread per row and quantity; integer sums, so the order of the
// block's atomic adds does not matter.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "metrics/adm/adm_cuda_kernels.cuh"

namespace vq::adm::device {
namespace {

constexpr unsigned rows_threads = 256;

struct RowsParams {
    ScaleRows scales[scale_count];
};

// Block (x, q, s): rows x·256 .. x·256 + 255 of quantity q of scale s.
__global__ void __launch_bounds__(rows_threads) row_totals(RowsParams p, unsigned long long* block) {
    const int q = int(blockIdx.y), s = int(blockIdx.z);
    const ScaleRows& scale = p.scales[s];
    const bool den = q < 3, aim = q >= 6;
    const int shift = den ? scale.den_shift : scale.row_shift;
    const unsigned long long round = shift >= 1 ? 1ull << (shift - 1) : 0;
    const int row = int(blockIdx.x * rows_threads + threadIdx.x);
    unsigned long long rounded = 0;
    if (scale.partial != nullptr && (!aim || scale.aim) && row < scale.rows) {
        const unsigned long long* slot = scale.partial + std::size_t(q) * scale.tiles * std::size_t(scale.rows) + row;
        unsigned long long sum = 0;
#pragma unroll 4
        for (int t = 0; t < scale.tiles; ++t) sum += slot[std::size_t(t) * std::size_t(scale.rows)];
        sum += round;
        // The den sums are uint64, the masked ones int64 (arithmetic shift).
        rounded = den ? sum >> shift : (unsigned long long)((long long)sum >> shift);
    }
    rounded = cuda::block_sum<rows_threads>(rounded);
    if (threadIdx.x == 0 && rounded != 0) atomicAdd(&block[s * sum_count + q], rounded);
}

static_assert(sizeof(ScaleSums) == sum_count * sizeof(std::uint64_t) && offsetof(ScaleSums, den) == 0 &&
                  offsetof(ScaleSums, dlm) == 3 * sizeof(std::uint64_t) &&
                  offsetof(ScaleSums, aim) == 6 * sizeof(std::uint64_t),
              "ScaleSums is read as 9 consecutive 64-bit sums: den, dlm, aim");
static_assert(sizeof(Block) == scale_count * sizeof(ScaleSums), "Block is the scales' sums back to back");

}  // namespace

void launch_row_totals(const std::array<ScaleRows, scale_count>& scales, Block* block, cudaStream_t stream) {
    RowsParams p{};
    int most_rows = 1;
    for (int s = 0; s < scale_count; ++s) {
        p.scales[s] = scales[s];
        most_rows = std::max(most_rows, scales[s].rows);
    }
    VQ_CUDA_CHECK(cudaMemsetAsync(block, 0, sizeof(Block), stream));
    const dim3 grid(unsigned((most_rows + rows_threads - 1) / rows_threads), sum_count, scale_count);
    row_totals<<<grid, rows_threads, 0, stream>>>(p, reinterpret_cast<unsigned long long*>(block));
    VQ_CUDA_CHECK_LAUNCH(row_totals);
}

}  // namespace vq::adm::device
