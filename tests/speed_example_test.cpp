// SpEED: the worked example of spec/speed.md §14 stage by stage (conversion, residual,
// covariance, eigenvalues, statistics, scores), the Gaussian taps of §6 and the bilinear prescale
// of §14.4, with the plain kernels.
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/speed/speed_stages.hpp"
#include "speed_example_frames.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

using namespace vq::speed;

const Kernels& plain() { return available_kernels().back(); }

std::vector<float> first(const float* values, int count) { return {values, values + count}; }

// The example's default configuration on its 256x176 chroma planes (§14.1).
Config example_config(float sigma_nn = 0.29f) {
    Options options;
    options.sigma_nn = sigma_nn;
    return Config(options, 256, 176, "speed_chroma");
}

FloatPlane example_plane(bool distorted, int plane, const SpeedExample& e = {}) {
    return centred_plane(speed_example_picture(e, distorted), plane);
}

FloatPlane example_residual(bool distorted, int plane) {
    return residual(rows_of(example_plane(distorted, plane)), example_config(), plain());
}

TEST(SpeedTaps, BitPatternsOfSpecSection6) {
    const auto bits = [](int size, float sigma) {
        std::vector<std::uint32_t> out;
        const std::vector<float> taps = gaussian_taps(size, sigma);
        for (int i = 0; i <= size / 2; ++i) out.push_back(std::bit_cast<std::uint32_t>(taps[i]));
        for (int i = 0; i < size; ++i) EXPECT_EQ(taps[i], taps[size - 1 - i]) << size;
        return out;
    };
    using V = std::vector<std::uint32_t>;
    EXPECT_EQ(bits(5, anti_alias_sigma(5)), (V{0x3e1c20df, 0x3e632a5e, 0x3e80b4c4}));
    EXPECT_EQ(bits(9, anti_alias_sigma(9)),
              (V{0x3d9aedc6, 0x3dcaf6b8, 0x3df6259e, 0x3e0a2cd8, 0x3e0f9c33}));
    EXPECT_EQ(bits(19, anti_alias_sigma(19)),
              (V{0x3d0728bd, 0x3d1c9658, 0x3d324c84, 0x3d478946, 0x3d5b786d, 0x3d6d40b5, 0x3d7c12e0,
                 0x3d839ca1, 0x3d871313, 0x3d883fb5}));
    EXPECT_EQ(bits(35, anti_alias_sigma(35)),
              (V{0x3c8d9669, 0x3c9a05e3, 0x3ca6b2ad, 0x3cb37f72, 0x3cc04c03, 0x3cccf5d4, 0x3cd95886,
                 0x3ce54e8e, 0x3cf0b1ea, 0x3cfb5ce9, 0x3d02957a, 0x3d06fcb3, 0x3d0ad422, 0x3d0e0d8b,
                 0x3d109cc3, 0x3d1277fe, 0x3d13980d, 0x3d13f890}));
    EXPECT_EQ(bits(3, local_mean_sigma(3)), (V{0x3e2a5f21, 0x3f2ad06f}));
    EXPECT_EQ(bits(5, local_mean_sigma(5)), (V{0x3d5f2f86, 0x3e7a0fea, 0x3ece2433}));
    EXPECT_EQ(bits(9, local_mean_sigma(9)),
              (V{0x3c9b77ec, 0x3d64f57b, 0x3df7a562, 0x3e44ba13, 0x3e658dc1}));
}

TEST(SpeedTaps, SizesFollowTheGivenKernelScale) {
    struct Case {
        float scale;
        int anti_alias, local_mean;
    };
    for (const Case c :
         {Case{1, 9, 3}, Case{0.5f, 5, 3}, Case{1.5f, 15, 3}, Case{2, 19, 5},
          Case{2.0f / 3.0f, 7, 3}, Case{2.4f, 23, 5}, Case{360.0f / 97.0f, 35, 9},
          Case{4.0f / 3.0f, 13, 3}, Case{3.5f / 3.0f, 11, 3}, Case{5.0f / 3.0f, 15, 5},
          Case{3, 27, 7}, Case{1.0f / 2.25f, 5, 3}, Case{1.54f, 15, 5}, Case{1.0005f, 11, 3}}) {
        EXPECT_EQ(anti_alias_size(c.scale), c.anti_alias) << c.scale;
        EXPECT_EQ(local_mean_size(c.scale), c.local_mean) << c.scale;
    }
}

TEST(SpeedExample, ConvertedPlanes) {  // §14.1
    EXPECT_EQ(first(example_plane(false, 1).row(0), 6),
              (std::vector<float>{-22, -21, -20, -19, -18, -22}));
    EXPECT_EQ(example_plane(false, 2).at(0, 0), -26.0f);
    EXPECT_EQ(first(example_plane(false, 1, {.ten_bit = true}).row(0), 4),
              (std::vector<float>{-22, -20.75f, -19.5f, -18.25f}));
}

TEST(SpeedExample, UReferenceResidual) {  // §14.2
    const FloatPlane r = example_residual(false, 1);
    ASSERT_EQ(r.width, 16);
    ASSERT_EQ(r.height, 11);
    EXPECT_EQ(first(r.row(0), 16),
              (std::vector<float>{-11.2952871f, -7.0099802f, 0.240611553f, -9.29922676f,
                                  10.3846521f, 0.38018465f, 4.87661171f, -3.26787066f, -1.26534462f,
                                  1.7801578f, -11.7081661f, 6.54581642f, 4.10118961f, 5.90477085f,
                                  -8.0200119f, 5.76558924f}));
    EXPECT_EQ(first(r.row(1), 5), (std::vector<float>{4.96917248f, 5.99245214f, 0.191338986f,
                                                      2.39947987f, -1.45520985f}));
}

TEST(SpeedExample, UReferenceCovarianceAndEigenvalues) {  // §14.2
    const Covariance c = covariance(example_residual(false, 1), plain());
    EXPECT_EQ(first(c.means.data(), 5),
              (std::vector<float>{-0.254097849f, -0.0441911593f, 0.0310185254f, 0.00235516368f,
                                  -0.00446076086f}));
    const auto k = [&](int a, int b) { return c.k[std::size_t(a * 25 + b)]; };
    EXPECT_EQ((std::vector<float>{k(0, 0), k(1, 1), k(2, 2), k(3, 3), k(4, 4)}),
              (std::vector<float>{18.2323456f, 18.719368f, 18.1000195f, 18.3003178f, 18.1757965f}));
    EXPECT_EQ(first(c.k.data(), 5), (std::vector<float>{18.2323456f, -5.1182909f, 1.80259633f,
                                                        -3.66494012f, -0.931229949f}));
    EXPECT_EQ(k(24, 23), -3.44474077f);
    EXPECT_EQ(k(12, 7), -3.77545118f);
    int sweeps = 0;
    const auto lambda = eigenvalues(c.k, &sweeps);
    EXPECT_EQ(sweeps, 36);
    EXPECT_EQ(
        std::vector<float>(lambda.begin(), lambda.end()),
        (std::vector<float>{49.7278633f,  32.5820961f, 31.9361267f, 27.5313931f, 25.5079174f,
                            20.1590881f,  17.6691227f, 17.1622715f, 16.2602425f, 15.6024494f,
                            0.368801087f, 1.116081f,   2.00837731f, 1.46356308f, 3.47088456f,
                            12.9420977f,  11.9499359f, 4.068501f,   10.166935f,  9.5674839f,
                            8.35026741f,  6.13982916f, 6.75249958f, 6.38478947f, 7.33662796f}));
}

TEST(SpeedExample, SweepCountsOfTheOtherImages) {  // §14.2
    for (const auto& [distorted, plane, expected] :
         {std::tuple{true, 1, 37}, std::tuple{false, 2, 37}, std::tuple{true, 2, 39}}) {
        int sweeps = 0;
        eigenvalues(covariance(example_residual(distorted, plane), plain()).k, &sweeps);
        EXPECT_EQ(sweeps, expected) << "distorted " << distorted << " plane " << plane;
    }
}

TEST(SpeedExample, BlockStatistics) {  // §14.2, §14.3
    const auto stats = [](bool distorted, int plane, float sigma) {
        return image_statistics(example_residual(distorted, plane), sigma, plain());
    };
    const ImageStatistics u_ref = stats(false, 1, 0.19f);
    EXPECT_FALSE(u_ref.failed);
    EXPECT_EQ(u_ref.variance, (std::vector<float>{1.1935178f, 1.11922872f, 1.18510818f,
                                                  0.919054985f, 0.737118423f, 1.38849449f}));
    EXPECT_EQ(u_ref.entropy, (std::vector<float>{187.810471f, 185.580261f, 187.564835f, 178.773926f,
                                                 171.218277f, 193.079834f}));
    EXPECT_EQ(stats(false, 1, 0.29f).entropy,
              (std::vector<float>{188.485107f, 186.292053f, 188.243454f, 179.610901f, 172.216934f,
                                  193.67337f}));
    const ImageStatistics u_dis = stats(true, 1, 0.19f);
    EXPECT_EQ(u_dis.variance, (std::vector<float>{1.22008967f, 1.08773744f, 1.1111635f, 0.934735f,
                                                  0.745017827f, 1.30153179f}));
    EXPECT_EQ(u_dis.entropy, (std::vector<float>{190.370895f, 186.382141f, 187.121185f, 181.140442f,
                                                 173.35437f, 192.621948f}));
    const ImageStatistics v_ref = stats(false, 2, 0.19f);
    EXPECT_EQ(v_ref.variance, (std::vector<float>{0.886736155f, 0.93976444f, 1.41195846f,
                                                  0.923048854f, 0.897343755f, 0.849307418f}));
    EXPECT_EQ(v_ref.entropy, (std::vector<float>{201.334137f, 203.382477f, 217.801651f, 202.749268f,
                                                 201.753281f, 199.81488f}));
    const ImageStatistics v_dis = stats(true, 2, 0.19f);
    EXPECT_EQ(v_dis.variance, (std::vector<float>{0.893957257f, 0.930842042f, 1.4123621f,
                                                  0.918813348f, 0.913569868f, 0.853787065f}));
    EXPECT_EQ(v_dis.entropy, (std::vector<float>{181.57756f, 182.981384f, 197.559021f, 182.529572f,
                                                 182.330841f, 179.983597f}));
}

// The three outputs of one frame pair through a session.
std::vector<double> scores(const std::string& request, const SpeedExample& e) {
    Session session({.threads = 1});
    session.add_feature(request);
    const Picture ref = speed_example_picture(e, false), dist = speed_example_picture(e, true);
    session.start(ref.format());
    session.push({ref, dist});
    const ScoreTable table = session.finish();
    std::vector<double> values;
    for (std::size_t c = 0; c < table.column_count(); ++c)
        values.push_back(table.value(c, 0).value_or(-1));
    return values;
}

const std::string v1_options =
    "speed_chroma=speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45";

TEST(SpeedExample, ChannelScoresAndCombination) {  // §14.3
    using V = std::vector<double>;
    EXPECT_EQ(scores(v1_options, {}),
              (V{2.4198024272918701, 19.564462661743164, 10.992132186889648}));
    EXPECT_EQ(scores("speed_chroma", {}),
              (V{6.20111083984375, 19.045942306518555, 12.623526573181152}));
    EXPECT_EQ(scores(v1_options, {.ten_bit = true}),
              (V{2.4198837280273438, 19.564428329467773, 10.992156028747559}));
    EXPECT_EQ(scores(v1_options, {.flat_v = true}), (V{2.4198024272918701, 0, 2.4198024272918701}));
    for (const char* ps : {"0.5", "0.6"})
        EXPECT_EQ(
            scores(v1_options + ":speed_prescale=" + ps + ":speed_prescale_method=bilinear", {}),
            (V{0, 0, 0}))
            << ps;
}

TEST(SpeedExample, BilinearPrescaleOnTheLargerFrame) {  // §14.4
    const SpeedExample large{.chroma_width = 512, .chroma_height = 352};
    const FloatPlane u = example_plane(false, 1, large), v = example_plane(false, 2, large);
    EXPECT_EQ(first(prescaled(u, 256, 176, PrescaleMethod::bilinear).row(0), 8),
              (std::vector<float>{-20.5f, -19.75f, -20.25f, -19.5f, -4, -4.5f, -3.75f, -4.25f}));
    EXPECT_EQ(first(prescaled(u, 307, 211, PrescaleMethod::bilinear).row(0), 8),
              (std::vector<float>{-20.997879f, -19.3328476f, -19.3329887f, -20.9946213f,
                                  -19.2568569f, -3.3297317f, -4.99136353f, -3.33721399f}));
    EXPECT_EQ(first(prescaled(v, 307, 211, PrescaleMethod::bilinear).row(0), 5),
              (std::vector<float>{-26, -26, -26, -26.0000019f, -25.9511433f}));
    using V = std::vector<double>;
    EXPECT_EQ(scores(v1_options, large),
              (V{4.136904239654541, 20.469976425170898, 12.30344009399414}));
    EXPECT_EQ(scores(v1_options + ":speed_prescale=0.5:speed_prescale_method=bilinear", large),
              (V{4.0642800331115723, 20.100137710571289, 12.082208633422852}));
    EXPECT_EQ(scores(v1_options + ":speed_prescale=0.6:speed_prescale_method=bilinear", large),
              (V{7.6721367835998535, 20.877359390258789, 14.274747848510742}));
    EXPECT_EQ(scores("speed_chroma", large),
              (V{9.4234457015991211, 20.28462028503418, 14.854032516479492}));
}

}  // namespace
}  // namespace vq::test
