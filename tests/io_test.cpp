// The Y4M and raw YUV readers and the read-ahead wrapper, on small files written here, and on
// every fixture when ../shared is present.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "io/frame_source.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::error_of;
using test::frame_bytes;
using test::sample_value;
using test::write_file;
using test::y4m_file;

// --- helpers -------------------------------------------------------------------------------

template <typename Sample>
void expect_samples(const Picture& picture, int frame) {
    const VideoFormat& format = picture.format();
    for (int p = 0; p < format.plane_count(); ++p) {
        const PlaneView<Sample> plane = picture.plane<Sample>(p);
        ASSERT_EQ(plane.width, format.plane_width(p));
        ASSERT_EQ(plane.height, format.plane_height(p));
        for (int y = 0; y < plane.height; ++y)
            for (int x = 0; x < plane.width; ++x)
                ASSERT_EQ(plane.at(y, x), sample_value(frame, p, std::size_t(y) * plane.width + x,
                                                       format.bit_depth))
                    << "frame " << frame << " plane " << p << " at " << x << "," << y;
    }
}

void expect_frame(const std::optional<Picture>& picture, const VideoFormat& format, int frame) {
    ASSERT_TRUE(picture.has_value()) << "frame " << frame << " missing";
    ASSERT_EQ(picture->format(), format);
    if (format.bit_depth > 8)
        expect_samples<std::uint16_t>(*picture, frame);
    else
        expect_samples<std::uint8_t>(*picture, frame);
}

std::string open_y4m_error(const fs::path& path) {
    return error_of([&] { open_y4m(path.string()); });
}

// --- Y4M -----------------------------------------------------------------------------------

struct Y4mCase {
    const char* name;
    const char* tags;
    VideoFormat format;
};

void PrintTo(const Y4mCase& c, std::ostream* out) {
    *out << '"' << c.tags << "\" -> " << describe(c.format);
}

class Y4mReaderFormats : public testing::TestWithParam<Y4mCase> {};

// 5x3 is odd both ways: 4:2:0 chroma is 3x2, 4:2:2 chroma 3x3.
TEST_P(Y4mReaderFormats, ReadsEveryFrameWithCeilChromaAndThenEnds) {
    const Y4mCase& c = GetParam();
    const fs::path path = test::scratch_dir(std::string("y4m_format_") + c.name) / "in.y4m";
    write_file(path, y4m_file(std::string("YUV4MPEG2 W5 H3 F25:1 ") + c.tags, c.format, 3));

    const auto source = open_y4m(path.string());
    EXPECT_EQ(source->format(), c.format);
    EXPECT_EQ(source->path(), path.string());
    for (int f = 0; f < 3; ++f) expect_frame(source->next(), c.format, f);
    EXPECT_FALSE(source->next().has_value());
    EXPECT_FALSE(source->next().has_value());  // the end stays the end
    EXPECT_FALSE(source->skip());
}

constexpr VideoFormat fmt5x3(ChromaFormat chroma, int depth = 8) { return {5, 3, depth, chroma}; }

INSTANTIATE_TEST_SUITE_P(
    Y4mEveryTag, Y4mReaderFormats,
    testing::Values(Y4mCase{"default", "", fmt5x3(ChromaFormat::yuv420)},
                    Y4mCase{"C420", "C420", fmt5x3(ChromaFormat::yuv420)},
                    Y4mCase{"C420jpeg", "C420jpeg", fmt5x3(ChromaFormat::yuv420)},
                    Y4mCase{"C420mpeg2", "C420mpeg2", fmt5x3(ChromaFormat::yuv420)},
                    Y4mCase{"C420paldv", "C420paldv", fmt5x3(ChromaFormat::yuv420)},
                    Y4mCase{"C422", "C422", fmt5x3(ChromaFormat::yuv422)},
                    Y4mCase{"C444", "C444", fmt5x3(ChromaFormat::yuv444)},
                    Y4mCase{"Cmono", "Cmono", fmt5x3(ChromaFormat::yuv400)},
                    Y4mCase{"C420p10", "C420p10", fmt5x3(ChromaFormat::yuv420, 10)},
                    Y4mCase{"C420p12", "C420p12", fmt5x3(ChromaFormat::yuv420, 12)},
                    Y4mCase{"C420p16", "C420p16", fmt5x3(ChromaFormat::yuv420, 16)},
                    Y4mCase{"C422p10", "C422p10", fmt5x3(ChromaFormat::yuv422, 10)},
                    Y4mCase{"C444p12", "C444p12", fmt5x3(ChromaFormat::yuv444, 12)},
                    Y4mCase{"C444p16", "C444p16", fmt5x3(ChromaFormat::yuv444, 16)},
                    Y4mCase{"Cmono16", "Cmono16", fmt5x3(ChromaFormat::yuv400, 16)}),
    [](const testing::TestParamInfo<Y4mCase>& info) { return std::string(info.param.name); });

// Files written on Windows: the header and the FRAME lines end in CRLF. The reference reads them.
TEST(Y4mReader, ReadsCrlfLineEnds) {
    const VideoFormat format = fmt5x3(ChromaFormat::yuv420);
    std::string bytes = "YUV4MPEG2 W5 H3 F25:1 Ip C420\r\n";
    for (int f = 0; f < 2; ++f) bytes += "FRAME\r\n" + frame_bytes(format, f);
    const fs::path path = write_file(test::scratch_dir("y4m_crlf") / "in.y4m", bytes);
    const auto source = open_y4m(path.string());
    EXPECT_EQ(source->format(), format);
    for (int f = 0; f < 2; ++f) expect_frame(source->next(), format, f);
    EXPECT_FALSE(source->next().has_value());
}

TEST(Y4mReader, OddSizedPlanesHaveCeilDimensions) {
    const fs::path path = test::scratch_dir("y4m_odd") / "in.y4m";
    const VideoFormat format{5, 3, 8, ChromaFormat::yuv420};
    write_file(path, y4m_file("YUV4MPEG2 W5 H3 F25:1 C420jpeg", format, 2));
    const auto source = open_y4m(path.string());
    const std::optional<Picture> first = source->next();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->size_bytes(), 15u + 2 * 6);
    EXPECT_EQ(first->plane<std::uint8_t>(1).width, 3);
    EXPECT_EQ(first->plane<std::uint8_t>(1).height, 2);
    expect_frame(source->next(), format, 1);  // still framed after the odd-sized first frame
}

TEST(Y4mReader, HighDepthSamplesAreLittleEndian) {
    const fs::path path = test::scratch_dir("y4m_le") / "in.y4m";
    // 1x1 4:4:4 at 16 bits: Y=0x0102, Cb=0xfedc, Cr=0x00ff.
    const char samples[] = {'\x02', '\x01', '\xdc', '\xfe', '\xff', '\x00'};
    write_file(path,
               "YUV4MPEG2 W1 H1 F1:1 C444p16\nFRAME\n" + std::string(samples, sizeof samples));
    const auto source = open_y4m(path.string());
    const std::optional<Picture> picture = source->next();
    ASSERT_TRUE(picture);
    EXPECT_EQ(picture->plane<std::uint16_t>(0).at(0, 0), 0x0102);
    EXPECT_EQ(picture->plane<std::uint16_t>(1).at(0, 0), 0xfedc);
    EXPECT_EQ(picture->plane<std::uint16_t>(2).at(0, 0), 0x00ff);
    EXPECT_FALSE(source->next());
}

TEST(Y4mReader, StepsOverTheAlphaPlane) {
    const fs::path path = test::scratch_dir("y4m_alpha") / "in.y4m";
    const VideoFormat format{5, 3, 8, ChromaFormat::yuv444};
    std::string bytes = "YUV4MPEG2 W5 H3 F1:1 C444alpha\n";
    for (int f = 0; f < 2; ++f)
        bytes += "FRAME\n" + frame_bytes(format, f) + std::string(15, '\xaa');
    write_file(path, bytes);
    const auto source = open_y4m(path.string());
    EXPECT_EQ(source->format(), format);
    expect_frame(source->next(), format, 0);
    expect_frame(source->next(), format, 1);
    EXPECT_FALSE(source->next());
}

TEST(Y4mReader, AcceptsFrameParameters) {
    const fs::path path = test::scratch_dir("y4m_frame_params") / "in.y4m";
    const VideoFormat format{4, 2, 8, ChromaFormat::yuv420};
    const std::string bytes = "YUV4MPEG2 W4 H2 F1:1\nFRAME Ip XFRAME_ID=0\n" +
                              frame_bytes(format, 0) + "FRAME X" + std::string(500, 'x') + "\n" +
                              frame_bytes(format, 1);
    write_file(path, bytes);
    const auto source = open_y4m(path.string());
    expect_frame(source->next(), format, 0);
    expect_frame(source->next(), format, 1);
    EXPECT_FALSE(source->next());
}

TEST(Y4mReader, HeaderOnlyFileHasNoFrames) {
    const fs::path path =
        write_file(test::scratch_dir("y4m_no_frames") / "in.y4m", "YUV4MPEG2 W4 H2 F1:1\n");
    EXPECT_FALSE(open_y4m(path.string())->next());
}

TEST(Y4mReader, SkipDiscardsWholeFrames) {
    const fs::path path = test::scratch_dir("y4m_skip") / "in.y4m";
    const VideoFormat format{6, 4, 10, ChromaFormat::yuv422};
    write_file(path, y4m_file("YUV4MPEG2 W6 H4 F1:1 C422p10", format, 4));
    const auto source = open_y4m(path.string());
    EXPECT_TRUE(source->skip());
    expect_frame(source->next(), format, 1);
    EXPECT_TRUE(source->skip());
    expect_frame(source->next(), format, 3);
    EXPECT_FALSE(source->skip());
}

TEST(Y4mReader, FramesComeFromTheAllocator) {
    const fs::path path = test::scratch_dir("y4m_allocator") / "in.y4m";
    const VideoFormat format{5, 3, 8, ChromaFormat::yuv420};
    write_file(path, y4m_file("YUV4MPEG2 W5 H3 F1:1", format, 2));
    const auto source = open_y4m(path.string());
    std::vector<std::byte*> handed_out;
    source->set_allocator([&](std::size_t bytes) {
        EXPECT_EQ(bytes, format.frame_bytes());
        FrameBuffer buffer(new std::byte[bytes]);
        handed_out.push_back(buffer.get());
        return buffer;
    });
    const std::optional<Picture> first = source->next();
    expect_frame(first, format, 0);
    EXPECT_TRUE(source->skip());  // a skipped frame needs no buffer
    ASSERT_EQ(handed_out.size(), 1u);
    EXPECT_EQ(first->data(), handed_out[0]);
}

TEST(Y4mReader, AnAllocatorThatFailsIsReportedWithTheFrame) {
    const fs::path path = test::scratch_dir("y4m_no_memory") / "in.y4m";
    write_file(path, y4m_file("YUV4MPEG2 W5 H3 F1:1", {5, 3, 8, ChromaFormat::yuv420}, 1));
    const auto source = open_y4m(path.string());
    source->set_allocator([](std::size_t) -> FrameBuffer { throw std::bad_alloc(); });
    EXPECT_EQ(error_of([&] { source->next(); }),
              "'" + path.string() + "': frame 0: cannot allocate 27 bytes");
}

// --- Y4M errors ----------------------------------------------------------------------------

TEST(Y4mReader, MissingFileNamesTheFileAndTheReason) {
    const fs::path path = test::scratch_dir("y4m_missing") / "nope.y4m";
    EXPECT_EQ(open_y4m_error(path),
              "cannot open '" + path.string() + "': No such file or directory");
}

TEST(Y4mReader, DirectoryIsNotAFile) {
    const fs::path dir = test::scratch_dir("y4m_directory");
    EXPECT_EQ(open_y4m_error(dir), "cannot open '" + dir.string() + "': Is a directory");
}

TEST(Y4mReader, EmptyFile) {
    const fs::path path = write_file(test::scratch_dir("y4m_empty") / "in.y4m", "");
    EXPECT_EQ(open_y4m_error(path), "'" + path.string() + "' is empty");
}

TEST(Y4mReader, BadMagic) {
    const fs::path dir = test::scratch_dir("y4m_magic");
    for (const std::string& content :
         {std::string("RIFF....WAVEfmt \n"), std::string("YUV4MPEG W2 H2 F1:1\n"),
          std::string("YUV4"), std::string(4096, '\0')}) {
        const fs::path path = write_file(dir / "in.y4m", content);
        EXPECT_EQ(open_y4m_error(path), fmt::format("'{}' is not a YUV4MPEG2 file", path.string()));
    }
}

TEST(Y4mReader, BadHeadersNameTheFileAndTheProblem) {
    const fs::path path = test::scratch_dir("y4m_header") / "in.y4m";
    const auto error_for = [&](const std::string& content) {
        write_file(path, content);
        return open_y4m_error(path);
    };
    const std::string prefix = "'" + path.string() + "': bad Y4M header: ";
    EXPECT_EQ(error_for("YUV4MPEG2 H2 F1:1\nFRAME\n"), prefix + "missing W (width) tag");
    EXPECT_EQ(error_for("YUV4MPEG2 W2 F1:1\n"), prefix + "missing H (height) tag");
    EXPECT_EQ(error_for("YUV4MPEG2 W2 H2\n"), prefix + "missing F (frame rate) tag");
    EXPECT_EQ(error_for("YUV4MPEG2 W2 H2 F1:1 It\n"),
              prefix + "It: interlaced video is not supported (only progressive frames, Ip)");
    EXPECT_EQ(error_for("YUV4MPEG2 W2 H2 F1:1 C420p10le\n"),
              prefix + "C420p10le: unknown chroma format");
    EXPECT_EQ(error_for("YUV4MPEG2 W2 H2 F1:1"), prefix + "the file ends inside the header");
    EXPECT_EQ(error_for("YUV4MPEG2 W2 H2 F1:1 X" + std::string(5000, 'x') + "\n"),
              prefix + "header is longer than 1024 bytes");
}

// The dimension check happens while parsing the header, before any frame memory exists: the
// allocator installed later would otherwise see a request of petabytes.
TEST(Y4mReader, AbsurdDimensionsFailAtOpen) {
    const fs::path path = test::scratch_dir("y4m_absurd") / "in.y4m";
    const std::string prefix = "'" + path.string() + "': bad Y4M header: ";
    write_file(path, "YUV4MPEG2 W99999999 H99999999 F1:1 C444p16\nFRAME\n");
    EXPECT_EQ(open_y4m_error(path), prefix + "W99999999: width must be an integer 1..16384");
    write_file(path, "YUV4MPEG2 W4 H18446744073709551617 F1:1\nFRAME\n");
    EXPECT_EQ(open_y4m_error(path),
              prefix + "H18446744073709551617: height must be an integer 1..16384");
    write_file(path, "YUV4MPEG2 W0 H4 F1:1\nFRAME\n");
    EXPECT_EQ(open_y4m_error(path), prefix + "W0: width must be an integer 1..16384");
}

TEST(Y4mReader, TruncatedLastFrameNamesFileAndFrame) {
    const fs::path path = test::scratch_dir("y4m_truncated") / "in.y4m";
    const VideoFormat format{5, 3, 8, ChromaFormat::yuv420};  // 27 bytes a frame
    write_file(path, y4m_file("YUV4MPEG2 W5 H3 F1:1", format, 2) + "FRAME\n" +
                         frame_bytes(format, 2).substr(0, 20));
    const auto source = open_y4m(path.string());
    expect_frame(source->next(), format, 0);
    expect_frame(source->next(), format, 1);
    const std::string expected =
        "'" + path.string() + "': frame 2 is truncated (got 20 of 27 bytes)";
    EXPECT_EQ(error_of([&] { source->next(); }), expected);
    EXPECT_EQ(error_of([&] { source->next(); }), expected);  // never a clean end afterwards
    EXPECT_EQ(error_of([&] { source->skip(); }), expected);
}

TEST(Y4mReader, TruncationWhileSkippingIsAnError) {
    const fs::path path = test::scratch_dir("y4m_truncated_skip") / "in.y4m";
    const VideoFormat format{5, 3, 8, ChromaFormat::yuv444};
    write_file(path,
               y4m_file("YUV4MPEG2 W5 H3 F1:1 C444", format, 1) + "FRAME\n" + std::string(44, 'x'));
    const auto source = open_y4m(path.string());
    EXPECT_TRUE(source->skip());
    EXPECT_EQ(error_of([&] { source->skip(); }),
              "'" + path.string() + "': frame 1 is truncated (got 44 of 45 bytes)");
}

TEST(Y4mReader, TruncatedAlphaPlaneCountsInTheFrame) {
    const fs::path path = test::scratch_dir("y4m_truncated_alpha") / "in.y4m";
    const VideoFormat format{5, 3, 8, ChromaFormat::yuv444};
    write_file(path, "YUV4MPEG2 W5 H3 F1:1 C444alpha\nFRAME\n" + frame_bytes(format, 0) + "aaaa");
    EXPECT_EQ(error_of([&] { open_y4m(path.string())->next(); }),
              "'" + path.string() + "': frame 0 is truncated (got 49 of 60 bytes)");
}

TEST(Y4mReader, FileEndingAfterFrameMarkerIsTruncated) {
    const fs::path path = test::scratch_dir("y4m_marker_end") / "in.y4m";
    const std::string frame_1 = "'" + path.string() + "': frame 1";
    const VideoFormat format{4, 2, 8, ChromaFormat::yuv420};
    const std::string one = y4m_file("YUV4MPEG2 W4 H2 F1:1", format, 1);
    for (const auto& [tail, problem] : std::map<std::string, std::string>{
             {"FRAME\n", " is truncated (got 0 of 12 bytes)"},
             {"FRAME", " is truncated (the file ends inside its FRAME line)"},
             {"FRA", " is truncated (the file ends inside its FRAME line)"},
             {"FRAME Ixyz", " is truncated (the file ends inside its FRAME line)"},
             {"F", " is truncated (the file ends inside its FRAME line)"}}) {
        write_file(path, one + tail);
        const auto source = open_y4m(path.string());
        expect_frame(source->next(), format, 0);
        EXPECT_EQ(error_of([&] { source->next(); }), frame_1 + problem) << tail;
    }
}

TEST(Y4mReader, LostFraming) {
    const fs::path dir = test::scratch_dir("y4m_framing");
    const VideoFormat format{4, 2, 8, ChromaFormat::yuv420};
    const std::string one = y4m_file("YUV4MPEG2 W4 H2 F1:1", format, 1);
    // A frame one byte too long (as a reader with floor-sized chroma would expect), a frame
    // with a broken marker, and garbage where the next frame should start.
    for (const std::string& tail :
         {"xFRAME\n" + frame_bytes(format, 1), "FRAMX\n" + frame_bytes(format, 1),
          std::string("\n"), std::string("garbage")}) {
        const fs::path path = write_file(dir / "in.y4m", one + tail);
        const auto source = open_y4m(path.string());
        expect_frame(source->next(), format, 0);
        EXPECT_EQ(error_of([&] { source->next(); }),
                  fmt::format("'{}': frame 1: lost framing (expected FRAME)", path.string()))
            << tail;
    }
}

TEST(Y4mReader, OverlongFrameLine) {
    const fs::path path = test::scratch_dir("y4m_frame_line") / "in.y4m";
    write_file(path, "YUV4MPEG2 W4 H2 F1:1\nFRAME " + std::string(3000, 'x') + "\n");
    EXPECT_EQ(error_of([&] { open_y4m(path.string())->next(); }),
              "'" + path.string() + "': frame 0: FRAME line is longer than 1024 bytes");
}

// Frames bigger than the reader's line buffer take the direct path into frame memory.
TEST(Y4mReader, LargeFramesReadIntact) {
    const fs::path path = test::scratch_dir("y4m_large") / "in.y4m";
    const VideoFormat format{640, 360, 10, ChromaFormat::yuv420};
    write_file(path, y4m_file("YUV4MPEG2 W640 H360 F1:1 C420p10 XCOLORRANGE=LIMITED", format, 3));
    const auto source = open_y4m(path.string());
    for (int f = 0; f < 3; ++f) expect_frame(source->next(), format, f);
    EXPECT_FALSE(source->next());
}

// --- raw YUV -------------------------------------------------------------------------------

// "5x3_10bit_420"
std::string yuv_case_name(const testing::TestParamInfo<VideoFormat>& info) {
    const VideoFormat& f = info.param;
    std::string chroma = to_string(f.chroma);  // "4:2:0"
    std::erase(chroma, ':');
    return std::to_string(f.width) + "x" + std::to_string(f.height) + "_" +
           std::to_string(f.bit_depth) + "bit_" + chroma;
}

class YuvReaderFormats : public testing::TestWithParam<VideoFormat> {};

TEST_P(YuvReaderFormats, ReadsEveryFrameAndThenEnds) {
    const VideoFormat& format = GetParam();
    const fs::path path = test::scratch_dir("yuv_formats") / "in.yuv";
    std::string bytes;
    for (int f = 0; f < 3; ++f) bytes += frame_bytes(format, f);
    write_file(path, bytes);
    const auto source = open_yuv(path.string(), format);
    EXPECT_EQ(source->format(), format);
    for (int f = 0; f < 3; ++f) expect_frame(source->next(), format, f);
    EXPECT_FALSE(source->next());
    EXPECT_FALSE(source->skip());
}

INSTANTIATE_TEST_SUITE_P(YuvEveryFormat, YuvReaderFormats,
                         testing::Values(VideoFormat{5, 3, 8, ChromaFormat::yuv420},
                                         VideoFormat{5, 3, 8, ChromaFormat::yuv422},
                                         VideoFormat{5, 3, 8, ChromaFormat::yuv444},
                                         VideoFormat{5, 3, 8, ChromaFormat::yuv400},
                                         VideoFormat{5, 3, 10, ChromaFormat::yuv420},
                                         VideoFormat{5, 3, 12, ChromaFormat::yuv422},
                                         VideoFormat{5, 3, 16, ChromaFormat::yuv444},
                                         VideoFormat{5, 3, 10, ChromaFormat::yuv400},
                                         VideoFormat{320, 240, 8, ChromaFormat::yuv420}),
                         yuv_case_name);

TEST(YuvReader, TruncatedLastFrameNamesFileAndFrame) {
    const VideoFormat format{4, 4, 10, ChromaFormat::yuv420};  // 48 bytes a frame
    const fs::path path = write_file(test::scratch_dir("yuv_truncated") / "in.yuv",
                                     frame_bytes(format, 0) + frame_bytes(format, 1).substr(0, 47));
    const auto source = open_yuv(path.string(), format);
    expect_frame(source->next(), format, 0);
    EXPECT_EQ(error_of([&] { source->next(); }),
              "'" + path.string() + "': frame 1 is truncated (got 47 of 48 bytes)");
}

// What the CLI asks for: bytes after the last whole frame end the input, as in the reference,
// and the caller hears how many there were.
TEST(YuvReader, TrailingBytesEndTheInputWhenTheCallerAcceptsThem) {
    const VideoFormat format{4, 4, 10, ChromaFormat::yuv420};  // 48 bytes a frame
    const fs::path path = write_file(test::scratch_dir("yuv_trailing") / "in.yuv",
                                     frame_bytes(format, 0) + frame_bytes(format, 1).substr(0, 47));
    std::vector<std::size_t> reported;
    const auto source =
        open_yuv(path.string(), format, [&](std::size_t bytes) { reported.push_back(bytes); });
    expect_frame(source->next(), format, 0);
    EXPECT_FALSE(source->next().has_value());
    EXPECT_FALSE(source->next().has_value());
    EXPECT_EQ(reported, std::vector<std::size_t>{47});

    reported.clear();
    const auto skipping =
        open_yuv(path.string(), format, [&](std::size_t bytes) { reported.push_back(bytes); });
    EXPECT_TRUE(skipping->skip());
    EXPECT_FALSE(skipping->skip());
    EXPECT_EQ(reported, std::vector<std::size_t>{47});
}

TEST(YuvReader, SkipDiscardsWholeFrames) {
    const VideoFormat format{5, 3, 8, ChromaFormat::yuv400};
    const fs::path path = write_file(test::scratch_dir("yuv_skip") / "in.yuv",
                                     frame_bytes(format, 0) + frame_bytes(format, 1) + "x");
    const auto source = open_yuv(path.string(), format);
    EXPECT_TRUE(source->skip());
    expect_frame(source->next(), format, 1);
    EXPECT_EQ(error_of([&] { source->skip(); }),
              "'" + path.string() + "': frame 2 is truncated (got 1 of 15 bytes)");
}

TEST(YuvReader, EmptyAndMissingFiles) {
    const fs::path dir = test::scratch_dir("yuv_empty");
    const VideoFormat format{4, 4, 8, ChromaFormat::yuv420};
    const fs::path empty = write_file(dir / "empty.yuv", "");
    EXPECT_EQ(error_of([&] { open_yuv(empty.string(), format); }),
              "'" + empty.string() + "' is empty");
    const fs::path missing = dir / "missing.yuv";
    EXPECT_EQ(error_of([&] { open_yuv(missing.string(), format); }),
              "cannot open '" + missing.string() + "': No such file or directory");
}

TEST(YuvReader, RejectsAnImpossibleFormatAsAUsageError) {
    const fs::path path = write_file(test::scratch_dir("yuv_bad_format") / "in.yuv", "xxxx");
    for (const VideoFormat& format : {VideoFormat{0, 4, 8, ChromaFormat::yuv420},
                                      VideoFormat{4, 4, 17, ChromaFormat::yuv420}}) {
        const auto open = [&] { open_yuv(path.string(), format); };
        EXPECT_FALSE(error_of(open, ErrorKind::usage).empty());
    }
}

// --- read-ahead ----------------------------------------------------------------------------

// Frames whose first byte is their index; throws at `fail_at`, ends at `count`.
class CountingSource final : public FrameSource {
public:
    static constexpr std::size_t endless = std::size_t(-1);

    explicit CountingSource(std::size_t count, std::size_t fail_at = endless)
        : count_(count), fail_at_(fail_at) {}

    const VideoFormat& format() const override { return format_; }
    const std::string& path() const override { return path_; }
    std::optional<Picture> next() override {
        if (produced == fail_at_)
            throw runtime_error("'counting': frame " + std::to_string(produced) + " is bad");
        if (produced == count_) return std::nullopt;
        const std::size_t bytes = format_.frame_bytes();
        Picture picture(format_,
                        allocator_ ? allocator_(bytes) : FrameBuffer(new std::byte[bytes]));
        picture.data()[0] = std::byte(produced & 0xff);
        ++produced;
        return picture;
    }
    bool skip() override { return next().has_value(); }
    void set_allocator(BufferAllocator allocator) override { allocator_ = std::move(allocator); }

    std::atomic<std::size_t> produced{0};

private:
    VideoFormat format_{4, 2, 8, ChromaFormat::yuv400};
    std::string path_ = "counting";
    std::size_t count_;
    std::size_t fail_at_;
    BufferAllocator allocator_;
};

std::size_t index_of(const std::optional<Picture>& picture) {
    return std::size_t(picture->data()[0]);
}

// Waits (bounded) until the producer thread has read `count` frames from `source`.
bool wait_for_produced(const CountingSource& source, std::size_t count) {
    // Generous, because a loaded test machine may not schedule the producer for a while.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (source.produced < count && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return source.produced >= count;
}

TEST(ReadAhead, DeliversFramesInOrderThenEnds) {
    auto source = read_ahead(std::make_unique<CountingSource>(50), 3);
    EXPECT_EQ(source->path(), "counting");
    EXPECT_EQ(source->format(), (VideoFormat{4, 2, 8, ChromaFormat::yuv400}));
    for (std::size_t i = 0; i < 50; ++i) {
        const std::optional<Picture> picture = source->next();
        ASSERT_TRUE(picture);
        EXPECT_EQ(index_of(picture), i);
    }
    EXPECT_FALSE(source->next());
    EXPECT_FALSE(source->next());
    EXPECT_FALSE(source->skip());
}

TEST(ReadAhead, SkipConsumesOneFrame) {
    auto source = read_ahead(std::make_unique<CountingSource>(4), 2);
    EXPECT_TRUE(source->skip());
    EXPECT_TRUE(source->skip());
    EXPECT_EQ(index_of(source->next()), 2u);
    EXPECT_TRUE(source->skip());
    EXPECT_FALSE(source->skip());
}

TEST(ReadAhead, ErrorArrivesAtTheFrameWhereItHappened) {
    auto source = read_ahead(std::make_unique<CountingSource>(10, 3), 8);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(index_of(source->next()), i);
    EXPECT_EQ(error_of([&] { source->next(); }), "'counting': frame 3 is bad");
    EXPECT_EQ(error_of([&] { source->next(); }), "'counting': frame 3 is bad");
    EXPECT_EQ(error_of([&] { source->skip(); }), "'counting': frame 3 is bad");
}

TEST(ReadAhead, ReadsNoMoreThanDepthFramesAhead) {
    auto counting = std::make_unique<CountingSource>(CountingSource::endless);
    const CountingSource& probe = *counting;
    auto source = read_ahead(std::move(counting), 4);
    EXPECT_EQ(probe.produced, 0u);  // nothing is read before the first request
    EXPECT_EQ(index_of(source->next()), 0u);
    ASSERT_TRUE(wait_for_produced(probe, 5));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(probe.produced, 5u);  // the frame handed out plus four waiting
}

TEST(ReadAhead, DestructionWhileTheProducerWaitsDoesNotHang) {
    auto counting = std::make_unique<CountingSource>(CountingSource::endless);
    const CountingSource& probe = *counting;
    auto source = read_ahead(std::move(counting), 2);
    EXPECT_TRUE(source->next());
    ASSERT_TRUE(wait_for_produced(probe, 3));  // the queue is full: the producer is blocked
    source.reset();
}

TEST(ReadAhead, DestructionBeforeAndRightAfterTheFirstFrame) {
    read_ahead(std::make_unique<CountingSource>(CountingSource::endless), 2).reset();
    auto source = read_ahead(std::make_unique<CountingSource>(CountingSource::endless), 1);
    EXPECT_TRUE(source->next());
    source.reset();  // the producer may be mid-read or waiting: either way this returns
}

TEST(ReadAhead, AllocatorIsForwardedBeforeTheFirstFrameOnly) {
    auto source = read_ahead(std::make_unique<CountingSource>(3), 2);
    std::atomic<int> calls = 0;
    source->set_allocator([&](std::size_t bytes) {
        ++calls;
        return FrameBuffer(new std::byte[bytes]);
    });
    EXPECT_TRUE(source->next());
    EXPECT_FALSE(error_of([&] { source->set_allocator({}); }, ErrorKind::usage).empty());
    while (source->next()) {}
    EXPECT_EQ(calls, 3);
}

TEST(ReadAhead, DepthZeroReadsSynchronously) {
    auto counting = std::make_unique<CountingSource>(2);
    const FrameSource* raw = counting.get();
    EXPECT_EQ(read_ahead(std::move(counting), 0).get(), raw);
}

TEST(ReadAhead, OverAY4mFileMatchesDirectReading) {
    const fs::path path = test::scratch_dir("read_ahead_y4m") / "in.y4m";
    const VideoFormat format{33, 17, 12, ChromaFormat::yuv420};
    write_file(path, y4m_file("YUV4MPEG2 W33 H17 F1:1 C420p12", format, 20) + "FRAME\n" +
                         std::string(10, 'x'));
    auto source = read_ahead(open_y4m(path.string()), 3);
    for (int f = 0; f < 20; ++f) expect_frame(source->next(), format, f);
    EXPECT_EQ(error_of([&] { source->next(); }),
              "'" + path.string() + "': frame 20 is truncated (got 10 of " +
                  std::to_string(format.frame_bytes()) + " bytes)");
}

// --- fixtures ------------------------------------------------------------------------------

TEST(Y4mFixtures, EveryFixtureReadsToACleanEnd) {
    VQ_REQUIRE_FIXTURES(fixtures);
    struct Expected {
        VideoFormat format;
        int frames;
    };
    const std::map<std::string, Expected> expected = {
        {"grad_576x324_8b_420", {{576, 324, 8, ChromaFormat::yuv420}, 12}},
        {"testsrc_576x324_8b_420", {{576, 324, 8, ChromaFormat::yuv420}, 12}},
        {"mandel_576x324_8b_420", {{576, 324, 8, ChromaFormat::yuv420}, 12}},
        {"grad_576x324_10b_420", {{576, 324, 10, ChromaFormat::yuv420}, 12}},
        {"grad_1920x1080_8b_420", {{1920, 1080, 8, ChromaFormat::yuv420}, 4}},
        {"odd_641x359_8b_420", {{641, 359, 8, ChromaFormat::yuv420}, 6}},
        {"testsrc_352x288_8b_422", {{352, 288, 8, ChromaFormat::yuv422}, 6}},
        {"testsrc_352x288_8b_444", {{352, 288, 8, ChromaFormat::yuv444}, 6}},
    };
    for (const auto& [name, want] : expected) {
        for (const char* file : {"ref.y4m", "dist.y4m"}) {
            const fs::path path = fixtures / name / file;
            SCOPED_TRACE(path.string());
            ASSERT_TRUE(fs::exists(path));
            auto source = read_ahead(open_y4m(path.string()), 2);
            EXPECT_EQ(source->format(), want.format);
            int frames = 0;
            while (source->next()) ++frames;
            EXPECT_EQ(frames, want.frames);
        }
    }
    // Every fixture is listed above, so a new one cannot go unread.
    for (const auto& entry : fs::directory_iterator(fixtures)) {
        if (entry.is_directory()) {
            EXPECT_TRUE(expected.count(entry.path().filename().string())) << entry.path();
        }
    }
}

}  // namespace
}  // namespace vq
