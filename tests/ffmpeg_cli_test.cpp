// vq on real videos: containers give the same scores as the Y4M they losslessly hold, standard
// input, --scale, mismatch reports and the bad-input contract (one line naming the file, non-zero
// status, no output file). Clips are made at test time with the ffmpeg binary.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ffmpeg_test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::ffmpeg;
using test::quoted;

// Every feature vq lists, with its default options: the lossless round trip must hold for all.
std::vector<std::string> all_features() {
    std::vector<std::string> names;
    std::istringstream lines(test::run_vq("--list-features").output);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty() && line[0] != ' ' && line.find(" (") != std::string::npos)
            names.push_back(line.substr(0, line.find(" (")));
    return names;
}

std::string feature_flags(const std::vector<std::string>& names) {
    std::string flags;
    for (const auto& name : names) flags += " --feature " + name;
    return flags;
}

// Scores as CSV at full precision; empty (with a test failure) if vq fails.
std::string scores(const std::string& inputs, const fs::path& csv, const std::string& extra = "") {
    const auto result = test::run_vq(inputs + extra + " --csv --precision max -o " + quoted(csv));
    EXPECT_EQ(result.exit_code, 0) << inputs << extra << "\n" << result.output;
    return result.exit_code == 0 ? test::read_file(csv) : std::string();
}

// The run fails with one line naming `parts`, and writes no output. So it does with --backend
// auto, whose containers await the choice of their decoder (the GPU's where there is one) before
// decoding a frame: the error line is the same.
void expect_failure(const std::string& args, const std::vector<std::string>& parts,
                    const fs::path& output) {
    const auto result = test::run_vq(args + " -o " + quoted(output));
    EXPECT_EQ(result.exit_code, 1) << args << "\n" << result.output;
    for (const auto& part : parts)
        EXPECT_NE(result.output.find(part), std::string::npos)
            << "message should contain '" << part << "': " << result.output;
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1)
        << "one line: " << result.output;
    EXPECT_FALSE(fs::exists(output)) << "a failed run left " << output;

    const auto automatic = test::run_vq(args + " --backend auto -q -o " + quoted(output));
    EXPECT_EQ(automatic.exit_code, 1) << args << "\n" << automatic.output;
    const auto last_line = [](const std::string& text) {
        const std::size_t start = text.rfind('\n', text.size() - 2);
        return text.substr(start == std::string::npos ? 0 : start + 1);
    };
    EXPECT_EQ(last_line(automatic.output), result.output) << "with --backend auto";
    EXPECT_FALSE(fs::exists(output)) << "a failed run left " << output;
}

struct LosslessCase {
    const char* fixture;
    bool x264;  // also H.264 -qp 0 (lossless) in MP4, B-frames and all
};

void PrintTo(const LosslessCase& c, std::ostream* out) {
    *out << c.fixture << (c.x264 ? " (FFV1 and x264)" : " (FFV1)");
}

class FfmpegLossless : public testing::TestWithParam<LosslessCase> {};

TEST_P(FfmpegLossless, ContainerScoresEqualTheY4mScoresBitForBit) {
    VQ_REQUIRE_FFMPEG();
    VQ_REQUIRE_FIXTURES(fixtures);
    const LosslessCase c = GetParam();
    const fs::path source = fixtures / c.fixture;
    const fs::path dir = test::scratch_dir(std::string("ffmpeg_lossless_") + c.fixture);
    const std::string features = feature_flags(all_features());
    const std::string y4m =
        "-r " + quoted(source / "ref.y4m") + " -d " + quoted(source / "dist.y4m") + features;
    const std::string expected = scores(y4m, dir / "y4m.csv");
    ASSERT_FALSE(expected.empty());

    // The default VMAF model too, once this vq runs models (libvmaf's -m syntax).
    const std::string model = " -m version=vmaf_v0.6.1";
    std::string expected_model;
    if (test::run_vq(y4m + model + " -q").exit_code == 0)
        expected_model = scores(y4m, dir / "y4m_model.csv", model);

    std::vector<std::string> encodings = {"ffv1.mkv"};
    if (c.x264 && test::have_encoder("libx264")) encodings.push_back("x264.mp4");
    for (const auto& encoding : encodings) {
        const std::string codec =
            encoding == "ffv1.mkv" ? "-c:v ffv1" : "-c:v libx264 -qp 0 -preset veryfast";
        for (const char* side : {"ref", "dist"})
            ASSERT_TRUE(ffmpeg("-i " + quoted(source / (std::string(side) + ".y4m")) + " " + codec +
                               " " + quoted(dir / (std::string(side) + "_" + encoding))));
        // Both containers, and a container against the Y4M.
        EXPECT_EQ(scores("-r " + quoted(dir / ("ref_" + encoding)) + " -d " +
                             quoted(dir / ("dist_" + encoding)) + features,
                         dir / "both.csv"),
                  expected)
            << encoding;
        EXPECT_EQ(scores("-r " + quoted(source / "ref.y4m") + " -d " +
                             quoted(dir / ("dist_" + encoding)) + features,
                         dir / "mixed.csv"),
                  expected)
            << encoding;
        if (!expected_model.empty()) {
            EXPECT_EQ(scores("-r " + quoted(dir / ("ref_" + encoding)) + " -d " +
                                 quoted(dir / ("dist_" + encoding)) + features,
                             dir / "model.csv", model),
                      expected_model)
                << encoding << " with the VMAF model";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Ffmpeg, FfmpegLossless,
                         // x264 takes no odd sizes in 4:2:0, hence FFV1 alone for the odd fixture.
                         testing::Values(LosslessCase{"odd_641x359_8b_420", false},
                                         LosslessCase{"testsrc_576x324_8b_420", true},
                                         LosslessCase{"grad_576x324_10b_420", true},
                                         LosslessCase{"testsrc_352x288_8b_422", false},
                                         LosslessCase{"testsrc_352x288_8b_444", false}),
                         [](const auto& info) { return std::string(info.param.fixture); });

// A clip and a lightly damaged copy, both Y4M, for the tests below.
struct Pair {
    fs::path dir, ref, dist;
};

Pair make_pair(const std::string& name, const std::string& size = "64x48", int frames = 8) {
    Pair pair{test::scratch_dir(name), {}, {}};
    pair.ref = pair.dir / "ref.y4m";
    pair.dist = pair.dir / "dist.y4m";
    ffmpeg(fmt::format("-f lavfi -i testsrc2=size={}:rate=25 -frames:v {} -pix_fmt yuv420p {}",
                       size, frames, quoted(pair.ref)));
    ffmpeg("-i " + quoted(pair.ref) + " -vf noise=alls=12:allf=t " + quoted(pair.dist));
    return pair;
}

TEST(FfmpegCli, StandardInputCarriesY4m) {
    VQ_REQUIRE_FFMPEG();
    const Pair p = make_pair("ffmpeg_cli_stdin");
    const std::string expected = scores(
        "-r " + quoted(p.ref) + " -d " + quoted(p.dist) + " --feature psnr", p.dir / "a.csv");
    // A pipe, as from "ffmpeg ... -f yuv4mpegpipe -"; then a redirected file.
    const auto piped = test::run_shell(fmt::format(
        "ffmpeg -hide_banner -loglevel error -nostdin -i {} -f yuv4mpegpipe - | {} "
        "-r {} -d - --feature psnr --csv --precision max -o {}",
        quoted(p.dist), quoted(test::vq_binary()), quoted(p.ref), quoted(p.dir / "b.csv")));
    ASSERT_EQ(piped.exit_code, 0) << piped.output;
    EXPECT_EQ(test::read_file(p.dir / "b.csv"), expected);
    EXPECT_EQ(scores("-r - -d " + quoted(p.dist) + " --feature psnr", p.dir / "c.csv",
                     " < " + quoted(p.ref)),
              expected);
    const auto both = test::run_vq("-r - -d - --feature psnr");
    EXPECT_EQ(both.exit_code, 2) << both.output;
}

// Standard input is vq's own Y4M reader: it works in a build without FFmpeg too.
TEST(FfmpegCli, StandardInputNeedsNoFfmpeg) {
    const fs::path dir = test::scratch_dir("ffmpeg_cli_stdin_plain");
    const auto write = [&](const fs::path& path, int seed) {
        std::string data = "YUV4MPEG2 W16 H8 F25:1 Ip C420jpeg\n";
        for (int frame = 0; frame < 3; ++frame) {
            data += "FRAME\n";
            for (int i = 0; i < 16 * 8 * 3 / 2; ++i)
                data += char((i * 5 + frame * 11 + seed * (i % 3)) & 0xff);
        }
        std::ofstream(path, std::ios::binary) << data;
    };
    write(dir / "ref.y4m", 0);
    write(dir / "dist.y4m", 1);
    const std::string expected = scores(
        "-r " + quoted(dir / "ref.y4m") + " -d " + quoted(dir / "dist.y4m") + " --feature psnr",
        dir / "a.csv");
    const auto piped = test::run_shell(
        fmt::format("cat {} | {} -r - -d {} --feature psnr --csv --precision max -o {}",
                    quoted(dir / "ref.y4m"), quoted(test::vq_binary()), quoted(dir / "dist.y4m"),
                    quoted(dir / "b.csv")));
    ASSERT_EQ(piped.exit_code, 0) << piped.output;
    EXPECT_EQ(test::read_file(dir / "b.csv"), expected);
    std::ofstream(dir / "text.txt") << "no video\n";
    const auto bad = test::run_shell(
        fmt::format("cat {} | {} -r {} -d - --feature psnr", quoted(dir / "text.txt"),
                    quoted(test::vq_binary()), quoted(dir / "ref.y4m")));
    EXPECT_EQ(bad.exit_code, 1) << bad.output;
    EXPECT_NE(bad.output.find("YUV4MPEG2"), std::string::npos) << bad.output;
}

TEST(FfmpegCli, DifferentSizesNeedScale) {
    VQ_REQUIRE_FFMPEG();
    const Pair p = make_pair("ffmpeg_cli_scale");
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.dist) + " -vf scale=40:30 -c:v ffv1 " +
                       quoted(p.dir / "small.mkv")));
    expect_failure("-r " + quoted(p.ref) + " -d " + quoted(p.dir / "small.mkv") + " --feature psnr",
                   {"sizes differ", "--scale 64x48"}, p.dir / "out.csv");
    // --scale equals scoring what ffmpeg's scale filter makes of the distorted video.
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.dir / "small.mkv") + " -vf scale=64:48:flags=lanczos " +
                       quoted(p.dir / "up.y4m")));
    EXPECT_EQ(scores("-r " + quoted(p.ref) + " -d " + quoted(p.dir / "small.mkv") +
                         " --feature psnr --scale 64x48:lanczos",
                     p.dir / "a.csv"),
              scores("-r " + quoted(p.ref) + " -d " + quoted(p.dir / "up.y4m") + " --feature psnr",
                     p.dir / "b.csv"));
    const auto bad = test::run_vq("-r " + quoted(p.ref) + " -d " + quoted(p.dist) +
                                  " --feature psnr --scale 64by48");
    EXPECT_EQ(bad.exit_code, 2) << bad.output;
    EXPECT_NE(bad.output.find("--scale"), std::string::npos);
}

TEST(FfmpegCli, FrameRateAndCountMismatchesAreReported) {
    VQ_REQUIRE_FFMPEG();
    const Pair p = make_pair("ffmpeg_cli_rates");
    ASSERT_TRUE(
        ffmpeg("-i " + quoted(p.dist) + " -c:v ffv1 -r 24 " + quoted(p.dir / "rate24.mkv")));
    auto result = test::run_vq("-r " + quoted(p.ref) + " -d " + quoted(p.dir / "rate24.mkv") +
                               " --feature psnr");
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("frame rates differ"), std::string::npos) << result.output;
    ASSERT_TRUE(
        ffmpeg("-i " + quoted(p.dist) + " -frames:v 5 -c:v ffv1 " + quoted(p.dir / "short.mkv")));
    const fs::path out = p.dir / "out.json";
    result = test::run_vq("-r " + quoted(p.ref) + " -d " + quoted(p.dir / "short.mkv") +
                          " --feature psnr --json -o " + quoted(out));
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("ended before"), std::string::npos) << result.output;
    EXPECT_EQ(nlohmann::json::parse(test::read_file(out))["frames"].size(), 5u);
}

TEST(FfmpegCli, EveryDecodedFrameIsScoredOnce) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const Pair p = make_pair("ffmpeg_cli_count", "64x48", 37);
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.dist) + " -c:v libx264 -crf 28 -bf 3 " +
                       quoted(p.dir / "dist.mp4")));
    const fs::path out = p.dir / "out.json";
    const auto result = test::run_vq("-r " + quoted(p.ref) + " -d " + quoted(p.dir / "dist.mp4") +
                                     " --feature psnr --decode-threads 2 --json -o " + quoted(out));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(result.output.find("ended before"), std::string::npos) << result.output;
    EXPECT_EQ(nlohmann::json::parse(test::read_file(out))["frames"].size(), 37u);
}

// Several decoders per input (--decode-sessions) score exactly what one decoder does.
TEST(FfmpegCli, DecodeSessionsScoreWhatOneDecoderDoes) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const Pair p = make_pair("ffmpeg_cli_sessions", "64x48", 40);
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.ref) + " -c:v libx264 -crf 10 -g 8 -bf 2 " +
                       quoted(p.dir / "ref.mkv")));
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.dist) + " -c:v libx264 -crf 30 -g 6 -bf 3 " +
                       quoted(p.dir / "dist.mp4")));
    std::string scores[2];
    for (const int sessions : {1, 4}) {
        const fs::path out = p.dir / fmt::format("{}.json", sessions);
        const auto result = test::run_vq(fmt::format(
            "-r {} -d {} --feature psnr --feature motion --decode-sessions {} --json -o {}",
            quoted(p.dir / "ref.mkv"), quoted(p.dir / "dist.mp4"), sessions, quoted(out)));
        ASSERT_EQ(result.exit_code, 0) << result.output;
        const auto json = nlohmann::json::parse(test::read_file(out));
        ASSERT_EQ(json["frames"].size(), 40u);
        scores[sessions == 1 ? 0 : 1] = json["frames"].dump();
    }
    EXPECT_EQ(scores[1], scores[0]);
}

TEST(FfmpegCli, BadInputsFailWithOneLineAndNoOutput) {
    VQ_REQUIRE_FFMPEG();
    const Pair p = make_pair("ffmpeg_cli_bad", "64x48", 30);
    const fs::path out = p.dir / "out.json";
    const std::string ref = "-r " + quoted(p.ref) + " --feature psnr -d ";

    std::ofstream(p.dir / "text.mkv") << "plain text, no video here\n";
    expect_failure(ref + quoted(p.dir / "text.mkv"), {"text.mkv"}, out);

    ASSERT_TRUE(ffmpeg("-f lavfi -i sine=duration=0.5 " + quoted(p.dir / "tone.mka")));
    expect_failure(ref + quoted(p.dir / "tone.mka"), {"tone.mka", "no video stream"}, out);

    // Truncated: frames before the cut are scored, but no output may look complete.
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.dist) + " -c:v ffv1 " + quoted(p.dir / "whole.mkv")));
    const std::string bytes = test::read_file(p.dir / "whole.mkv");
    std::ofstream(p.dir / "cut.mkv", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    expect_failure(ref + quoted(p.dir / "cut.mkv"), {"cut.mkv", "truncated"}, out);

    // Damaged mid-stream (FFV1 slice CRCs): the message names the frame.
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.dist) + " -c:v ffv1 -level 3 -slicecrc 1 " +
                       quoted(p.dir / "crc.mkv")));
    std::string damaged = test::read_file(p.dir / "crc.mkv");
    for (std::size_t i = damaged.size() / 2; i < damaged.size() / 2 + 32; ++i)
        damaged[i] = char(~damaged[i]);
    std::ofstream(p.dir / "damaged.mkv", std::ios::binary) << damaged;
    expect_failure(ref + quoted(p.dir / "damaged.mkv"), {"damaged.mkv", "frame "}, out);

    // The size changes mid-stream.
    ASSERT_TRUE(
        ffmpeg("-i " + quoted(p.dist) + " -frames:v 4 -c:v mpeg2video " + quoted(p.dir / "a.m2v")));
    ASSERT_TRUE(ffmpeg("-i " + quoted(p.dist) + " -frames:v 4 -vf scale=32:24 -c:v mpeg2video " +
                       quoted(p.dir / "b.m2v")));
    std::ofstream(p.dir / "resize.m2v", std::ios::binary)
        << test::read_file(p.dir / "a.m2v") << test::read_file(p.dir / "b.m2v");
    expect_failure(ref + quoted(p.dir / "resize.m2v"), {"resize.m2v", "frame ", "32x24"}, out);
}

#if !VQ_WITH_FFMPEG
TEST(FfmpegCli, WithoutFfmpegOtherFilesAreRefusedClearly) {
    const fs::path dir = test::scratch_dir("ffmpeg_cli_absent");
    std::ofstream(dir / "clip.mp4") << "not a y4m";
    const auto result = test::run_vq("-r " + quoted(dir / "clip.mp4") + " -d " +
                                     quoted(dir / "clip.mp4") + " --feature psnr");
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_NE(result.output.find("without FFmpeg"), std::string::npos) << result.output;
}
#endif

}  // namespace
}  // namespace vq
