// The CUDA twin's per-element arithmetic (ssim_math.hpp's decimated_sample, horizontal_moments,
// vertical_moment and terms, which its kernels call one output element per thread) run on the
// host in the kernels' arrangement, against the CPU twin's stages: the decimations and the means
// must be the same bits. What is left to the device round is only the kernels' indexing.
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/ssim/ssim_cpu_stages.hpp"
#include "metrics/ssim/ssim_math.hpp"
#include "metrics/ssim/ssim_tables.hpp"

namespace vq::ssim {
namespace {

template <typename Sample>
std::vector<Sample> random_plane(int width, int height, int bit_depth, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> code(0, (1 << bit_depth) - 1);
    std::vector<Sample> plane(std::size_t(width) * std::size_t(height));
    for (Sample& s : plane) s = Sample(code(rng));
    return plane;
}

// The device's decimation, element by element.
template <typename Sample, typename Weight>
std::vector<float> device_decimate(const std::vector<Sample>& in, int width, int height,
                                   float reciprocal, int factor, int taps, const Weight& weight) {
    const int out_width = decimated_size(width, factor);
    const int out_height = decimated_size(height, factor);
    std::vector<float> out(std::size_t(out_width) * std::size_t(out_height));
    for (int y = 0; y < out_height; ++y)
        for (int x = 0; x < out_width; ++x)
            out[std::size_t(y) * out_width + x] = decimated_sample(
                in.data(), width, height, reciprocal, factor, taps, weight, x, y);
    return out;
}

// The device's statistics: the horizontal planes, then each position's vertical moments and
// terms, summed serially (the sums' order is ssim_cuda_ordered_sum_test's subject).
Means device_statistics(const FloatPlane& ref, const FloatPlane& dist) {
    const int width = ref.width, height = ref.height;
    const int valid_width = width - 10, valid_height = height - 10;
    const std::size_t plane = std::size_t(valid_width) * std::size_t(height);
    std::vector<float> horizontal(5 * plane);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < valid_width; ++x) {
            float moments[5];
            const std::size_t at = std::size_t(y) * width + x;
            horizontal_moments(ref.samples.data() + at, dist.samples.data() + at, gaussian.data(),
                               moments);
            for (int m = 0; m < 5; ++m)
                horizontal[m * plane + std::size_t(y) * valid_width + x] = moments[m];
        }
    double ssim = 0, l = 0, c = 0, s = 0;
    for (int y = 0; y < valid_height; ++y)
        for (int x = 0; x < valid_width; ++x) {
            const std::size_t i = std::size_t(y) * valid_width + x;
            float b[5];
            for (int m = 0; m < 5; ++m)
                b[m] = vertical_moment(horizontal.data() + m * plane + i, std::size_t(valid_width),
                                       gaussian.data());
            const Terms t = terms(b[0], b[1], b[2], b[3], b[4]);
            const double s_term = double(float(t.s));  // stored as a float on the device
            ssim += (t.l * t.c) * s_term;
            l += t.l;
            c += t.c;
            s += s_term;
        }
    const double count = double(valid_width * valid_height);
    return {float(ssim / count), float(l / count), float(c / count), float(s / count)};
}

template <typename Sample>
void check_box(int width, int height, int bit_depth, int factor) {
    const auto luma = random_plane<Sample>(width, height, bit_depth, std::uint32_t(width * factor));
    const float reciprocal = 1.0f / luma_divisor(bit_depth);
    FloatPlane expected;
    Scratch scratch;
    decimate(PlaneView<Sample>{luma.data(), width, height, width}, reciprocal, factor,
             box_kernel(factor), factor, available_kernels().back(), scratch, expected);
    const float weight = 1.0f / float(factor * factor);
    const auto got = device_decimate(luma, width, height, reciprocal, factor, factor,
                                     [&](int, int) { return weight; });
    ASSERT_EQ(got.size(), expected.samples.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], expected.samples[i]) << width << "x" << height << " f=" << factor
                                               << " at " << i;
}

TEST(SsimCudaPlanes, BoxDecimationIsTheCpuTwins) {
    for (int factor = 2; factor <= 10; ++factor) {
        check_box<std::uint8_t>(123, 97, 8, factor);
        check_box<std::uint16_t>(130, 101, 10, factor);
        check_box<std::uint16_t>(3, 5, 16, factor);  // mirrors beyond the plane
    }
}

FloatPlane float_plane(int width, int height, int bit_depth, std::uint32_t seed) {
    const auto codes = random_plane<std::uint16_t>(width, height, bit_depth, seed);
    FloatPlane plane;
    convert_luma(PlaneView<std::uint16_t>{codes.data(), width, height, width}, bit_depth, plane);
    return plane;
}

TEST(SsimCudaPlanes, PyramidDecimationIsTheCpuTwins) {
    for (const auto& [width, height] : std::vector<std::pair<int, int>>{{176, 177}, {45, 22}}) {
        const FloatPlane in = float_plane(width, height, 12, 7);
        FloatPlane expected;
        Scratch scratch;
        decimate(in.view(), 1.0f, 2, lpf, lpf_taps, available_kernels().back(), scratch, expected);
        const auto got = device_decimate(in.samples, width, height, 1.0f, 2, lpf_taps,
                                         [](int v, int k) { return lpf[v * lpf_taps + k]; });
        ASSERT_EQ(got, expected.samples);
    }
}

TEST(SsimCudaPlanes, StatisticsAreTheCpuTwins) {
    for (int bit_depth : {8, 10, 12, 16})
        for (const auto& [width, height] :
             std::vector<std::pair<int, int>>{{11, 11}, {37, 12}, {97, 61}}) {
            const FloatPlane ref = float_plane(width, height, bit_depth, 1);
            FloatPlane dist = ref;
            std::mt19937 rng(2);
            std::uniform_real_distribution<float> noise(-3, 3);
            for (float& v : dist.samples) v = std::max(0.0f, v + float(int(noise(rng))));
            Scratch scratch;
            const Means expected = statistics(ref, dist, available_kernels().back(), scratch);
            const Means got = device_statistics(ref, dist);
            const std::string what = std::to_string(width) + "x" + std::to_string(height) + " " +
                                     std::to_string(bit_depth) + "-bit";
            EXPECT_EQ(got.ssim, expected.ssim) << what;
            EXPECT_EQ(got.l, expected.l) << what;
            EXPECT_EQ(got.c, expected.c) << what;
            EXPECT_EQ(got.s, expected.s) << what;
        }
}

}  // namespace
}  // namespace vq::ssim
