#include "cuda/surface_unpack.hpp"

#include <cstdint>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"

namespace vq::cuda {
namespace {

constexpr unsigned threads_per_block = 256;

// One plane: sample x of row y is the surface's sample `step` * x of that row (step 2 reads one
// component of interleaved pairs), shifted right by `shift`.
template <typename Sample>
__global__ void gather_plane(const std::byte* surface, std::size_t pitch, int step, int shift,
                             Sample* plane, int width, int height) {
    const std::size_t count = std::size_t(width) * std::size_t(height);
    for (std::size_t i = std::size_t(blockIdx.x) * threads_per_block + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * threads_per_block) {
        const int y = int(i / std::size_t(width));
        const int x = int(i % std::size_t(width));
        const auto* row = reinterpret_cast<const Sample*>(surface + std::size_t(y) * pitch);
        plane[i] = Sample(row[std::size_t(step) * std::size_t(x)] >> shift);
    }
}

template <typename Sample>
void unpack_planes(const DeviceSurface& surface, const VideoFormat& format, std::byte* picture,
                   cudaStream_t stream) {
    for (int p = 0; p < format.plane_count(); ++p) {
        // Interleaved chroma: Cb and Cr alternate in plane 1 of the surface.
        const int source = surface.interleaved_chroma ? (p == 0 ? 0 : 1) : p;
        const int step = surface.interleaved_chroma && p > 0 ? 2 : 1;
        const std::byte* first =
            surface.planes[source] + (surface.interleaved_chroma && p == 2 ? sizeof(Sample) : 0);
        const int width = format.plane_width(p), height = format.plane_height(p);
        gather_plane<Sample>
            <<<blocks_for(std::size_t(width) * std::size_t(height), threads_per_block),
               threads_per_block, 0, stream>>>(
                first, surface.pitches[source], step, surface.shift,
                reinterpret_cast<Sample*>(picture + format.plane_offset(p)), width, height);
        VQ_CUDA_CHECK_LAUNCH(gather_plane);
    }
}

}  // namespace

void unpack_surface(const DeviceSurface& surface, const VideoFormat& format, std::byte* picture,
                    cudaStream_t stream) {
    if (format.bytes_per_sample() == 2)
        unpack_planes<std::uint16_t>(surface, format, picture, stream);
    else
        unpack_planes<std::uint8_t>(surface, format, picture, stream);
}

}  // namespace vq::cuda
