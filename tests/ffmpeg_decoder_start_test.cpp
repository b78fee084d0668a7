// An FFmpeg input opened to await the choice of its decoder (DecodeOptions::await_decoder_choice,
// as a run that may decode on the GPU opens its containers): its format, description, frames,
// long steps and first-frame errors are those of an input that decoded its first frame on
// opening, whether the CPU's decoder then starts at choose_decoder() or at the first frame asked
// for. (On a GPU, hwdec_decode_test.cpp compares the GPU's decoder with the CPU's.)
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ffmpeg_test_support.hpp"
#include "io/ffmpeg_source.hpp"
#include "io_test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<FfmpegSource> open_clip(const fs::path& path, bool await_decoder_choice) {
    DecodeOptions options;
    options.await_decoder_choice = await_decoder_choice;
    return open_ffmpeg(path.string(), options);
}

std::vector<Picture> read_rest(FrameSource& source) {
    std::vector<Picture> pictures;
    while (auto picture = source.next()) pictures.push_back(std::move(*picture));
    return pictures;
}

void expect_same_pictures(const std::vector<Picture>& got, const std::vector<Picture>& expected) {
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(test::same_picture(got[i], expected[i])) << "frame " << i;
}

class FfmpegDecoderStart : public testing::TestWithParam<test::KeyframeCodec> {
protected:
    // The codec's keyframe clip, or empty (the test then skips).
    fs::path clip() {
        const test::KeyframeCodec& codec = GetParam();
        if (!test::have_encoder(codec.encoder)) return {};
        const fs::path dir = test::scratch_dir(std::string("decoder_start_") + codec.name);
        return test::keyframe_clip(dir / codec.file, codec.options);
    }
};

TEST_P(FfmpegDecoderStart, AwaitingTheChoiceReadsWhatOpeningDecodes) {
    VQ_REQUIRE_FFMPEG();
    const fs::path path = clip();
    if (path.empty()) GTEST_SKIP() << "ffmpeg lacks " << GetParam().encoder;
    auto opened = open_clip(path, false);
    const std::vector<Picture> expected = read_rest(*opened);
    ASSERT_EQ(expected.size(), std::size_t(test::keyframe_clip_frames));
    for (const bool chosen : {true, false}) {
        SCOPED_TRACE(chosen ? "choose_decoder() first" : "next() first");
        auto awaiting = open_clip(path, true);
        EXPECT_EQ(awaiting->format(), opened->format());
        EXPECT_EQ(awaiting->info().description, opened->info().description);
        if (chosen) {
            const DecoderChoice choice = awaiting->choose_decoder(nullptr, "no GPU here");
            EXPECT_FALSE(choice.on_device);
            EXPECT_NE(choice.description.find("(CPU, no GPU here)"), std::string::npos)
                << choice.description;
        }
        expect_same_pictures(read_rest(*awaiting), expected);
    }
}

// A long first step seeks (ffmpeg_seek.hpp) from the first frame, decoded now.
TEST_P(FfmpegDecoderStart, AwaitingTheChoiceStepsAsOpeningDoes) {
    VQ_REQUIRE_FFMPEG();
    const fs::path path = clip();
    if (path.empty()) GTEST_SKIP() << "ffmpeg lacks " << GetParam().encoder;
    constexpr std::size_t step = 61;
    auto opened = open_clip(path, false);
    ASSERT_EQ(opened->skip_frames(step), step);
    auto awaiting = open_clip(path, true);
    ASSERT_EQ(awaiting->skip_frames(step), step);
    expect_same_pictures(read_rest(*awaiting), read_rest(*opened));
}

INSTANTIATE_TEST_SUITE_P(Codecs, FfmpegDecoderStart, testing::ValuesIn(test::keyframe_codecs()),
                         [](const testing::TestParamInfo<test::KeyframeCodec>& info) {
                             return std::string(info.param.name);
                         });

// A first frame that does not decode fails choose_decoder(), or the first next(), with the
// message opening gives when it decodes the first frame itself.
TEST(FfmpegDecoderStartErrors, TheFirstFramesErrorComesFromTheChoice) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("decoder_start_damaged");
    // FFV1 version 3 carries a CRC per slice: damage is found, not concealed.
    const fs::path clip = test::keyframe_clip(dir / "a.mkv", "-c:v ffv1 -level 3 -slicecrc 1 -g 5");
    ASSERT_FALSE(clip.empty());
    const fs::path damaged = test::damaged_copy(clip, 0);
    const std::string expected = test::error_of([&] { open_clip(damaged, false); });
    EXPECT_NE(expected.find("damaged.mkv"), std::string::npos) << expected;
    EXPECT_NE(expected.find("frame 0"), std::string::npos) << expected;
    auto chosen = open_clip(damaged, true);
    EXPECT_EQ(test::error_of([&] { chosen->choose_decoder(nullptr, "no GPU here"); }), expected);
    auto asked = open_clip(damaged, true);
    EXPECT_EQ(test::error_of([&] { asked->next(); }), expected);
    EXPECT_EQ(test::error_of([&] { asked->next(); }), expected);  // and again, not a crash
}

}  // namespace
}  // namespace vq
