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
// Largest difference to the CPU twin. The sum: the CPU's running double sum was exact on the
// fixtures (checked on the host: float ΔE values of real content have no bits below the sum's
// last place); in the worst case it is off by (n-1)·2^-53 relative, n the pixel count, i.e.
// 8.7·(n-1)·2^-53 dB on the score. The pixels: the device's pow/atan2/sin/cos/exp differ from
// glibc's in last double bits but, in 2^20 samples each, never after the rounding to float that
// follows; its powf (R_T, §4.6 row 18) differs from glibc's by an ulp for 6% of arguments, so the
// device computes x^7 as float(pow(double(x), 7)) instead (ciede_math.hpp single_pow7), which
// differs from glibc's powf in about 0.07% of arguments; those pixels get a ΔE an ulp or two off. Measured on an H200 with CUDA's powf: frame scores
// within 2.7e-10 of the CPU twin on every fixture, 7.4e-13 on random pictures
// (tests/cuda_ciede_parity_test.cu, tests/cuda_ciede_math_test.cu).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "cuda/cuda_feature.hpp"
#include "metrics/ciede/ciede.hpp"
#include "metrics/ciede/ciede_chroma.hpp"
#include "metrics/ciede/ciede_math.hpp"

namespace vq {
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
    ciede::ChromaAddressing chroma;
    ciede::CodeScale scale;
};

// ΔE · 2^64 truncated toward zero, for 0 <= ΔE < 2^16 (-0 included); false otherwise.
__device__ bool to_fixed_point(float value, cuda::uint128& fixed) {
    fixed = 0;
    if (!(value >= 0.0f && value < 65536.0f)) return false;
    const unsigned bits = __float_as_uint(value);
    const int exponent = int(bits >> 23);
    if (exponent == 0) return true;  // zero or subnormal (< 2^-126): nothing at or above 2^-64
    const cuda::uint128 significand = (bits & 0x7fffffu) | 0x800000u;  // value = significand · 2^(exponent-150)
    const int shift = exponent - 150 + 64;
    if (shift >= 0)
        fixed = significand << shift;
    else if (shift > -24)
        fixed = significand >> -shift;
    return true;
}

template <typename Sample>
__device__ ciede::Lab lab_at(const Planes& planes, std::size_t luma_index, long chroma_index,
                             const ciede::CodeScale& scale) {
    const int y = static_cast<const Sample*>(planes.luma)[luma_index];
    // The reference reads a zero where chroma_sample_index says -1 (4:2:2 reference mode).
    const int cb = chroma_index < 0 ? 0 : static_cast<const Sample*>(planes.cb)[chroma_index];
    const int cr = chroma_index < 0 ? 0 : static_cast<const Sample*>(planes.cr)[chroma_index];
    return ciede::ycbcr_to_lab(y, cb, cr, scale);
}

template <typename Sample>
__global__ void __launch_bounds__(threads_per_block) sum_delta_e(Frame frame, FixedPointSum* sum) {
    const std::size_t pixels = std::size_t(frame.width) * std::size_t(frame.height);
    const std::size_t stride = std::size_t(gridDim.x) * threads_per_block;
    cuda::uint128 total = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * threads_per_block + threadIdx.x; i < pixels; i += stride) {
        const int row = int(i / unsigned(frame.width));
        const int col = int(i % unsigned(frame.width));
        const long chroma_index = ciede::chroma_sample_index(frame.chroma, row, col);
        const ciede::Lab reference = lab_at<Sample>(frame.reference, i, chroma_index, frame.scale);
        const ciede::Lab distorted = lab_at<Sample>(frame.distorted, i, chroma_index, frame.scale);
        cuda::uint128 fixed;
        if (to_fixed_point(ciede::delta_e_2000(reference, distorted), fixed))
            total += fixed;
        else
            atomicAdd(&sum->unrepresentable, 1ull);
    }
    total = cuda::block_sum<threads_per_block>(total);
    if (threadIdx.x == 0 && total != 0) cuda::atomic_add(sum->words, total);
}

// The exact sum, rounded once (the conversion from 128 bits rounds to nearest; scaling by 2^-64
// is exact).
double to_double(const FixedPointSum& sum) {
    const cuda::uint128 total = (cuda::uint128(sum.words[1]) << 64) | sum.words[0];
    return std::ldexp(double(total), -64);
}

class CiedeCuda final : public cuda::CudaFeature {
public:
    explicit CiedeCuda(const CiedeOptions& options) : options_(options) {}

    void init(const VideoFormat& format) override {
        chroma_ = ciede::chroma_addressing(format, options_);
        scale_ = ciede::code_scale(format.bit_depth);
        format_ = format;
        pixel_count_ = static_cast<unsigned long long>(format.width) * unsigned(format.height);
    }

    std::vector<std::string> outputs() const override { return {"ciede2000"}; }
    std::size_t block_bytes() const override { return sizeof(FixedPointSum); }

    void prepare(cudaStream_t) override {}  // no tables or scratch: the block is the accumulator

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block, cudaStream_t stream) override {
        auto* sum = reinterpret_cast<FixedPointSum*>(device_block);
        VQ_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(FixedPointSum), stream));
        const Frame planes{planes_of(frame.reference), planes_of(frame.distorted), format_.width, format_.height,
                           chroma_, scale_};
        const unsigned blocks = cuda::blocks_for(pixel_count_, threads_per_block);
        if (format_.bit_depth > 8)
            sum_delta_e<std::uint16_t><<<blocks, threads_per_block, 0, stream>>>(planes, sum);
        else
            sum_delta_e<std::uint8_t><<<blocks, threads_per_block, 0, stream>>>(planes, sum);
        VQ_CUDA_CHECK_LAUNCH(sum_delta_e);
    }

    void finish(std::span<const std::byte> bytes, std::span<double> scores) override {
        const auto& sum = block_as<FixedPointSum>(bytes);
        scores[0] = sum.unrepresentable ? std::numeric_limits<double>::quiet_NaN()
                                        : ciede::frame_score(to_double(sum), pixel_count_);
    }

private:
    Planes planes_of(const std::byte* picture) const {
        return {picture + format_.plane_offset(0), picture + format_.plane_offset(1), picture + format_.plane_offset(2)};
    }

    CiedeOptions options_;
    ciede::ChromaAddressing chroma_{};
    ciede::CodeScale scale_{};
    VideoFormat format_;
    unsigned long long pixel_count_ = 0;
};

}  // namespace

std::unique_ptr<Feature> make_ciede_cuda(const OptionValues& values) {
    return std::make_unique<CiedeCuda>(CiedeOptions::from(values));
}

}  // namespace vq
