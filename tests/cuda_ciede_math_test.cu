// CIEDE2000's per-pixel mathematics (ciede_math.hpp) compiled for the device against the same
// code on the host, pair by pair: the Lab values and ΔE00 bit patterns. This is the stage below
// the frame parity test; it shows where the device's math library (pow, atan2, sin, cos, exp,
// powf) rounds differently from glibc's, and by how many ulps.
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/check.hpp"
#include "cuda/memory.hpp"
#include "cuda_test_support.hpp"
#include "metrics/ciede/ciede_math.hpp"

namespace vq::test {
namespace {

struct Code {
    int y, cb, cr;
};

struct PixelResult {
    ciede::Lab reference;
    ciede::Lab distorted;
    float delta_e;
};

__host__ __device__ PixelResult compute(const Code& reference, const Code& distorted, const ciede::CodeScale& scale) {
    PixelResult result;
    result.reference = ciede::ycbcr_to_lab(reference.y, reference.cb, reference.cr, scale);
    result.distorted = ciede::ycbcr_to_lab(distorted.y, distorted.cb, distorted.cr, scale);
    result.delta_e = ciede::delta_e_2000(result.reference, result.distorted);
    return result;
}

__global__ void compute_all(const Code* reference, const Code* distorted, std::size_t count, ciede::CodeScale scale,
                            PixelResult* results) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) results[i] = compute(reference[i], distorted[i], scale);
}

template <typename T>
T* as(const cuda::DeviceBuffer& buffer) {
    return reinterpret_cast<T*>(buffer.data());
}

std::vector<PixelResult> compute_on_device(const std::vector<Code>& reference, const std::vector<Code>& distorted,
                                           const ciede::CodeScale& scale) {
    const std::size_t count = reference.size();
    const cuda::DeviceBuffer codes(2 * count * sizeof(Code)), results(count * sizeof(PixelResult));
    VQ_CUDA_CHECK(cudaMemcpy(as<Code>(codes), reference.data(), count * sizeof(Code), cudaMemcpyHostToDevice));
    VQ_CUDA_CHECK(cudaMemcpy(as<Code>(codes) + count, distorted.data(), count * sizeof(Code), cudaMemcpyHostToDevice));
    compute_all<<<unsigned((count + 255) / 256), 256>>>(as<Code>(codes), as<Code>(codes) + count, count, scale,
                                                       as<PixelResult>(results));
    VQ_CUDA_CHECK_LAUNCH(compute_all);
    std::vector<PixelResult> host(count);
    VQ_CUDA_CHECK(cudaMemcpy(host.data(), results.data(), count * sizeof(PixelResult), cudaMemcpyDeviceToHost));
    return host;
}

// Distance in units in the last place between two finite floats of the same sign.
std::int64_t ulps(float a, float b) {
    return std::llabs(std::int64_t(std::bit_cast<std::int32_t>(a)) - std::int64_t(std::bit_cast<std::int32_t>(b)));
}

std::int64_t lab_ulps(const ciede::Lab& a, const ciede::Lab& b) {
    return std::max({ulps(a.L, b.L), ulps(a.a, b.a), ulps(a.b, b.b)});
}

class CudaCiedeMath : public testing::TestWithParam<int> {};

// Half the pairs anywhere in the code range, half close together (what real frames hold).
TEST_P(CudaCiedeMath, DeviceRoundsLikeTheHost) {
    VQ_REQUIRE_CUDA();
    const int bit_depth = GetParam();
    const int maximum = (1 << bit_depth) - 1;
    std::mt19937 rng{std::uint32_t(bit_depth)};
    std::uniform_int_distribution<int> any(0, maximum), nudge(-8 << (bit_depth - 8), 8 << (bit_depth - 8));
    const auto near = [&](int code) { return std::clamp(code + nudge(rng), 0, maximum); };
    const std::size_t count = 200000;
    std::vector<Code> reference(count), distorted(count);
    for (std::size_t i = 0; i < count; ++i) {
        reference[i] = {any(rng), any(rng), any(rng)};
        distorted[i] = i % 2 ? Code{any(rng), any(rng), any(rng)}
                             : Code{near(reference[i].y), near(reference[i].cb), near(reference[i].cr)};
    }
    const ciede::CodeScale scale = ciede::code_scale(bit_depth);
    const auto device = compute_on_device(reference, distorted, scale);

    std::size_t lab_differ = 0, delta_e_differ = 0;
    std::int64_t lab_worst = 0, delta_e_worst = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const PixelResult host = compute(reference[i], distorted[i], scale);
        const std::int64_t lab = std::max(lab_ulps(host.reference, device[i].reference),
                                          lab_ulps(host.distorted, device[i].distorted));
        const std::int64_t delta_e = ulps(host.delta_e, device[i].delta_e);
        lab_differ += lab != 0;
        delta_e_differ += delta_e != 0;
        lab_worst = std::max(lab_worst, lab);
        delta_e_worst = std::max(delta_e_worst, delta_e);
    }
    std::cout << bit_depth << "-bit, " << count << " pairs: Lab differs in " << lab_differ << " (worst " << lab_worst
              << " ulp), dE00 differs in " << delta_e_differ << " (worst " << delta_e_worst << " ulp)\n";
    // A last-bit difference in a few pixels moves a frame score by far less than 1e-9; anything
    // more means the device code does not do the host's operations.
    EXPECT_LE(lab_worst, 1);
    EXPECT_LE(delta_e_worst, 2);
    EXPECT_LE(delta_e_differ, count / 1000);
}

INSTANTIATE_TEST_SUITE_P(EveryDepth, CudaCiedeMath, testing::Values(8, 10, 12, 16),
                         [](const testing::TestParamInfo<int>& info) { return std::to_string(info.param) + "bit"; });

}  // namespace
}  // namespace vq::test
