// CAMBI, CUDA twin: allocation of the run's device planes and tables, the order of the stages in
// a frame, and the host arithmetic of the scores. Per frame, both pictures go through each launch
// together: two memsets, [input check,] conversion, mask, five scales, c-values and three top-k
// passes, replayed as one CUDA graph; nothing is allocated or copied back, except, with
// reference_order=true, the planes whose top-k sum is order-dependent (§15.3).
#include "metrics/cambi/cambi_cuda_pipeline.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <stdexcept>

#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_lut.hpp"

namespace vq::cambi {
namespace {

using u128 = unsigned __int128;

// Captured graphs kept per pipeline: the executor cycles through a ring of a few frame slots,
// each with its own result block.
constexpr std::size_t max_graphs = 16;

int bit_width(u128 value) {
    const auto high = std::uint64_t(value >> 64);
    return high ? 64 + int(std::bit_width(high)) : int(std::bit_width(std::uint64_t(value)));
}

// Bit v: for a centre value v some contrast step passes both gates of §10.1.
void centre_gates(const ContrastParams& contrast, std::uint32_t* bits) {
    const int n = contrast.num_diffs;
    for (int v = 0; v < gpu::value_limit; ++v)
        for (int d = 1; d <= n; ++d)
            if (v <= contrast.tvi[std::size_t(d - 1)] && v + n + d > contrast.vis_lum) {
                bits[v >> 5] |= 1u << (v & 31);
                break;
            }
}

}  // namespace

double exact_top_k_mean(u128 sum, std::uint64_t k) {
    if (sum == 0) return 0.0;
    // q = floor(sum · 2^shift / k) in [2^54, 2^56) plus a sticky bit for the remainder, then
    // round to 53 bits, to nearest even.
    const int shift = 55 - (bit_width(sum) - bit_width(u128(k)));
    const u128 dividend = shift >= 0 ? sum << shift : sum;
    const u128 divisor = shift >= 0 ? u128(k) : u128(k) << -shift;
    u128 q = dividend / divisor;
    bool sticky = dividend % divisor != 0;
    int exponent = -shift;
    if (q >> 55) {
        sticky = sticky || (q & 1);
        q >>= 1;
        ++exponent;
    }
    auto significand = std::uint64_t(q >> 2);
    const unsigned rest = unsigned(q & 3);  // the two bits below the kept 53
    if (rest > 2 || (rest == 2 && (sticky || (significand & 1)))) ++significand;
    return std::ldexp(double(significand), exponent + 2 - 24);  // undo the 2^24 fixed point
}

double picture_score(const CudaBlock& block, int picture, const Config& config, float* copied) {
    const PictureGeometry& g = picture == 0 ? config.distorted : config.reference;
    const auto sizes = scale_sizes(g.width, g.height, g.speedup);
    std::array<double, num_scales> pooled{};
    for (int s = 0; s < num_scales; ++s) {
        const std::size_t n =
            std::size_t(sizes[std::size_t(s)][0]) * std::size_t(sizes[std::size_t(s)][1]);
        if (copied && block.order_dependent[picture][s]) {
            pooled[std::size_t(s)] = top_k_mean(std::span(copied, n), config.topk);
        } else {
            const auto& words = block.top_k_sums[picture][s];
            const u128 sum = u128(words[1]) << 64 | words[0];
            pooled[std::size_t(s)] = exact_top_k_mean(sum, top_k_count(n, config.topk));
        }
        if (copied) copied += n;
    }
    return combine_scales(pooled, g.window);
}

CudaPipeline::CudaPipeline(const Config& config, const VideoFormat& format, cudaStream_t stream,
                           int tile_rows, bool graphs)
    : config_(config),
      format_(format),
      pictures_(config.full_ref ? 2 : 1),
      tile_rows_(std::clamp(tile_rows, 1, gpu::max_tile_rows)),
      use_graphs_(graphs) {
    allocate(stream);
    prepare_stage_params();
    gpu::configure_c_values(c_value_params_);
}

const PictureGeometry& CudaPipeline::geometry(int picture) const {
    return picture == 0 ? config_.distorted : config_.reference;
}

// Every plane and table of the run, uninitialised but for the tables. The uploads read pageable
// host memory, so they return once the driver has staged it.
void CudaPipeline::allocate(cudaStream_t stream) {
    for (int p = 0; p < pictures_; ++p) {
        const PictureGeometry& g = geometry(p);
        const std::size_t pixels = std::size_t(g.width) * std::size_t(g.height);
        PlaneArrays& a = arrays_[std::size_t(p)];
        Planes& d = planes_[std::size_t(p)];
        a.converted = cuda::DeviceArray<std::uint16_t>(pixels);
        a.mask = cuda::DeviceArray<std::uint8_t>(pixels);
        d.converted = a.converted.data();
        d.mask = a.mask.data();
        d.sizes = scale_sizes(g.width, g.height, g.speedup);
        for (std::size_t s = 0; s < num_scales; ++s) {
            const std::size_t n = std::size_t(d.sizes[s][0]) * std::size_t(d.sizes[s][1]);
            a.filtered[s] = cuda::DeviceArray<std::uint16_t>(n);
            a.counted[s] = cuda::DeviceArray<std::uint16_t>(n);
            a.c[s] = cuda::DeviceArray<float>(n);
            d.filtered[s] = a.filtered[s].data();
            d.counted[s] = a.counted[s].data();
            d.c[s] = a.c[s].data();
        }
        if (g.resized()) {
            a.column_map = cuda::DeviceArray<int>(g.column_map.size());
            a.row_map = cuda::DeviceArray<int>(g.row_map.size());
            cuda::copy_async(a.column_map.data(), g.column_map.data(), g.column_map.size(), stream);
            cuda::copy_async(a.row_map.data(), g.row_map.data(), g.row_map.size(), stream);
            d.column_map = a.column_map.data();
            d.row_map = a.row_map.data();
        }
    }
    reciprocal_ = cuda::DeviceArray<float>(reciprocal_lut.size());
    cuda::copy_async(reciprocal_.data(), reciprocal_lut.data(), reciprocal_lut.size(), stream);
    c_value_params_.reciprocal = reciprocal_.data();
    top_k_scratch_ = cuda::DeviceBuffer(gpu::top_k_scratch_bytes());
}

void CudaPipeline::prepare_stage_params() {
    gpu::CValueParams& cv = c_value_params_;
    const ContrastParams& contrast = config_.contrast;
    cv.tile_rows = tile_rows_;
    cv.num_diffs = contrast.num_diffs;
    cv.slot_capacity = gpu::slot_capacity(contrast.num_diffs);
    cv.vis_lum = contrast.vis_lum;
    for (int d = 0; d < max_contrast_steps; ++d) {
        cv.tvi[d] = contrast.tvi[std::size_t(d)];
        cv.weights[d] = contrast_weights[std::size_t(d)];
    }
    centre_gates(contrast, cv.centre_gates);

    gpu::TopKParams& tk = top_k_params_;
    int c_blocks = 0, top_k_blocks = 0;
    for (int p = 0; p < pictures_; ++p) {
        const int radius = geometry(p).window >> 1;
        for (int s = 0; s < num_scales; ++s) {
            const Planes& d = planes_[std::size_t(p)];
            const auto [w, h] = d.sizes[std::size_t(s)];
            gpu::CValuePlane& plane = cv.planes[cv.plane_count++];
            plane = {d.counted[std::size_t(s)],
                     d.c[std::size_t(s)],
                     w,
                     h,
                     radius,
                     gpu::c_value_threads - 2 * radius,
                     0,
                     c_blocks};
            plane.tiles_x = (w + plane.tile_width - 1) / plane.tile_width;
            c_blocks += plane.tiles_x * ((h + tile_rows_ - 1) / tile_rows_);

            const std::size_t n = std::size_t(w) * std::size_t(h);
            gpu::TopKPlane& pool = tk.planes[tk.plane_count++];
            pool.c = d.c[std::size_t(s)];
            pool.count = n;
            pool.k = top_k_count(n, config_.topk);
            pool.first_block = top_k_blocks;
            pool.blocks = int((n + gpu::top_k_chunk - 1) / gpu::top_k_chunk);
            top_k_blocks += pool.blocks;
        }
    }
    tk.total_blocks = top_k_blocks;
}

// Allocated outside any capture (a graph cannot record an allocation), before the block's first
// frame; the graphs hold the area's address, which stays the block's.
float* CudaPipeline::readback_for(const CudaBlock* device_block) {
    for (const Readback& readback : readbacks_)
        if (readback.block == device_block) return readback.planes.data();
    std::size_t count = 0;
    for (int p = 0; p < pictures_; ++p) count += c_value_count(p);
    readbacks_.push_back({device_block, cuda::PinnedArray<float>(count)});
    return readbacks_.back().planes.data();
}

float* CudaPipeline::copied_planes(const CudaBlock* device_block, int picture) const {
    for (const Readback& readback : readbacks_)
        if (readback.block == device_block)
            return readback.planes.data() + (picture == 0 ? 0 : c_value_count(0));
    throw std::logic_error("CudaPipeline::copied_planes: no frame was enqueued with this block");
}

void CudaPipeline::enqueue(const cuda::DeviceFrame& frame, CudaBlock* device_block,
                           cudaStream_t stream, const StageEvents* events) {
    if (config_.reference_order) readback_for(device_block);
    if (use_graphs_ && !events)
        if (const cuda::GraphExec* graph = graph_for(frame, device_block, stream)) {
            graph->launch(stream);
            return;
        }
    launch_stages(frame, device_block, stream, events);
}

const cuda::GraphExec* CudaPipeline::graph_for(const cuda::DeviceFrame& frame,
                                               CudaBlock* device_block, cudaStream_t stream) {
    for (const Graph& graph : graphs_)
        if (graph.distorted == frame.distorted && graph.reference == frame.reference &&
            graph.block == device_block)
            return &graph.executable;
    if (graphs_.size() >= max_graphs) return nullptr;  // a caller cycling through many addresses
    cuda::GraphExec executable = cuda::GraphExec::capture(
        stream, [&] { launch_stages(frame, device_block, stream, nullptr); });
    graphs_.push_back({frame.distorted, frame.reference, device_block, std::move(executable)});
    return &graphs_.back().executable;
}

void CudaPipeline::launch_stages(const cuda::DeviceFrame& frame, CudaBlock* device_block,
                                 cudaStream_t stream, const StageEvents* events) {
    const auto mark = [&](int boundary) {
        if (events) (*events)[std::size_t(boundary)].record(stream);
    };
    mark(0);
    const std::byte* pictures[gpu::max_pictures] = {frame.distorted, frame.reference};
    const void* luma[gpu::max_pictures] = {};
    for (int p = 0; p < pictures_; ++p) luma[p] = pictures[p];  // luma is the frame's first plane

    cuda::zero_async(device_block, 1, stream);
    cuda::zero_async(top_k_scratch_.data(), top_k_scratch_.size(), stream);
    if (format_.bit_depth != 8 &&
        format_.bit_depth != 16)  // §6.1: other depths can hold invalid codes
        gpu::launch_largest_sample(luma, std::size_t(format_.width) * std::size_t(format_.height),
                                   pictures_, device_block->largest_sample, stream);

    gpu::ConvertParams convert;
    convert.pictures = pictures_;
    convert.bit_depth = format_.bit_depth;
    convert.anti_dither = config_.anti_dither;
    gpu::MaskParams mask;
    mask.pictures = pictures_;
    for (int p = 0; p < pictures_; ++p) {
        const PictureGeometry& g = geometry(p);
        const Planes& d = planes_[std::size_t(p)];
        convert.jobs[p] = {luma[p],   format_.width, format_.height, d.column_map,
                           d.row_map, d.converted,   g.width,        g.height};
        mask.jobs[p] = {d.converted, d.mask, g.width, g.height, g.mask_threshold};
    }
    gpu::launch_convert(convert, stream);
    mark(1);
    gpu::launch_mask(mask, stream);
    mark(2);

    // §8: each scale decimates the previous scale's filtered image; the mask is sampled from M.
    for (int s = 0; s < num_scales; ++s) {
        gpu::ScaleParams scale;
        scale.pictures = pictures_;
        for (int p = 0; p < pictures_; ++p) {
            const PictureGeometry& g = geometry(p);
            const Planes& d = planes_[std::size_t(p)];
            const bool decimate = s > 0 || g.speedup;
            const auto [w, h] = d.sizes[std::size_t(s)];
            scale.jobs[p] = {s == 0 ? d.converted : d.filtered[std::size_t(s - 1)],
                             s == 0 ? g.width : d.sizes[std::size_t(s - 1)][0],
                             decimate ? 1 : 0,
                             d.mask,
                             g.width,
                             s + (g.speedup ? 1 : 0),
                             d.filtered[std::size_t(s)],
                             d.counted[std::size_t(s)],
                             w,
                             h};
        }
        gpu::launch_scale(scale, stream);
    }
    mark(3);

    gpu::launch_c_values(c_value_params_, stream);
    mark(4);

    gpu::TopKParams top_k = top_k_params_;
    for (int p = 0; p < pictures_; ++p)
        for (int s = 0; s < num_scales; ++s)
            top_k.planes[p * num_scales + s].sum = device_block->top_k_sums[p][s];
    for (int p = 0; p < pictures_; ++p)
        for (int s = 0; s < num_scales; ++s)
            top_k.planes[p * num_scales + s].order_dependent = &device_block->order_dependent[p][s];
    gpu::launch_top_k(top_k, top_k_scratch_.data(), stream);
    if (config_.reference_order) launch_readback(device_block, top_k, stream);
    mark(5);
}

// After the top-k stage, whose flags it reads: each flagged plane into the block's pinned area.
void CudaPipeline::launch_readback(const CudaBlock* device_block, const gpu::TopKParams& top_k,
                                   cudaStream_t stream) {
    gpu::ReadbackParams readback;
    float* host = readback_for(device_block);
    for (int i = 0; i < top_k.plane_count; ++i) {
        const gpu::TopKPlane& plane = top_k.planes[i];
        readback.planes[readback.plane_count++] = {plane.c, plane.count, plane.order_dependent,
                                                   host};
        host += plane.count;
    }
    gpu::launch_readback(readback, stream);
}

std::vector<std::uint16_t> CudaPipeline::converted(int picture) const {
    const PictureGeometry& g = geometry(picture);
    return cuda::to_host(planes_[std::size_t(picture)].converted,
                         std::size_t(g.width) * std::size_t(g.height));
}

std::vector<std::uint8_t> CudaPipeline::mask(int picture) const {
    const PictureGeometry& g = geometry(picture);
    return cuda::to_host(planes_[std::size_t(picture)].mask,
                         std::size_t(g.width) * std::size_t(g.height));
}

std::vector<std::uint16_t> CudaPipeline::filtered(int picture, int scale) const {
    const Planes& d = planes_[std::size_t(picture)];
    const auto [w, h] = d.sizes[std::size_t(scale)];
    return cuda::to_host(d.filtered[std::size_t(scale)], std::size_t(w) * std::size_t(h));
}

std::vector<std::uint16_t> CudaPipeline::counted(int picture, int scale) const {
    const Planes& d = planes_[std::size_t(picture)];
    const auto [w, h] = d.sizes[std::size_t(scale)];
    return cuda::to_host(d.counted[std::size_t(scale)], std::size_t(w) * std::size_t(h));
}

std::vector<float> CudaPipeline::c_values(int picture, int scale) const {
    const Planes& d = planes_[std::size_t(picture)];
    const auto [w, h] = d.sizes[std::size_t(scale)];
    return cuda::to_host(d.c[std::size_t(scale)], std::size_t(w) * std::size_t(h));
}

std::size_t CudaPipeline::c_value_count(int picture) const {
    std::size_t count = 0;
    for (const auto& [w, h] : planes_[std::size_t(picture)].sizes)
        count += std::size_t(w) * std::size_t(h);
    return count;
}

void CudaPipeline::copy_c_values(int picture, float* host, cudaStream_t stream) const {
    const Planes& d = planes_[std::size_t(picture)];
    for (int s = 0; s < num_scales; ++s) {
        const auto [w, h] = d.sizes[std::size_t(s)];
        const std::size_t n = std::size_t(w) * std::size_t(h);
        cuda::copy_async(host, d.c[std::size_t(s)], n, stream);
        host += n;
    }
}

}  // namespace vq::cambi
