// The command line: flags, outputs and every bad input named in the engine issue. Each bad input
// must give a one-line error naming the culprit, a non-zero status (2 usage, 1 run time) and no
// output file.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;

// Writes a small 8-bit Y4M clip; `chop` bytes are removed from the end (a truncated last frame).
fs::path write_y4m(const fs::path& path, int w, int h, const std::string& tag, int frames,
                   int chop = 0, int seed = 0) {
    const bool has_chroma = tag != "mono";
    const int cw = tag == "444" ? w : (w + 1) / 2;
    const int ch = tag == "420" ? (h + 1) / 2 : h;
    std::string data = fmt::format("YUV4MPEG2 W{} H{} F25:1 Ip C{}\n", w, h, tag);
    for (int f = 0; f < frames; ++f) {
        data += "FRAME\n";
        const int samples = w * h + (has_chroma ? 2 * cw * ch : 0);
        for (int i = 0; i < samples; ++i) data += char((i * 7 + f * 13 + seed * (i % 5)) & 0xFF);
    }
    data.resize(data.size() - chop);
    std::ofstream(path, std::ios::binary) << data;
    return path;
}

struct Clip {
    fs::path dir, ref, dist;
};

Clip make_clip(const std::string& test, int w = 64, int h = 48, const std::string& tag = "420") {
    Clip clip{test::scratch_dir(test), {}, {}};
    clip.ref = write_y4m(clip.dir / "ref.y4m", w, h, tag, 3);
    clip.dist = write_y4m(clip.dir / "dist.y4m", w, h, tag, 3, 0, 1);
    return clip;
}

std::string q(const fs::path& p) { return fmt::format("\"{}\"", p.string()); }

void expect_failure(const std::string& args, int status, const std::string& names,
                    const fs::path& output = {}) {
    const auto result = test::run_vq(args);
    EXPECT_EQ(result.exit_code, status) << args << "\n" << result.output;
    EXPECT_NE(result.output.find(names), std::string::npos)
        << "message should name '" << names << "': " << result.output;
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1)
        << "one line: " << result.output;
    if (!output.empty()) {
        EXPECT_FALSE(fs::exists(output)) << "an output file was left behind by a failed run";
    }
}

TEST(Cli, ScoresAClipAndWritesEveryFormat) {
    const Clip clip = make_clip("cli_formats");
    for (const char* format : {"json", "xml", "csv", "sub"}) {
        const auto out = clip.dir / (std::string("out.") + format);
        const auto result = test::run_vq("-r " + q(clip.ref) + " -d " + q(clip.dist) +
                                         " --feature psnr --" + format + " -o " + q(out));
        EXPECT_EQ(result.exit_code, 0) << result.output;
        EXPECT_TRUE(fs::exists(out)) << format;
    }
    const auto json = nlohmann::json::parse(test::read_file(clip.dir / "out.json"));
    EXPECT_EQ(json["frames"].size(), 3u);
    EXPECT_EQ(json["backend_used"], "cpu");
    EXPECT_EQ(json["feature_backends"]["psnr"], "cpu");
}

TEST(Cli, FrameLoopOptions) {
    const Clip clip = make_clip("cli_loop");
    const auto out = clip.dir / "out.json";
    const auto base =
        "-r " + q(clip.ref) + " -d " + q(clip.dist) + " --feature psnr --json -o " + q(out);
    ASSERT_EQ(test::run_vq(base + " --frame_cnt 2").exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(test::read_file(out))["frames"].size(), 2u);
    ASSERT_EQ(test::run_vq(base + " --frame_skip_ref 1 --frame_skip_dist 1").exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(test::read_file(out))["frames"].size(), 2u);
    ASSERT_EQ(test::run_vq(base + " --subsample 2").exit_code, 0);
    const auto subsampled = nlohmann::json::parse(test::read_file(out));
    ASSERT_EQ(subsampled["frames"].size(), 2u);
    EXPECT_EQ(subsampled["frames"][1]["frameNum"], 2);
}

TEST(Cli, ScoresDoNotDependOnThreadCount) {
    const Clip clip = make_clip("cli_threads");
    std::string texts[2];
    for (int t = 1; t <= 2; ++t) {
        const auto out = clip.dir / ("t" + std::to_string(t) + ".csv");
        ASSERT_EQ(test::run_vq("-r " + q(clip.ref) + " -d " + q(clip.dist) +
                               " --feature psnr --csv --precision max --threads " +
                               std::to_string(t) + " -o " + q(out))
                      .exit_code,
                  0);
        texts[t - 1] = test::read_file(out);
    }
    EXPECT_EQ(texts[0], texts[1]);
}

TEST(Cli, ShorterInputScoresTheCommonFrames) {
    const Clip clip = make_clip("cli_shorter");
    write_y4m(clip.dist, 64, 48, "420", 2);
    const auto out = clip.dir / "out.json";
    const auto result = test::run_vq("-r " + q(clip.ref) + " -d " + q(clip.dist) +
                                     " --feature psnr --json -o " + q(out));
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.output.find("ended before"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(test::read_file(out))["frames"].size(), 2u);
}

TEST(CliBadInput, MissingUnreadableAndEmptyFiles) {
    const Clip clip = make_clip("cli_missing");
    const auto out = clip.dir / "out.json";
    expect_failure(
        "-r " + q(clip.ref) + " -d " + q(clip.dir / "nope.y4m") + " --feature psnr -o " + q(out), 1,
        "nope.y4m", out);
    expect_failure("-r " + q(clip.dir) + " -d " + q(clip.dist) + " --feature psnr -o " + q(out), 1,
                   clip.dir.string(), out);
    std::ofstream(clip.dir / "empty.y4m").close();
    expect_failure(
        "-r " + q(clip.ref) + " -d " + q(clip.dir / "empty.y4m") + " --feature psnr -o " + q(out),
        1, "empty.y4m", out);
}

TEST(CliBadInput, TruncatedReferenceOrDistorted) {
    const Clip clip = make_clip("cli_truncated");
    const auto out = clip.dir / "out.json";
    const auto cut = write_y4m(clip.dir / "cut.y4m", 64, 48, "420", 3, 100);
    expect_failure("-r " + q(cut) + " -d " + q(clip.dist) + " --feature psnr -o " + q(out), 1,
                   "cut.y4m", out);
    expect_failure("-r " + q(clip.ref) + " -d " + q(cut) + " --feature psnr -o " + q(out), 1,
                   "cut.y4m", out);
}

TEST(CliBadInput, BadMagicAndHeader) {
    const Clip clip = make_clip("cli_header");
    const auto out = clip.dir / "out.json";
    std::ofstream(clip.dir / "magic.y4m") << "RIFF W64 H48 F25:1\nFRAME\n";
    expect_failure(
        "-r " + q(clip.ref) + " -d " + q(clip.dir / "magic.y4m") + " --feature psnr -o " + q(out),
        1, "magic.y4m", out);
    std::ofstream(clip.dir / "header.y4m") << "YUV4MPEG2 W64 F25:1\nFRAME\n";
    expect_failure(
        "-r " + q(clip.ref) + " -d " + q(clip.dir / "header.y4m") + " --feature psnr -o " + q(out),
        1, "header.y4m", out);
    std::ofstream(clip.dir / "huge.y4m") << "YUV4MPEG2 W999999999 H999999999 F25:1\nFRAME\n";
    expect_failure(
        "-r " + q(clip.ref) + " -d " + q(clip.dir / "huge.y4m") + " --feature psnr -o " + q(out), 1,
        "huge.y4m", out);
}

TEST(CliBadInput, MismatchedInputs) {
    const Clip clip = make_clip("cli_mismatch");
    const auto out = clip.dir / "out.json";
    const auto small = write_y4m(clip.dir / "small.y4m", 32, 48, "420", 3);
    expect_failure("-r " + q(clip.ref) + " -d " + q(small) + " --feature psnr -o " + q(out), 1,
                   "sizes differ", out);
    const auto chroma = write_y4m(clip.dir / "c444.y4m", 64, 48, "444", 3);
    expect_failure("-r " + q(clip.ref) + " -d " + q(chroma) + " --feature psnr -o " + q(out), 1,
                   "chroma formats differ", out);
    std::ofstream(clip.dir / "deep.y4m") << "YUV4MPEG2 W64 H48 F25:1 C420p10\n";
    expect_failure(
        "-r " + q(clip.ref) + " -d " + q(clip.dir / "deep.y4m") + " --feature psnr -o " + q(out), 1,
        "bit depths differ", out);
}

TEST(CliBadInput, RawYuvFlags) {
    const Clip clip = make_clip("cli_raw");
    expect_failure("-r a.yuv -d b.yuv -w 64 --feature psnr", 2, "-h/--height");
    expect_failure("-r a.yuv -d b.yuv -w 64 -h 48 -p 411 -b 8 --feature psnr", 2, "411");
    expect_failure("-r a.yuv -d b.yuv -w 64 -h 48 -p 420 -b 7 --feature psnr", 2, "7");
}

TEST(CliBadInput, UnwritableOutput) {
    const Clip clip = make_clip("cli_unwritable");
    const auto out = clip.dir / "nonexistent-dir" / "out.json";
    expect_failure("-r " + q(clip.ref) + " -d " + q(clip.dist) + " --feature psnr -o " + q(out), 2,
                   out.string());
}

// The reference keeps the first of two registrations whose outputs collide, silently; vq says so.
TEST(CliBadInput, CollidingOutputsAreAUsageError) {
    const Clip clip = make_clip("cli_colliding");
    expect_failure("-r " + q(clip.ref) + " -d " + q(clip.dist) +
                       " --feature psnr --feature psnr=enable_mse=true",
                   2, "'psnr_y' a second time");
}

// As the reference does: the whole frames are scored, and a warning names the file and what is
// left over.
TEST(Cli, RawYuvWithTrailingBytesScoresTheWholeFrames) {
    const Clip clip = make_clip("cli_raw_trailing");
    const std::string frame(64 * 48 * 3 / 2, 'x');
    std::ofstream(clip.dir / "ref.yuv", std::ios::binary) << frame << frame << frame;
    std::ofstream(clip.dir / "dist.yuv", std::ios::binary)
        << frame << frame << frame.substr(0, 100);
    const auto out = clip.dir / "out.json";
    const auto result =
        test::run_vq("-r " + q(clip.dir / "ref.yuv") + " -d " + q(clip.dir / "dist.yuv") +
                     " -w 64 -h 48 -p 420 -b 8 --feature psnr --json -o " + q(out));
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("warning: '" + (clip.dir / "dist.yuv").string() +
                                 "' ends with 100 bytes"),
              std::string::npos)
        << result.output;
    EXPECT_EQ(nlohmann::json::parse(test::read_file(out))["frames"].size(), 2u);
}

TEST(CliBadInput, UnknownFlagsAndBadNumbers) {
    const Clip clip = make_clip("cli_flags");
    const std::string io = "-r " + q(clip.ref) + " -d " + q(clip.dist) + " --feature psnr ";
    expect_failure(io + "--bogus", 2, "--bogus");
    expect_failure(io + "--threads abc", 2, "threads");
    expect_failure(io + "--threads 0", 2, "threads");
    expect_failure(io + "--subsample 0", 2, "subsample");
    expect_failure(io + "--frame_cnt x", 2, "frame_cnt");
    expect_failure(io + "--precision 99", 2, "precision");
    expect_failure(io + "--backend tpu", 2, "tpu");
    expect_failure(io + "--decode-sessions 17", 2, "decode-sessions");
    expect_failure(io + "--decode-sessions -1", 2, "decode-sessions");
    expect_failure(io + "--decode-sessions two", 2, "decode-sessions");
    expect_failure("-r a -d b -w 0 -h 48 -p 420 -b 8 --feature psnr", 2, "width");
}

TEST(CliBadInput, UnknownFeaturesAndOptions) {
    const Clip clip = make_clip("cli_features");
    const std::string io = "-r " + q(clip.ref) + " -d " + q(clip.dist) + " ";
    expect_failure(io + "--feature nosuch", 2, "nosuch");
    expect_failure(io + "--feature psnr=nosuch=1", 2, "nosuch");
    expect_failure(io + "--feature psnr=enable_mse=yes", 2, "enable_mse");
    expect_failure(io + "--feature psnr=min_sse=-1", 2, "min_sse");
    expect_failure(io + "--feature psnr=enable_mse", 2, "enable_mse");
    expect_failure(io + "--no_prediction", 2, "--feature");
    expect_failure(io + "-m version=vmaf_v0.6.1 --no_prediction", 2, "--no_prediction");
}

// Model strings and model files are input too: one line naming what is wrong, exit status 2.
TEST(CliBadInput, ModelsAndModelFiles) {
    const Clip clip = make_clip("cli_models");
    const std::string io = "-r " + q(clip.ref) + " -d " + q(clip.dist) + " ";
    expect_failure(io + "-m version=vmaf_v9", 2, "vmaf_v9");
    expect_failure(io + "-m version=vmaf_v0.6.1:nosuch=1", 2, "nosuch");
    expect_failure(io + "-m version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=0.5", 2,
                   "adm_enhn_gain_limit");
    expect_failure(io + "-m path=" + q(clip.ref), 2, clip.ref.filename().string());
    const fs::path model = clip.dir / "broken.json";
    std::ofstream(model) << R"({"model_dict": {}})";
    expect_failure(io + "-m path=" + q(model), 2, "broken.json");
    expect_failure(io + "-m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg", 2, "vmaf");
}

TEST(Cli, ListsFeaturesAndVersion) {
    const auto list = test::run_vq("--list-features");
    EXPECT_EQ(list.exit_code, 0);
    EXPECT_NE(list.output.find("psnr"), std::string::npos);
    EXPECT_NE(list.output.find("enable_apsnr"), std::string::npos);
    EXPECT_EQ(test::run_vq("--version").exit_code, 0);
}

TEST(Cli, CudaBackendWithoutAGpuIsAClearError) {
    if (test::run_vq("--demo --backend auto -q").output.find("cuda") != std::string::npos)
        GTEST_SKIP() << "a CUDA device is present";
    const Clip clip = make_clip("cli_cuda");
    expect_failure("-r " + q(clip.ref) + " -d " + q(clip.dist) + " --feature psnr --backend cuda",
                   2, "cuda");
    expect_failure("-r " + q(clip.ref) + " -d " + q(clip.dist) + " --feature psnr_cuda", 2, "CUDA");
}

// --backend auto without a device runs everything on the CPU and says so once, not as a missing
// CUDA twin of each feature.
TEST(Cli, AutoBackendWithoutAGpuSaysOnceThatEverythingRunsOnTheCpu) {
    const auto result = test::run_vq("--demo --backend auto -q");
    if (result.output.find("cuda") != std::string::npos) GTEST_SKIP() << "a CUDA device is present";
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find(
                  "vq: --backend auto: no usable CUDA device; every feature runs on the CPU\n"),
              std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("CUDA twin"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace vq
