// The per-frame pyramid walk of integer VIF.
#include "metrics/vif/vif_cpu_pyramid.hpp"

#include <cstdint>
#include <vector>

#include "metrics/vif/vif_cpu_stages.hpp"

namespace vq::vif {
namespace {

// Decimates `source` into `samples` (uint16, rows packed) and returns the view of it. The buffers
// are the thread's, kept from frame to frame: a fresh one per frame cost more than the
// decimation itself, since the allocator maps and zero-fills new pages for each (a 1080p frame's
// scale 1 is a megabyte per plane).
template <typename Sample>
PlaneView<std::uint16_t> decimate_into(std::vector<std::uint16_t>& samples,
                                       const PlaneView<Sample>& source, int destination_scale,
                                       int bits, const Kernels& kernels) {
    const int width = source.width / 2;
    const int height = source.height / 2;
    // Grown, never shrunk: a buffer holds scale 1 and scale 3 in turn, and growing it back from
    // scale 3's size zero-filled most of scale 1's megabyte again every frame.
    const std::size_t count = std::size_t(width) * std::size_t(height);
    if (samples.size() < count) samples.resize(count);
    kernels.decimate(source, destination_scale, bits, samples.data());
    return {samples.data(), width, height, width};
}

// Each plane's scales, decimated alternately into two buffers (scale s + 1 from scale s).
struct PyramidBuffers {
    std::vector<std::uint16_t> ref[2], dist[2];
};

}  // namespace

template <typename Sample>
Block compute_block(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist, int bit_depth,
                    const Options& options, const Kernels& kernels) {
    Block block{};
    const double gain_limit = options.enhancement_gain_limit;
    if (!options.skip_scale0)
        block.scales[0] = kernels.statistics(ref, dist, 0, bit_depth, gain_limit);
    thread_local PyramidBuffers buffers;
    PlaneView<std::uint16_t> ref_scale = decimate_into(buffers.ref[0], ref, 1, bit_depth, kernels);
    PlaneView<std::uint16_t> dist_scale =
        decimate_into(buffers.dist[0], dist, 1, bit_depth, kernels);
    for (int scale = 1; scale < scale_count; ++scale) {
        const int bits = working_bits(scale, bit_depth);
        block.scales[scale] = kernels.statistics(ref_scale, dist_scale, scale, bits, gain_limit);
        if (scale + 1 == scale_count) break;
        const int next = scale % 2;
        ref_scale = decimate_into(buffers.ref[next], ref_scale, scale + 1, bits, kernels);
        dist_scale = decimate_into(buffers.dist[next], dist_scale, scale + 1, bits, kernels);
    }
    return block;
}

template Block compute_block(const PlaneView<std::uint8_t>&, const PlaneView<std::uint8_t>&, int,
                             const Options&, const Kernels&);
template Block compute_block(const PlaneView<std::uint16_t>&, const PlaneView<std::uint16_t>&, int,
                             const Options&, const Kernels&);

}  // namespace vq::vif
