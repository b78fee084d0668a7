// CAMBI, CUDA twin, reference_order=true: each plane whose top-k sum the top-k stage flagged as
// order-dependent (§15.3) is written to pinned host memory, where the host pools it in the
// reference's order. Only the device knows the flag, so the copy is a kernel that reads it, not
// a cudaMemcpyAsync the host would have to decide on: planes whose flag is clear cost one read of
// the flag per block. Pinned memory is addressable from kernels under unified addressing (every
// 64-bit platform CUDA supports), with the same pointer as on the host.
#include "cuda/check.hpp"
#include "metrics/cambi/cambi_cuda_kernels.cuh"

namespace vq::cambi::gpu {
namespace {

constexpr int readback_threads = 256;
constexpr int readback_blocks = 264;  // per plane: two per SM of an H200, enough to fill the bus

__global__ void __launch_bounds__(readback_threads)
    readback(const __grid_constant__ ReadbackParams params) {
    const ReadbackPlane& plane = params.planes[blockIdx.y];
    if (*plane.order_dependent == 0) return;
    const std::uint64_t stride = std::uint64_t(gridDim.x) * readback_threads;
    for (std::uint64_t i = std::uint64_t(blockIdx.x) * readback_threads + threadIdx.x;
         i < plane.count; i += stride)
        plane.host[i] = plane.c[i];
}

}  // namespace

void launch_readback(const ReadbackParams& params, cudaStream_t stream) {
    if (params.plane_count == 0) return;
    readback<<<dim3(readback_blocks, unsigned(params.plane_count)), readback_threads, 0, stream>>>(
        params);
    VQ_CUDA_CHECK_LAUNCH(readback);
}

}  // namespace vq::cambi::gpu
