// FFmpeg input (src/io/ffmpeg_*.cpp, src/io/open_video.cpp): decoded pictures equal the Y4M
// they were encoded from, losslessly, sample for sample; every pixel format route; frame order
// and count; bad inputs. Clips are made at test time with the ffmpeg binary.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <gtest/gtest.h>

#include "ffmpeg_test_support.hpp"
#include "io/ffmpeg_source.hpp"
#include "io/frame_source.hpp"
#include "io/open_video.hpp"
#include "io/scale.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::ffmpeg;
using test::quoted;

// A test pattern of an odd size (odd sizes exercise the ceil-sized chroma planes), in `pix_fmt`.
// Y4M above 8 bits is "non-standard" to ffmpeg, hence -strict -1.
std::string pattern(const std::string& pix_fmt, int frames = 4, const std::string& size = "37x23") {
    return fmt::format(
        "-f lavfi -i testsrc2=size=64x48:rate=25 -frames:v {} -vf crop={}:0:0,format={} -strict -1",
        frames, std::string(size).replace(size.find('x'), 1, ":"), pix_fmt);
}

std::vector<Picture> read_all(const fs::path& path, const InputOptions& options = {}) {
    auto source = open_video(path.string(), options).source;
    std::vector<Picture> pictures;
    while (auto picture = source->next()) pictures.push_back(std::move(*picture));
    return pictures;
}

void expect_same_pictures(const fs::path& expected, const fs::path& actual) {
    const auto want = read_all(expected);
    const auto got = read_all(actual);
    ASSERT_EQ(got.size(), want.size()) << actual;
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(describe(got[i].format()), describe(want[i].format()))
            << actual << " frame " << i;
        EXPECT_TRUE(test::same_picture(got[i], want[i])) << actual << " frame " << i << " differs";
    }
}

// Throws unless opening and reading all of `path` fails with a message containing each of `parts`.
void expect_read_error(const fs::path& path, const std::vector<std::string>& parts) {
    try {
        read_all(path);
        ADD_FAILURE() << path << " was read without an error";
    } catch (const Error& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        for (const auto& part : parts)
            EXPECT_NE(message.find(part), std::string::npos) << message << " lacks " << part;
    }
}

class FfmpegPlanar : public testing::TestWithParam<const char*> {};

TEST_P(FfmpegPlanar, LosslessFfv1EqualsTheY4m) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir(std::string("ffmpeg_planar_") + GetParam());
    const fs::path y4m = dir / "src.y4m", mkv = dir / "ffv1.mkv";
    ASSERT_TRUE(ffmpeg(pattern(GetParam()) + " " + quoted(y4m)));
    ASSERT_TRUE(ffmpeg("-i " + quoted(y4m) + " -c:v ffv1 " + quoted(mkv)));
    expect_same_pictures(y4m, mkv);
    EXPECT_EQ(open_video(mkv.string(), {}).reader, std::string("ffmpeg: ffv1, ") + GetParam());
}

INSTANTIATE_TEST_SUITE_P(Ffmpeg, FfmpegPlanar,
                         testing::Values("yuv420p", "yuv422p", "yuv444p", "gray", "yuv420p10le",
                                         "yuv422p12le", "yuv444p16le", "gray10le", "gray16le"),
                         [](const auto& info) { return std::string(info.param); });

struct Repacked {
    const char* source;  // planar format of the Y4M
    const char* stored;  // the format the container holds
};

void PrintTo(const Repacked& c, std::ostream* out) {
    *out << c.stored << " (holding " << c.source << ")";
}

class FfmpegRepacked : public testing::TestWithParam<Repacked> {};

// Semi-planar and packed raw video decodes to its own layout; vq regroups the samples.
TEST_P(FfmpegRepacked, EqualsThePlanarY4m) {
    VQ_REQUIRE_FFMPEG();
    const Repacked formats = GetParam();
    const fs::path dir = test::scratch_dir(std::string("ffmpeg_repacked_") + formats.stored);
    const fs::path y4m = dir / "src.y4m", nut = dir / "raw.nut";
    ASSERT_TRUE(ffmpeg(pattern(formats.source) + " " + quoted(y4m)));
    ASSERT_TRUE(ffmpeg("-i " + quoted(y4m) + " -pix_fmt " + formats.stored + " -c:v rawvideo " +
                       quoted(nut)));
    EXPECT_NE(open_video(nut.string(), {}).reader.find(formats.stored), std::string::npos);
    expect_same_pictures(y4m, nut);
}

INSTANTIATE_TEST_SUITE_P(Ffmpeg, FfmpegRepacked,
                         // Formats NUT can store; p010le, nv24, ayuv64le ... are covered in-process
                         // (ffmpeg_pixels_test.cpp).
                         testing::Values(Repacked{"yuv420p", "nv12"}, Repacked{"yuv420p", "nv21"},
                                         Repacked{"yuv422p", "yuyv422"},
                                         Repacked{"yuv422p", "uyvy422"},
                                         Repacked{"yuv422p", "yvyu422"},
                                         Repacked{"yuv420p10le", "yuv420p10be"}),
                         [](const auto& info) { return std::string(info.param.stored); });

TEST(FfmpegInput, RgbIsRefusedNotConverted) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_rgb");
    ASSERT_TRUE(ffmpeg(pattern("rgb24") + " -c:v rawvideo " + quoted(dir / "rgb.nut")));
    expect_read_error(dir / "rgb.nut", {"rgb.nut", "rgb24", "RGB"});
}

// B-frames are decoded out of order and must come out in presentation order; lossless H.264 and
// HEVC make the order visible picture by picture.
TEST(FfmpegInput, LosslessH264AndHevcWithBFramesInPresentationOrder) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_bframes");
    const fs::path y4m = dir / "src.y4m";
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 30, "64x48") + " " + quoted(y4m)));
    int encoded = 0;
    if (test::have_encoder("libx264")) {
        ASSERT_TRUE(ffmpeg("-i " + quoted(y4m) + " -c:v libx264 -qp 0 -bf 3 -g 12 " +
                           quoted(dir / "x264.mp4")));
        expect_same_pictures(y4m, dir / "x264.mp4");
        ++encoded;
    }
    if (test::have_encoder("libx265")) {
        ASSERT_TRUE(ffmpeg("-i " + quoted(y4m) +
                           " -c:v libx265 -x265-params lossless=1:bframes=3:log-level=error " +
                           quoted(dir / "x265.mkv")));
        expect_same_pictures(y4m, dir / "x265.mkv");
        ++encoded;
    }
    if (encoded == 0) GTEST_SKIP() << "ffmpeg has neither libx264 nor libx265";
}

TEST(FfmpegInput, DecoderThreadCountDoesNotChangeThePictures) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const fs::path dir = test::scratch_dir("ffmpeg_threads");
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 24, "64x48") + " -c:v libx264 -crf 30 " +
                       quoted(dir / "lossy.mp4")));
    InputOptions one, many;
    one.decode.threads = 1;
    many.decode.threads = 4;
    const auto a = read_all(dir / "lossy.mp4", one), b = read_all(dir / "lossy.mp4", many);
    ASSERT_EQ(a.size(), 24u);
    ASSERT_EQ(b.size(), a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_TRUE(test::same_picture(a[i], b[i])) << "frame " << i;
}

TEST(FfmpegInput, SkipStepsOverDecodedFrames) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_skip");
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 6) + " -c:v ffv1 " + quoted(dir / "a.mkv")));
    const auto all = read_all(dir / "a.mkv");
    auto source = open_video((dir / "a.mkv").string(), {}).source;
    ASSERT_TRUE(source->skip());
    ASSERT_TRUE(source->skip());
    const auto third = source->next();
    ASSERT_TRUE(third);
    EXPECT_TRUE(test::same_picture(*third, all[2]));
    int rest = 0;
    while (source->skip()) ++rest;
    EXPECT_EQ(rest, 3);
}

TEST(FfmpegInput, InfoGivesRateCountAndCodec) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_info");
    ASSERT_TRUE(ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=30000/1001 -frames:v 10 -c:v ffv1 " +
                       quoted(dir / "a.mkv")));
    const OpenedInput input = open_video((dir / "a.mkv").string(), {});
    EXPECT_EQ(input.rate_num * 1001, input.rate_den * 30000);
    ASSERT_TRUE(input.frame_count);
    EXPECT_EQ(*input.frame_count, 10u);
    EXPECT_NE(input.reader.find("ffv1"), std::string::npos);
}

#if VQ_WITH_FFMPEG
TEST(FfmpegInput, BytesInMemoryReadLikeTheFile) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_memory");
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 5) + " -c:v ffv1 " + quoted(dir / "a.mkv")));
    const std::string bytes = test::read_file(dir / "a.mkv");
    auto source =
        open_ffmpeg_memory(std::as_bytes(std::span(bytes.data(), bytes.size())), "memory");
    const auto all = read_all(dir / "a.mkv");
    for (const Picture& expected : all) {
        const auto got = source->next();
        ASSERT_TRUE(got);
        EXPECT_TRUE(test::same_picture(*got, expected));
    }
    EXPECT_FALSE(source->next());
}
#endif

// --- bad input -----------------------------------------------------------------------------------

TEST(FfmpegBadInput, NotAVideo) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_not_video");
    std::ofstream(dir / "notes.mp4") << "these are not the frames you are looking for\n";
    expect_read_error(dir / "notes.mp4", {"notes.mp4"});
    expect_read_error(dir / "missing.mkv", {"missing.mkv", "No such file"});
}

TEST(FfmpegBadInput, NoVideoStream) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_audio");
    ASSERT_TRUE(ffmpeg("-f lavfi -i sine=duration=0.2 " + quoted(dir / "tone.mkv")));
    expect_read_error(dir / "tone.mkv", {"tone.mkv", "no video stream"});
}

TEST(FfmpegBadInput, UnsupportedCodec) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_codec");
    // An AVI stream whose FourCC no FFmpeg decoder claims.
    ASSERT_TRUE(
        ffmpeg(pattern("yuv420p") + " -c:v rawvideo -vtag QQQQ " + quoted(dir / "odd.avi")));
    expect_read_error(dir / "odd.avi", {"odd.avi", "decoder"});
}

TEST(FfmpegBadInput, TruncatedFiles) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_truncated");
    ASSERT_TRUE(
        ffmpeg(pattern("yuv420p", 30, "64x48") + " -c:v ffv1 " + quoted(dir / "whole.mkv")));
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 30, "64x48") +
                       " -c:v mpeg4 -q:v 2 -movflags +faststart " + quoted(dir / "whole.mp4")));
    for (const char* name : {"whole.mkv", "whole.mp4"}) {
        const std::string bytes = test::read_file(dir / name);
        const std::string cut = std::string("cut_") + name;
        std::ofstream(dir / cut, std::ios::binary) << bytes.substr(0, bytes.size() * 2 / 3);
        expect_read_error(dir / cut, {cut, "truncated"});
    }
}

TEST(FfmpegBadInput, CorruptFrameNamesTheFrame) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_corrupt");
    // FFV1 version 3 carries a CRC per slice, so damage is detected rather than concealed.
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 10, "64x48") + " -c:v ffv1 -level 3 -slicecrc 1 " +
                       quoted(dir / "a.mkv")));
    std::string bytes = test::read_file(dir / "a.mkv");
    for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
        bytes[i] = char(bytes[i] ^ 0x5a);
    std::ofstream(dir / "bad.mkv", std::ios::binary) << bytes;
    expect_read_error(dir / "bad.mkv", {"bad.mkv", "frame "});
}

TEST(FfmpegBadInput, SizeChangeMidStream) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_size_change");
    // Two MPEG-2 elementary streams back to back: the second sequence header changes the size.
    ASSERT_TRUE(
        ffmpeg(pattern("yuv420p", 3, "64x48") + " -c:v mpeg2video " + quoted(dir / "a.m2v")));
    ASSERT_TRUE(
        ffmpeg(pattern("yuv420p", 3, "32x16") + " -c:v mpeg2video " + quoted(dir / "b.m2v")));
    std::ofstream(dir / "both.m2v", std::ios::binary)
        << test::read_file(dir / "a.m2v") << test::read_file(dir / "b.m2v");
    // MPEG-2 may drop the picture it holds back when the sequence changes, so the frame named is
    // the count given out before the change.
    expect_read_error(dir / "both.m2v", {"both.m2v", "frame ", "64x48", "32x16"});
}

TEST(FfmpegBadInput, RawYuvWithoutItsFormat) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_raw_hint");
    std::ofstream(dir / "clip.yuv") << std::string(64 * 48 * 3 / 2, 'x');
    expect_read_error(dir / "clip.yuv", {"clip.yuv", "-w"});
}

// --- dispatch and scaling ------------------------------------------------------------------------

TEST(FfmpegDispatch, Y4mAndEmptyFilesKeepTheirOwnReader) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_dispatch");
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 3) + " " + quoted(dir / "clip.mkv.y4m")));
    fs::copy_file(dir / "clip.mkv.y4m", dir / "clip.mp4");  // content decides, not the extension
    EXPECT_EQ(open_video((dir / "clip.mp4").string(), {}).reader, "y4m");
    std::ofstream(dir / "empty.mkv").close();
    expect_read_error(dir / "empty.mkv", {"empty.mkv", "empty"});
}

// --scale is set up as ffmpeg's scale filter: the same pictures as "-vf scale=W:H:flags=F".
TEST(FfmpegScale, MatchesFfmpegsScaleFilter) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_scale");
    const fs::path small = dir / "small.y4m";
    ASSERT_TRUE(ffmpeg(pattern("yuv420p", 3, "48x28") + " " + quoted(small)));
    for (const char* filter : {"bicubic", "lanczos", "bilinear", "neighbor"}) {
        const fs::path expected = dir / (std::string("ff_") + filter + ".y4m");
        ASSERT_TRUE(ffmpeg("-i " + quoted(small) + " -vf scale=64:48:flags=" + filter + " " +
                           quoted(expected)));
        auto scaled = scale_frames(open_video(small.string(), {}).source,
                                   parse_scale(std::string("64x48:") + filter));
        const auto want = read_all(expected);
        for (std::size_t i = 0; i < want.size(); ++i) {
            const auto got = scaled->next();
            ASSERT_TRUE(got);
            EXPECT_TRUE(test::same_picture(*got, want[i])) << filter << " frame " << i;
        }
        EXPECT_FALSE(scaled->next());
    }
}

TEST(FfmpegScale, ParsesSizesAndFilters) {
    EXPECT_EQ(parse_scale("1920x1080"), (ScaleSpec{1920, 1080, "bicubic"}));
    EXPECT_EQ(parse_scale("640x360:lanczos"), (ScaleSpec{640, 360, "lanczos"}));
    for (const char* bad :
         {"", "1920", "x1080", "1920x", "0x10", "10x0", "1920x1080:fancy", "axb", "99999x10"})
        EXPECT_THROW(parse_scale(bad), Error) << bad;
}

}  // namespace
}  // namespace vq
