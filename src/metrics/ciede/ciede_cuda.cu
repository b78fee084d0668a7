// CIEDE2000, CUDA twin: ΔE00 for every luma pixel on the device, with the CPU twin's own
// per-pixel code (ciede_math.hpp for the colour mathematics, ciede_chroma.hpp for which chroma
// sample a pixel uses), read from the frame pair uploaded once at native resolution.
//
// The frame sum. The CPU twin adds the float ΔE values in double in raster order (spec §4.7), the
// reference's order, which a parallel sum cannot keep. This twin computes the exact sum instead:
// each ΔE is converted exactly to a fixed-point number with 64 fraction bits (a float ΔE below
// 2^16 has no bits below 2^-64 unless it is under 2^-40, where the truncation error is < 2^-64)
// and added in 128-bit integers, per block and then with one atomic add per block. The result
// does not depend on scheduling, and the host rounds it to double once.
//
// Equality with the CPU twin. The pixels: both twins run ciede_math.hpp's code with the
// reference's float and double roundings. Where the reference calls glibc's powf (R_T, §4.6
// row 18) both call glibc_powf_7, glibc's own powf algorithm for the exponent 7 written with fma,
// which equals glibc's powf on every float (scripts/ciede_pow7_check.cpp on the host,
// tests/ciede_cuda_math_test.cu on the device); CUDA's powf differs from glibc's by an ulp for
// 6% of arguments. The device's double pow/atan2/sin/cos/exp differ from glibc's in last bits,
// but in 2^20 samples each never after the rounding to float that follows them, and every
// pixel's Lab and ΔE00 match the host's on random code pairs and the fixtures' frames (same
// test). The sum: the CPU's running double sum is exact on the fixtures and the parity test's
// pictures (float ΔE values of real content have no bits below the sum's last place), so the
// scores are identical there (tests/ciede_cuda_parity_test.cu); in the worst case the running
// sum is off by (n-1)·2^-53 relative, n the pixel count, i.e. 8.7·(n-1)·2^-53 dB on the score.
//
// Speed. The Y'CbCr -> Lab conversion costs six double pow calls per colour, twelve per pixel.
// For 8-bit input prepare() therefore converts all 2^24 code triples once, on the device, with the
// same ycbcr_to_lab (same flags: --fmad=false), into a 192 MiB table, so a pixel's Lab is the very
// value it would compute itself; a pixel then costs two table reads and the ΔE00. Deeper inputs
// (2^30 triples and more) keep computing Lab per pixel. Pixels whose reference and distorted
// triples are equal add ΔE00 = +0 (as in the CPU twin) and are skipped.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "cuda/memory.hpp"
#include "cuda/cuda_feature.hpp"
#include "metrics/ciede/ciede.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::ciede {
namespace {

constexpr unsigned threads_per_block = 256;

// The device's result block: Σ ΔE00 * 2^64 as an unsigned 128-bit integer (low word first), and
// the number of pixels whose ΔE had no fixed-point value (not a number, or 2^16 and above: never
// for finite Lab values; counted so that such a frame scores NaN instead of a wrong number).
struct FixedPointSum {
    unsigned long long words[2];
    unsigned long long unrepresentable;
};

struct Planes {
    const void* luma;
    const void* cb;
    const void* cr;
};

struct Frame {
    Planes reference;
    Planes distorted;
    int width;
    int height;
    ChromaAddressing chroma;
    CodeScale scale;
};

// ΔE · 2^64 truncated toward zero, for 0 <= ΔE < 2^16 (-0 included); false otherwise.
__device__ bool to_fixed_point(float value, cuda::uint128& fixed) {
    fixed = 0;
    if (!(value >= 0.0f && value < 65536.0f)) return false;
    const unsigned bits = __float_as_uint(value);
    const int exponent = int(bits >> 23);
    if (exponent == 0) return true;  // zero or subnormal (< 2^-126): nothing at or above 2^-64
    const cuda::uint128 significand =
        (bits & 0x7fffffu) | 0x800000u;  // value = significand · 2^(exponent-150)
    const int shift = exponent - 150 + 64;
    if (shift >= 0)
        fixed = significand << shift;
    else if (shift > -24)
        fixed = significand >> -shift;
    return true;
}

// One pixel's codes; cb and cr are 0 where chroma_sample_index says -1 (the reference reads a
// zero there, 4:2:2 reference mode).
struct Codes {
    int y, cb, cr;
};

__device__ bool operator==(const Codes& p, const Codes& q) {
    return p.y == q.y && p.cb == q.cb && p.cr == q.cr;
}

template <typename Sample>
__device__ Codes codes_at(const Planes& planes, std::size_t luma_index, long chroma_index) {
    const auto* luma = static_cast<const Sample*>(planes.luma);
    const auto* cb = static_cast<const Sample*>(planes.cb);
    const auto* cr = static_cast<const Sample*>(planes.cr);
    return {__ldg(&luma[luma_index]), chroma_index < 0 ? 0 : __ldg(&cb[chroma_index]),
            chroma_index < 0 ? 0 : __ldg(&cr[chroma_index])};
}

// The 8-bit Lab table: one entry per code triple. Luma is the fastest-varying index because
// neighbouring pixels mostly share their chroma sample and differ a little in luma, so their
// entries share cache lines.
constexpr std::size_t lab_table_entries = std::size_t(1) << 24;

__device__ std::size_t lab_table_index(const Codes& codes) {
    return (std::size_t(codes.cb) << 16) | (std::size_t(codes.cr) << 8) | std::size_t(codes.y);
}

__global__ void __launch_bounds__(threads_per_block) fill_lab_table(Lab* table, CodeScale scale) {
    const unsigned index = blockIdx.x * threads_per_block + threadIdx.x;
    if (index >= lab_table_entries) return;
    table[index] =
        ycbcr_to_lab(int(index & 0xffu), int(index >> 16), int((index >> 8) & 0xffu), scale);
}

// Lab of a code triple: the table's entry for 8-bit input (bit-identical to computing it, see
// the header), computed otherwise.
__device__ Lab lab_of(const Codes& codes, const Lab* table, const CodeScale& scale) {
    if (table) {
        const Lab* entry = &table[lab_table_index(codes)];
        return {__ldg(&entry->L), __ldg(&entry->a), __ldg(&entry->b)};
    }
    return ycbcr_to_lab(codes.y, codes.cb, codes.cr, scale);
}

// Row and column of a grid-stride loop's pixel, advanced by the stride without a 64-bit division
// per pixel (one per thread at the start).
struct RasterCursor {
    int row, col;    // of the current pixel
    int rows, cols;  // the stride, as whole rows plus columns
    int width;

    __device__ RasterCursor(std::size_t first, std::size_t stride, int frame_width)
        : row(int(first / unsigned(frame_width))),
          col(int(first % unsigned(frame_width))),
          rows(int(stride / unsigned(frame_width))),
          cols(int(stride % unsigned(frame_width))),
          width(frame_width) {}

    __device__ void advance() {
        row += rows;
        col += cols;
        if (col >= width) {
            col -= width;
            ++row;
        }
    }
};

template <typename Sample>
__global__ void __launch_bounds__(threads_per_block)
    sum_delta_e(Frame frame, const Lab* lab_table, FixedPointSum* sum) {
    const std::size_t pixels = std::size_t(frame.width) * std::size_t(frame.height);
    const std::size_t stride = std::size_t(gridDim.x) * threads_per_block;
    const std::size_t first = std::size_t(blockIdx.x) * threads_per_block + threadIdx.x;
    RasterCursor at(first, stride, frame.width);
    cuda::uint128 total = 0;
    for (std::size_t i = first; i < pixels; i += stride, at.advance()) {
        const long chroma_index = chroma_sample_index(frame.chroma, at.row, at.col);
        const Codes reference = codes_at<Sample>(frame.reference, i, chroma_index);
        const Codes distorted = codes_at<Sample>(frame.distorted, i, chroma_index);
        if (reference == distorted) continue;  // ΔE00 = +0, adds nothing (as the CPU twin skips it)
        const float delta_e = delta_e_2000(lab_of(reference, lab_table, frame.scale),
                                           lab_of(distorted, lab_table, frame.scale));
        cuda::uint128 fixed;
        if (to_fixed_point(delta_e, fixed))
            total += fixed;
        else
            atomicAdd(&sum->unrepresentable, 1ull);
    }
    total = cuda::block_sum<threads_per_block>(total);
    if (threadIdx.x == 0 && total != 0) cuda::atomic_add(sum->words, total);
}

// The exact sum, rounded once (the conversion from 128 bits rounds to nearest; scaling by 2^-64
// is exact); NaN when a pixel had no fixed-point value.
Block to_block(const FixedPointSum& sum) {
    if (sum.unrepresentable) return {std::numeric_limits<double>::quiet_NaN()};
    const cuda::uint128 total = (cuda::uint128(sum.words[1]) << 64) | sum.words[0];
    return {std::ldexp(double(total), -64)};
}

class CiedeCuda final : public ScorerTwin<cuda::CudaFeature, Scorer, FixedPointSum> {
public:
    using ScorerTwin::ScorerTwin;

    // 8-bit input: the Lab table (see the header), filled on the stream before any frame's
    // kernel. The result block is the accumulator, so no other scratch.
    void prepare(cudaStream_t stream) override {
        if (scorer_.format().bit_depth != 8) return;
        lab_table_ = cuda::DeviceArray<Lab>(lab_table_entries);
        const unsigned blocks = unsigned(lab_table_entries / threads_per_block);
        fill_lab_table<<<blocks, threads_per_block, 0, stream>>>(lab_table_.data(),
                                                                 scorer_.scale());
        VQ_CUDA_CHECK_LAUNCH(fill_lab_table);
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        auto* sum = reinterpret_cast<FixedPointSum*>(device_block);
        cuda::zero_async(sum, 1, stream);
        const VideoFormat& format = scorer_.format();
        const Frame planes{planes_of(frame.reference),
                           planes_of(frame.distorted),
                           format.width,
                           format.height,
                           scorer_.chroma(),
                           scorer_.scale()};
        const unsigned blocks = cuda::blocks_for(scorer_.pixel_count(), threads_per_block);
        with_sample_type(format.bit_depth, [&](auto sample) {
            using Sample = decltype(sample);
            // Only 8-bit input has the Lab table (prepare()).
            const auto* table = sizeof(Sample) == 1 ? lab_table_.data() : nullptr;
            sum_delta_e<Sample><<<blocks, threads_per_block, 0, stream>>>(planes, table, sum);
        });
        VQ_CUDA_CHECK_LAUNCH(sum_delta_e);
    }

private:
    Planes planes_of(const std::byte* picture) const {
        const VideoFormat& format = scorer_.format();
        return {picture + format.plane_offset(0), picture + format.plane_offset(1),
                picture + format.plane_offset(2)};
    }

    cuda::DeviceArray<Lab> lab_table_;  // 8-bit input only; empty otherwise
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<CiedeCuda>(Scorer(values));
}

}  // namespace vq::ciede
