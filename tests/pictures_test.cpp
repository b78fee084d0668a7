// The shared picture generator (support/pictures.hpp): every content at every depth and layout,
// odd sizes, in range and reproducible; luma independent of the layout; the extremes exact; the
// texture smooth yet contrasted; distortions bounded.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "support/pictures.hpp"

namespace vq::test {
namespace {

constexpr Content every_content[] = {Content::zeros,     Content::maxima,  Content::flat,
                                     Content::noise,     Content::ramp,    Content::texture,
                                     Content::banded,    Content::grainy,  Content::patchwork,
                                     Content::staircase, Content::extremes};
constexpr ChromaFormat every_layout[] = {ChromaFormat::yuv420, ChromaFormat::yuv422,
                                         ChromaFormat::yuv444, ChromaFormat::yuv400};

bool same_samples(const Picture& a, const Picture& b) {
    return a.format() == b.format() && std::equal(a.data(), a.data() + a.size_bytes(), b.data());
}

TEST(Pictures, EveryContentDepthAndLayoutInRangeAndReproducible) {
    for (const Content content : every_content)
        for (int depth = 8; depth <= 16; ++depth)
            for (const ChromaFormat layout : every_layout) {
                const VideoFormat format{37, 19, depth, layout};
                const std::string what = std::string(to_string(content)) + " " + describe(format);
                const Picture picture = make_picture(format, content, 5);
                ASSERT_TRUE(same_samples(picture, make_picture(format, content, 5))) << what;
                const int maximum = (1 << depth) - 1;
                for (int p = 0; p < format.plane_count(); ++p)
                    for (int r = 0; r < format.plane_height(p); ++r)
                        for (int c = 0; c < format.plane_width(p); ++c) {
                            const int v = sample_at(picture, p, r, c);
                            ASSERT_TRUE(v >= 0 && v <= maximum)
                                << what << " plane " << p << ": " << v;
                            const int expected = content == Content::zeros    ? 0
                                                 : content == Content::maxima ? maximum
                                                 : content == Content::flat
                                                     ? sample_at(picture, 0, 0, 0)
                                                     : v;
                            ASSERT_EQ(v, expected) << what << " plane " << p;
                        }
            }
}

TEST(Pictures, LumaDoesNotDependOnTheLayout) {
    for (const Content content : every_content) {
        const Picture full = make_picture({33, 21, 10, ChromaFormat::yuv444}, content, 9);
        for (const ChromaFormat layout : every_layout) {
            const Picture other = make_picture({33, 21, 10, layout}, content, 9);
            EXPECT_TRUE(
                std::equal(full.data(), full.data() + full.format().plane_bytes(0), other.data()))
                << to_string(content) << " " << to_string(layout);
        }
    }
}

TEST(Pictures, SeedsGiveDifferentPictures) {
    const VideoFormat format{64, 48, 8, ChromaFormat::yuv420};
    for (const Content content :
         {Content::noise, Content::texture, Content::grainy, Content::patchwork})
        EXPECT_FALSE(
            same_samples(make_picture(format, content, 1), make_picture(format, content, 2)))
            << to_string(content);
}

// Natural pictures are mostly smooth (neighbours close) yet use much of the range.
TEST(Pictures, TextureIsSmoothAndContrasted) {
    const Picture picture = make_picture({256, 256, 8, ChromaFormat::yuv400}, Content::texture, 3);
    double step = 0, sum = 0, squares = 0;
    for (int r = 0; r < 256; ++r)
        for (int c = 0; c < 256; ++c) {
            const int v = sample_at(picture, 0, r, c);
            sum += v;
            squares += double(v) * v;
            if (c > 0) step += std::abs(v - sample_at(picture, 0, r, c - 1));
        }
    const double n = 256.0 * 256.0, mean = sum / n;
    EXPECT_LT(step / (256.0 * 255.0), 8.0) << "mean step between neighbours";
    EXPECT_GT(std::sqrt(squares / n - mean * mean), 30.0) << "standard deviation";
}

TEST(Pictures, PerturbedStaysWithinTheSpreadAndTheRange) {
    const Picture picture = make_picture({41, 23, 12, ChromaFormat::yuv422}, Content::extremes, 4);
    const Picture moved = perturbed(picture, 3, 8);
    bool changed = false;
    for (int p = 0; p < 3; ++p)
        for (int r = 0; r < 23; ++r)
            for (int c = 0; c < picture.format().plane_width(p); ++c) {
                const int a = sample_at(picture, p, r, c), b = sample_at(moved, p, r, c);
                ASSERT_LE(std::abs(a - b), 3);
                ASSERT_TRUE(b >= 0 && b <= 4095);
                changed |= a != b;
            }
    EXPECT_TRUE(changed);
}

TEST(Pictures, AdversarialFramesCycleTheHardCases) {
    const VideoFormat format{9, 7, 16, ChromaFormat::yuv420};
    const auto frames = adversarial_frames(format, 5, 3);
    ASSERT_EQ(frames.size(), 5u);
    EXPECT_FALSE(same_samples(frames[0].reference, frames[0].distorted));
    EXPECT_TRUE(same_samples(frames[1].reference, frames[1].distorted));
    EXPECT_TRUE(same_samples(frames[2].reference, make_picture(format, Content::maxima)));
    EXPECT_TRUE(same_samples(frames[2].distorted, make_picture(format, Content::zeros)));
    EXPECT_TRUE(same_samples(frames[3].reference, make_picture(format, Content::ramp)));
}

}  // namespace
}  // namespace vq::test
