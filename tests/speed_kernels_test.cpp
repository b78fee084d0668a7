// SpEED: every kernel variant this CPU runs (speed_cpu_kernels.hpp) bit-identical to the plain
// loops on random and adversarial inputs, stage by stage, and whole channel scores alike.
#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/speed/speed_stages.hpp"
#include "support/pictures.hpp"

namespace vq::test {
namespace {

using namespace vq::speed;

const Kernels& plain() { return available_kernels().back(); }

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Floats by kind: signed noise, large, tiny, zeros of both signs, a flat value.
std::vector<float> floats(const std::string& kind, std::size_t count, std::mt19937& random) {
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<float> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        const float u = unit(random);
        out[i] = kind == "large"   ? u * 3e4f
                 : kind == "tiny"  ? u * 1e-30f
                 : kind == "zeros" ? (i % 2 ? 0.0f : -0.0f)
                 : kind == "flat"  ? -26.0f
                                   : u * 128.0f;
    }
    return out;
}

const char* const kinds[] = {"noise", "large", "tiny", "zeros", "flat"};

TEST(SpeedKernels, VerticalPassEveryVariantMatchesPlain) {
    std::mt19937 random(1);
    for (const char* kind : kinds)
        for (const int taps : {3, 5, 9, 19, 35})
            for (const int width : {1, 7, 16, 17, 63, 80, 321, 960}) {
                std::vector<std::vector<float>> rows;
                std::vector<const float*> pointers;
                for (int i = 0; i < taps; ++i)
                    rows.push_back(floats(kind, std::size_t(width), random));
                for (const auto& row : rows) pointers.push_back(row.data());
                const std::vector<float> tap_values = gaussian_taps(taps, anti_alias_sigma(taps));
                std::vector<float> expected(static_cast<std::size_t>(width)),
                    actual(expected.size());
                plain().vertical(pointers.data(), tap_values.data(), taps, width, expected.data());
                for (const Kernels& k : available_kernels()) {
                    k.vertical(pointers.data(), tap_values.data(), taps, width, actual.data());
                    EXPECT_TRUE(same_bits(actual, expected))
                        << k.instruction_set << " " << kind << " taps " << taps << " width "
                        << width;
                }
            }
}

TEST(SpeedKernels, CovarianceEveryVariantMatchesPlain) {
    std::mt19937 random(2);
    for (const char* kind : kinds)
        for (const std::size_t count : {1u, 5u, 66u, 1456u}) {
            const std::vector<float> values = floats(kind, count * 25, random);
            std::vector<double> diffs(count * covariance_stride, 0.0);
            for (std::size_t s = 0; s < count; ++s)
                for (int p = 0; p < 25; ++p)
                    diffs[s * covariance_stride + std::size_t(p)] =
                        double(values[s * 25 + std::size_t(p)]);
            std::vector<double> expected(covariance_stride * covariance_stride, 0.5);
            std::vector<double> actual = expected;
            plain().covariance(diffs.data(), count, expected.data());
            for (const Kernels& k : available_kernels()) {
                std::fill(actual.begin(), actual.end(), 0.5);
                k.covariance(diffs.data(), count, actual.data());
                EXPECT_TRUE(same_bits(actual, expected))
                    << k.instruction_set << " " << kind << " count " << count;
            }
        }
}

TEST(SpeedKernels, ProductEveryVariantMatchesPlain) {
    std::mt19937 random(3);
    for (const char* kind : kinds)
        for (const int columns : {1, 6, 25, 28, 72, 313}) {
            const std::vector<float> p = floats(kind, 625, random);
            const std::vector<float> q = floats("noise", std::size_t(25 * columns), random);
            std::vector<float> expected(q.size()), actual(q.size());
            plain().product(p.data(), q.data(), columns, expected.data());
            for (const Kernels& k : available_kernels()) {
                k.product(p.data(), q.data(), columns, actual.data());
                EXPECT_TRUE(same_bits(actual, expected))
                    << k.instruction_set << " " << kind << " columns " << columns;
            }
        }
}

// The whole chain of one channel with each variant, on content that exercises every stage.
TEST(SpeedKernels, ChannelScoresEveryVariantMatchesPlain) {
    const VideoFormat format{330, 250, 10, ChromaFormat::yuv444};
    Options options;
    options.weight_mode = 5;
    const Config config(options, format.width, format.height, "speed_chroma");
    for (const Content content :
         {Content::texture, Content::noise, Content::ramp, Content::patchwork, Content::flat}) {
        const Picture ref = make_picture(format, content, 5);
        const Picture dist = perturbed(ref, 20, 6);
        const RowSource r = centred_rows(ref, 1), d = centred_rows(dist, 1);
        const ChannelScore expected = score_channel(r, d, config, plain());
        for (const Kernels& k : available_kernels()) {
            const ChannelScore actual = score_channel(r, d, config, k);
            EXPECT_EQ(std::bit_cast<std::uint32_t>(actual.score),
                      std::bit_cast<std::uint32_t>(expected.score))
                << k.instruction_set << " " << to_string(content);
            EXPECT_EQ(actual.failed, expected.failed) << k.instruction_set;
        }
    }
}

}  // namespace
}  // namespace vq::test
