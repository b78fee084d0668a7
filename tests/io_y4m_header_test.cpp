// parse_y4m_header: every C tag, the optional tags, and every way a header can be wrong.
#include <cctype>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "io/y4m_header.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

// The message of the vq::Error (runtime) that parsing `line` throws; fails the test otherwise.
std::string parse_error(std::string_view line) {
    try {
        parse_y4m_header(line);
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::runtime);
        return error.what();
    }
    ADD_FAILURE() << "no error for: " << line;
    return {};
}

TEST(Y4mHeader, ParsesTheRequiredTagsAndDefaultsTo8Bit420) {
    const Y4mHeader header = parse_y4m_header("YUV4MPEG2 W1920 H1080 F30000:1001");
    EXPECT_EQ(header.format, (VideoFormat{1920, 1080, 8, ChromaFormat::yuv420}));
    EXPECT_EQ(header.frame_rate.num, 30000);
    EXPECT_EQ(header.frame_rate.den, 1001);
    EXPECT_EQ(header.pixel_aspect.num, 0);  // absent A reads as 0:0, "unknown"
    EXPECT_EQ(header.pixel_aspect.den, 0);
    EXPECT_FALSE(header.has_alpha_plane);
    EXPECT_EQ(header.alpha_plane_bytes(), 0u);
}

// Files written on Windows end the header in CRLF; the reference accepts them.
TEST(Y4mHeader, AcceptsACrlfLineEnd) {
    EXPECT_EQ(parse_y4m_header("YUV4MPEG2 W352 H288 F25:1\r").format,
              (VideoFormat{352, 288, 8, ChromaFormat::yuv420}));
    EXPECT_EQ(parse_y4m_header("YUV4MPEG2 W352 H288 F25:1 C422\r").format.chroma,
              ChromaFormat::yuv422);
}

struct ChromaCase {
    const char* tag;
    ChromaFormat chroma;
    int bit_depth;
};

void PrintTo(const ChromaCase& c, std::ostream* out) {
    *out << 'C' << c.tag << " -> " << to_string(c.chroma) << ' ' << c.bit_depth << "-bit";
}

class Y4mHeaderChroma : public testing::TestWithParam<ChromaCase> {};

TEST_P(Y4mHeaderChroma, MapsTheCTag) {
    const ChromaCase& c = GetParam();
    const Y4mHeader header = parse_y4m_header(std::string("YUV4MPEG2 W6 H4 F25:1 C") + c.tag);
    EXPECT_EQ(header.format, (VideoFormat{6, 4, c.bit_depth, c.chroma})) << c.tag;
    EXPECT_FALSE(header.has_alpha_plane);
}

INSTANTIATE_TEST_SUITE_P(Y4mEveryTag, Y4mHeaderChroma,
                         testing::Values(ChromaCase{"420", ChromaFormat::yuv420, 8},
                                         ChromaCase{"420jpeg", ChromaFormat::yuv420, 8},
                                         ChromaCase{"420mpeg2", ChromaFormat::yuv420, 8},
                                         ChromaCase{"420paldv", ChromaFormat::yuv420, 8},
                                         ChromaCase{"422", ChromaFormat::yuv422, 8},
                                         ChromaCase{"444", ChromaFormat::yuv444, 8},
                                         ChromaCase{"mono", ChromaFormat::yuv400, 8},
                                         ChromaCase{"420p9", ChromaFormat::yuv420, 9},
                                         ChromaCase{"420p10", ChromaFormat::yuv420, 10},
                                         ChromaCase{"420p12", ChromaFormat::yuv420, 12},
                                         ChromaCase{"420p14", ChromaFormat::yuv420, 14},
                                         ChromaCase{"420p16", ChromaFormat::yuv420, 16},
                                         ChromaCase{"422p10", ChromaFormat::yuv422, 10},
                                         ChromaCase{"422p12", ChromaFormat::yuv422, 12},
                                         ChromaCase{"422p16", ChromaFormat::yuv422, 16},
                                         ChromaCase{"444p10", ChromaFormat::yuv444, 10},
                                         ChromaCase{"444p12", ChromaFormat::yuv444, 12},
                                         ChromaCase{"444p16", ChromaFormat::yuv444, 16},
                                         ChromaCase{"mono10", ChromaFormat::yuv400, 10},
                                         ChromaCase{"mono16", ChromaFormat::yuv400, 16}),
                         [](const testing::TestParamInfo<ChromaCase>& info) {
                             return std::string("C") + info.param.tag;
                         });

TEST(Y4mHeader, AlphaFormatIs444WithAnIgnoredAlphaPlane) {
    const Y4mHeader header = parse_y4m_header("YUV4MPEG2 W5 H3 F1:1 C444alpha");
    EXPECT_EQ(header.format, (VideoFormat{5, 3, 8, ChromaFormat::yuv444}));
    EXPECT_TRUE(header.has_alpha_plane);
    EXPECT_EQ(header.alpha_plane_bytes(), 15u);
}

TEST(Y4mHeader, ReadsOptionalTagsAndIgnoresExtensions) {
    const Y4mHeader header = parse_y4m_header(
        "YUV4MPEG2 C420p10 XYSCSS=420P10 W64 H48 Ip A128:117 F50:1 XCOLORRANGE=FULL Zfuture");
    EXPECT_EQ(header.format, (VideoFormat{64, 48, 10, ChromaFormat::yuv420}));
    EXPECT_EQ(header.pixel_aspect.num, 128);
    EXPECT_EQ(header.pixel_aspect.den, 117);
    EXPECT_EQ(parse_y4m_header("YUV4MPEG2 W2 H2 F1:1 I? A0:0").format.width, 2);  // unknown scan
}

TEST(Y4mHeader, ToleratesRepeatedSpacesAndLetsTheLastTagWin) {
    const Y4mHeader header = parse_y4m_header("YUV4MPEG2  W8   H8 F1:1 W16 C444 C422 ");
    EXPECT_EQ(header.format, (VideoFormat{16, 8, 8, ChromaFormat::yuv422}));
}

TEST(Y4mHeader, AcceptsTheLargestDimension) {
    const Y4mHeader header = parse_y4m_header("YUV4MPEG2 W16384 H16384 F1:1 C444p16");
    EXPECT_EQ(header.format.width, max_dimension);
    EXPECT_EQ(header.format.frame_bytes(), std::size_t(16384) * 16384 * 3 * 2);
}

struct BadHeader {
    const char* line;
    const char* message;  // what the error must say, exactly
};

void PrintTo(const BadHeader& c, std::ostream* out) {
    *out << '"' << c.line << "\" -> " << c.message;
}

// "07_W_minus_4_H2_F1_1": the index keeps names unique, the header's tags say what is wrong.
std::string bad_header_name(const testing::TestParamInfo<BadHeader>& info) {
    std::string name = fmt::format("{:02}", info.index);
    std::string_view tags = info.param.line;
    if (tags.starts_with("YUV4MPEG2")) tags.remove_prefix(9);
    if (tags.empty()) return name + "_nothing_after_the_signature";
    for (const char c : tags) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            name += c;
        else if (c == '-')
            name += "_minus_";
        else if (c == '+')
            name += "_plus_";
        else
            name += '_';
    }
    return name;
}

class Y4mHeaderRejects : public testing::TestWithParam<BadHeader> {};

TEST_P(Y4mHeaderRejects, WithAOneLineMessage) {
    EXPECT_EQ(parse_error(GetParam().line), GetParam().message) << GetParam().line;
}

INSTANTIATE_TEST_SUITE_P(
    Y4mMalformed, Y4mHeaderRejects,
    testing::Values(
        BadHeader{"YUV4MPEG2 H2 F1:1", "missing W (width) tag"},
        BadHeader{"YUV4MPEG2 W2 F1:1", "missing H (height) tag"},
        BadHeader{"YUV4MPEG2 W2 H2", "missing F (frame rate) tag"},
        BadHeader{"YUV4MPEG2", "missing W (width) tag"},
        BadHeader{"YUV4MPEG2 W0 H2 F1:1", "W0: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W-4 H2 F1:1", "W-4: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W+4 H2 F1:1", "W+4: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W H2 F1:1", "W: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W4x H2 F1:1", "W4x: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W16385 H2 F1:1", "W16385: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W99999999 H2 F1:1", "W99999999: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W99999999999999999999999 H2 F1:1",
                  "W99999999999999999999999: width must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W2 H99999999 F1:1", "H99999999: height must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W2 H0 F1:1", "H0: height must be an integer 1..16384"},
        BadHeader{"YUV4MPEG2 W2 H2 F30", "F30: frame rate must be <n>:<d> with positive integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F0:1",
                  "F0:1: frame rate must be <n>:<d> with positive integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F30:0",
                  "F30:0: frame rate must be <n>:<d> with positive integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F:", "F:: frame rate must be <n>:<d> with positive integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F-1:1",
                  "F-1:1: frame rate must be <n>:<d> with positive integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1:1",
                  "F1:1:1: frame rate must be <n>:<d> with positive integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 A1", "A1: pixel aspect must be <n>:<d> with integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 Ax:y", "Ax:y: pixel aspect must be <n>:<d> with integers"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 It",
                  "It: interlaced video is not supported (only progressive frames, Ip)"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 Ib",
                  "Ib: interlaced video is not supported (only progressive frames, Ip)"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 Im",
                  "Im: interlaced video is not supported (only progressive frames, Ip)"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 Ix", "Ix: unknown interlacing mode"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 I", "I: unknown interlacing mode"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 C411", "C411: 4:1:1 chroma is not supported"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 C420p8", "C420p8: bit depth must be 9..16"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 C444p17", "C444p17: bit depth must be 9..16"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 Cmono8", "Cmono8: bit depth must be 9..16"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 C420p", "C420p: unknown chroma format"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 C420p10le", "C420p10le: unknown chroma format"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 Cyuv420", "Cyuv420: unknown chroma format"},
        BadHeader{"YUV4MPEG2 W2 H2 F1:1 C", "C: unknown chroma format"},
        BadHeader{"YUV4MPEG W2 H2 F1:1", "missing YUV4MPEG2 signature"},
        BadHeader{"YUV4MPEG2W2 H2 F1:1", "missing YUV4MPEG2 signature"},
        BadHeader{"", "missing YUV4MPEG2 signature"}),
    bad_header_name);

TEST(Y4mHeader, RejectsAnOverlongLine) {
    std::string line = "YUV4MPEG2 W2 H2 F1:1 X";
    line.resize(max_y4m_header_bytes, 'x');
    EXPECT_EQ(parse_y4m_header(line).format.width, 2);  // exactly the limit is fine
    line += 'x';
    EXPECT_EQ(parse_error(line), "header is longer than 1024 bytes");
}

TEST(Y4mHeader, QuotesBinaryTokensAsOneShortPrintableLine) {
    const std::string line =
        std::string("YUV4MPEG2 W2 H2 F1:1 C\x01\xff\t\r") + std::string(100, 'z');
    const std::string message = parse_error(line);
    EXPECT_EQ(message, "C????zzzzzzzzzzzzzzzzzzzzzzzzzzz...: unknown chroma format");
}

TEST(Y4mHeader, SignatureCheckNeedsASpaceOrTheEnd) {
    EXPECT_TRUE(has_y4m_signature("YUV4MPEG2"));
    EXPECT_TRUE(has_y4m_signature("YUV4MPEG2 W2"));
    EXPECT_FALSE(has_y4m_signature("YUV4MPEG2W2"));
    EXPECT_FALSE(has_y4m_signature("YUV4MPEG"));
    EXPECT_FALSE(has_y4m_signature("\x89PNG"));
}

}  // namespace
}  // namespace vq
