// The ciede CPU twin driven directly (init, compute, finish): the frame example of
// spec/ciede.md §7.4, +inf for identical input, chroma mappings, bit depths and odd sizes, the
// last checked against the independent model in ciede_test_model.hpp.
#include <cmath>

#include <gtest/gtest.h>

#include "ciede_test_model.hpp"
#include "ciede_test_support.hpp"
#include "metrics/ciede/ciede_math.hpp"
#include "support/pictures.hpp"
#include "vq/error.hpp"

namespace vq::test {
namespace {

// §7.4: a 4x4 4:2:0 frame, luma rows then the 2x2 Cb and Cr planes.
const int example_ref[3][16] = {
    {100, 110, 120, 130, 100, 110, 120, 130, 60, 70, 80, 90, 60, 70, 80, 90},
    {100, 128, 140, 90},
    {150, 128, 110, 160}};
const int example_dist[3][16] = {
    {102, 110, 118, 131, 100, 112, 120, 130, 60, 72, 80, 88, 61, 70, 80, 90},
    {101, 127, 140, 92},
    {150, 130, 108, 160}};

Picture example_picture(const int (&codes)[3][16], int bit_depth,
                        const std::function<int(int, int)>& to_depth) {
    return make_picture({4, 4, bit_depth, ChromaFormat::yuv420}, [&](int p, int r, int c) {
        return to_depth(p, codes[p][r * (p == 0 ? 4 : 2) + c]);
    });
}

TEST(CiedeFeature, WorkedFrameExampleMatchesThePerPixelTableAndTheCli) {
    const Picture ref = example_picture(example_ref, 8, [](int, int v) { return v; });
    const Picture dist = example_picture(example_dist, 8, [](int, int v) { return v; });
    // The per-pixel ΔE00 of the table in raster order: the frame must sum exactly these.
    const float per_pixel[16] = {1.31249869f,  0.421958596f, 2.44818974f,  2.06534815f,
                                 0.392181963f, 1.39395177f,  1.9931134f,   1.96013558f,
                                 0.37237832f,  1.38576734f,  0.569564581f, 1.43774009f,
                                 0.823955357f, 0.401768029f, 0.569564581f, 0.480543226f};
    double sum = 0;
    for (float delta_e : per_pixel) sum += delta_e;
    const double score = ciede_score(ref, dist);
    EXPECT_EQ(score, ciede::frame_score(sum, 16));
    EXPECT_NEAR(score, 43.963131, 5e-7);  // what the reference CLI prints
}

TEST(CiedeFeature, WorkedFrameExampleAt10Bit) {
    // Reference codes x4; distorted luma x4+1, Cb x4, Cr x4-1.
    const Picture ref = example_picture(example_ref, 10, [](int, int v) { return 4 * v; });
    const Picture dist = example_picture(example_dist, 10, [](int p, int v) {
        return 4 * v + (p == 0 ? 1 : p == 1 ? 0 : -1);
    });
    EXPECT_NEAR(ciede_score(ref, dist), 43.887698, 5e-7);
}

TEST(CiedeFeature, IdenticalPicturesScorePositiveInfinity) {
    const Picture picture = make_picture({64, 48, 8, ChromaFormat::yuv420}, Content::noise, 1);
    const double score = ciede_score(picture, picture);
    EXPECT_TRUE(std::isinf(score));
    EXPECT_GT(score, 0);
}

TEST(CiedeFeature, GreyscaleInputIsAUsageError) {
    const FeatureDefinition definition = ciede::definition();
    auto feature = definition.make_cpu(bind_options("ciede", definition.options, {}));
    try {
        feature->init({64, 48, 8, ChromaFormat::yuv400});
        FAIL() << "4:0:0 accepted";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::usage);
        EXPECT_NE(std::string(error.what()).find("4:0:0"), std::string::npos) << error.what();
    }
}

TEST(CiedeFeature, EmitsOneOutputNamedCiede2000) {
    EXPECT_EQ(make_ciede({16, 16, 8, ChromaFormat::yuv420})->outputs(),
              std::vector<std::string>{"ciede2000"});
}

TEST(CiedeFeature, UnknownOptionIsRejected) {
    const FeatureDefinition definition = ciede::definition();
    EXPECT_THROW(bind_options("ciede", definition.options, {{"x", "y"}}), Error);
}

struct FormatCase {
    VideoFormat format;
    int spread;  // distortion amplitude in codes
};

// Odd and even sizes, every chroma format and several depths against the independent model,
// frame score for frame score (bit for bit).
TEST(CiedeFeature, MatchesIndependentModelOnOddSizesDepthsAndChromaFormats) {
    const FormatCase cases[] = {
        {{37, 23, 8, ChromaFormat::yuv420}, 6},    {{33, 1, 8, ChromaFormat::yuv420}, 6},
        {{1, 1, 8, ChromaFormat::yuv420}, 40},     {{1, 9, 8, ChromaFormat::yuv422}, 6},
        {{41, 17, 8, ChromaFormat::yuv422}, 6},    {{35, 19, 8, ChromaFormat::yuv444}, 6},
        {{64, 32, 8, ChromaFormat::yuv420}, 255},  {{31, 21, 10, ChromaFormat::yuv420}, 20},
        {{29, 15, 10, ChromaFormat::yuv444}, 20},  {{27, 13, 12, ChromaFormat::yuv422}, 80},
        {{25, 11, 16, ChromaFormat::yuv420}, 900}, {{23, 9, 9, ChromaFormat::yuv444}, 10},
    };
    std::uint32_t seed = 10;
    for (const FormatCase& c : cases) {
        SCOPED_TRACE(describe(c.format));
        const Picture ref = make_picture(c.format, Content::noise, ++seed);
        const Picture dist = perturbed(ref, c.spread, ++seed);
        EXPECT_EQ(ciede_score(ref, dist), ciede_model::frame_score(ref, dist));
    }
}

// 4:2:2: true CIEDE2000 by default; reference_422=true reads chroma as the reference does (§3.3),
// including the zero pitch padding (width 100: 50 chroma columns padded to 64) and the spill of
// columns past one pitch into the next rows.
TEST(CiedeFeature, Reference422OptionReproducesTheSwappedAxes) {
    for (const int width : {64, 100, 37}) {
        const VideoFormat format{width, 24, 8, ChromaFormat::yuv422};
        SCOPED_TRACE(describe(format));
        const Picture ref = make_picture(format, Content::noise, 20 + width);
        const Picture dist = perturbed(ref, 8, 21 + width);
        const double true_422 = ciede_score(ref, dist);
        const double reference_422 = ciede_score(ref, dist, {{"reference_422", "true"}});
        EXPECT_EQ(true_422, ciede_model::frame_score(ref, dist));
        EXPECT_EQ(reference_422, ciede_model::frame_score(ref, dist, true));
        EXPECT_NE(true_422, reference_422);
    }
}

TEST(CiedeFeature, Reference422OptionLeavesOtherFormatsAlone) {
    for (const ChromaFormat chroma : {ChromaFormat::yuv420, ChromaFormat::yuv444}) {
        const Picture ref = make_picture({40, 20, 8, chroma}, Content::noise, 30);
        const Picture dist = perturbed(ref, 8, 31);
        EXPECT_EQ(ciede_score(ref, dist, {{"reference_422", "true"}}), ciede_score(ref, dist));
    }
}

// compute() is const and reentrant: the same feature scores frames in any order.
TEST(CiedeFeature, ScoresDoNotDependOnFrameOrder) {
    const VideoFormat format{48, 30, 8, ChromaFormat::yuv420};
    auto feature = make_ciede(format);
    const Picture a = make_picture(format, Content::noise, 40), b = perturbed(a, 5, 41),
                  c = perturbed(a, 9, 42);
    const double ab = ciede_score(*feature, a, b);
    const double ac = ciede_score(*feature, a, c);
    EXPECT_EQ(ciede_score(*feature, a, c), ac);
    EXPECT_EQ(ciede_score(*feature, a, b), ab);
}

}  // namespace
}  // namespace vq::test
