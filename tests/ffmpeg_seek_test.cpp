// Seeking to a frame by number in a container (src/io/ffmpeg_seek.*, FfmpegSource::skip_frames):
// after skip_frames(N) the source gives frame N and every later frame exactly as a full decode
// does, for codecs with B-frames (pictures decoded out of presentation order), open GOPs and
// short keyframe intervals; the frames before the keyframe are not decoded at all; a step past
// the end counts the frames by seeking to the last one; a step shorter than 48 frames decodes.
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ffmpeg_test_support.hpp"
#include "io/open_video.hpp"
#include "vq/error.hpp"
#include "vq/run.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::damaged_copy;
using test::ffmpeg;
using test::quoted;

constexpr int clip_frames = test::keyframe_clip_frames;
using test::keyframe_clip;

std::vector<Picture> read_from(const fs::path& path, std::size_t first) {
    auto source = open_video(path.string(), {}).source;
    EXPECT_EQ(source->skip_frames(first), first);
    std::vector<Picture> pictures;
    while (auto picture = source->next()) pictures.push_back(std::move(*picture));
    return pictures;
}

// Every start from frame 48 (the shortest step that seeks) to the last frame gives the full
// decode's frames from there on.
void expect_every_start_exact(const fs::path& clip) {
    ASSERT_FALSE(clip.empty());
    const std::vector<Picture> all = read_from(clip, 0);
    ASSERT_EQ(all.size(), std::size_t(clip_frames));
    for (std::size_t first = 48; first < all.size(); ++first) {
        const std::vector<Picture> rest = read_from(clip, first);
        ASSERT_EQ(rest.size(), all.size() - first) << "from frame " << first;
        for (std::size_t i = 0; i < rest.size(); ++i)
            ASSERT_TRUE(test::same_picture(rest[i], all[first + i]))
                << clip.filename() << ": from frame " << first << ", frame " << first + i
                << " differs from the full decode's";
    }
}

class FfmpegSeek : public testing::TestWithParam<test::KeyframeCodec> {};

TEST_P(FfmpegSeek, EveryStartEqualsTheFullDecode) {
    VQ_REQUIRE_FFMPEG();
    const test::KeyframeCodec& codec = GetParam();
    if (!test::have_encoder(codec.encoder)) GTEST_SKIP() << "ffmpeg lacks " << codec.encoder;
    expect_every_start_exact(keyframe_clip(
        test::scratch_dir(std::string("ffmpeg_seek_") + codec.name) / codec.file, codec.options));
}

INSTANTIATE_TEST_SUITE_P(Codecs, FfmpegSeek, testing::ValuesIn(test::keyframe_codecs()),
                         [](const testing::TestParamInfo<test::KeyframeCodec>& info) {
                             return std::string(info.param.name);
                         });

// Frame 5 damaged: the full decode fails there, and a start after the next keyframes never
// decodes it, so the seek really skipped the frames before them.
TEST(FfmpegSeekSkipsDecoding, DamageBeforeTheKeyframeIsNeverDecoded) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const fs::path clip = keyframe_clip(test::scratch_dir("ffmpeg_seek_damage") / "a.mkv",
                                        "-c:v libx264 -g 12 -bf 0 -x264-params scenecut=0");
    ASSERT_FALSE(clip.empty());
    const fs::path damaged = damaged_copy(clip, 5);
    EXPECT_THROW(read_from(damaged, 0), Error);
    const std::vector<Picture> clean = read_from(clip, 0);
    const std::vector<Picture> rest = read_from(damaged, 60);
    ASSERT_EQ(rest.size(), clean.size() - 60);
    for (std::size_t i = 0; i < rest.size(); ++i)
        EXPECT_TRUE(test::same_picture(rest[i], clean[60 + i])) << "frame " << 60 + i;
}

TEST(FfmpegSeekPastTheEnd, CountsTheFramesAndEndsTheStream) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const fs::path clip =
        keyframe_clip(test::scratch_dir("ffmpeg_seek_past_end") / "a.mp4", "-c:v libx264 -g 12");
    ASSERT_FALSE(clip.empty());
    for (const std::size_t step : {std::size_t(clip_frames), std::size_t(1000)}) {
        auto source = open_video(clip.string(), {}).source;
        EXPECT_EQ(source->skip_frames(step), std::size_t(clip_frames)) << step;
        EXPECT_FALSE(source->next());
    }
    auto source = open_video(clip.string(), {}).source;
    EXPECT_EQ(source->skip_frames(clip_frames - 1), std::size_t(clip_frames - 1));
    const auto last = source->next();
    ASSERT_TRUE(last);
    EXPECT_TRUE(test::same_picture(*last, read_from(clip, 0).back()));
    EXPECT_FALSE(source->next());
}

// A chunk of an MP4 title, scored by run_chunk with its seek, equals the whole run's frames.
TEST(FfmpegSeekChunk, AChunkOfAnMp4EqualsTheWholeRunsFrames) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const fs::path dir = test::scratch_dir("ffmpeg_seek_chunk");
    const fs::path reference = keyframe_clip(dir / "ref.mp4", "-c:v libx264 -g 12 -bf 3 -crf 10");
    const fs::path distorted = keyframe_clip(dir / "dist.mkv", "-c:v libx264 -g 15 -bf 2 -crf 35");
    ASSERT_FALSE(reference.empty() || distorted.empty());
    Job job;
    job.reference.path = reference.string();
    job.distorted.path = distorted.string();
    job.features.push_back({"psnr"});
    job.features.push_back({"motion"});
    RunObserver quiet;
    const ScoreTable whole = run(job, quiet);
    ASSERT_EQ(whole.frame_count(), std::size_t(clip_frames));
    EXPECT_EQ(count_frames(job), std::size_t(clip_frames));
    const ScoreTable chunk = run_chunk(job, 61, 20, quiet);
    ASSERT_EQ(chunk.frame_count(), 20u);
    ASSERT_EQ(chunk.column_count(), whole.column_count());
    for (std::size_t c = 0; c < whole.column_count(); ++c)
        for (std::size_t i = 0; i < 20; ++i) {
            const auto want = whole.value(c, 61 + i), got = chunk.value(c, i);
            ASSERT_EQ(want.has_value(), got.has_value());
            if (want) {
                EXPECT_EQ(std::memcmp(&*want, &*got, sizeof(double)), 0)
                    << whole.name(c) << " at frame " << 61 + i;
            }
        }
}

}  // namespace
}  // namespace vq
