// The psnr_hvs feature end to end: every golden bit for bit, per frame and pooled, through a
// session at one thread and at the default thread count, and once through the CLI; and the
// formats it refuses (spec/psnr_hvs.md §10), each with a one-line error naming the limit.
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden_cases.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

const std::vector<std::string> outputs = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

ScoreTable score(const std::vector<FramePair>& frames, unsigned threads) {
    Session session({.threads = threads});
    session.add_feature("psnr_hvs");
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

class PsnrHvsGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(PsnrHvsGolden, EveryFrameAndPooledBitExact) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    const auto frames = fixture_frames(fixtures, c.fixture);
    for (const unsigned threads : {1u, 0u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        const ScoreTable table = score(frames, threads);
        for (std::size_t k = 0; k < outputs.size(); ++k) EXPECT_EQ(table.name(k), outputs[k]);
        expect_golden_outputs(table, c, outputs);
        expect_golden_pooled(table, c, outputs);
    }
}

INSTANTIATE_TEST_SUITE_P(PsnrHvs, PsnrHvsGolden, testing::ValuesIn(psnr_hvs_golden_cases()),
                         golden_case_name);

// The CLI on the 4:2:2 golden's own input form: raw planar YUV (the y4m without its headers,
// INDEX.md), every key in the reference's order, every value and pooled value to the last bit.
TEST(PsnrHvsCli, RawYuvGoldenThroughTheCommandLine) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const std::string fixture = "testsrc_352x288_8b_422";
    const auto dir = scratch_dir("psnr_hvs_cli");
    const std::size_t frame_bytes = 352 * 288 * 2;
    for (const char* name : {"ref", "dist"}) {
        const std::string y4m = read_file(fixtures / fixture / (std::string(name) + ".y4m"));
        std::ofstream raw(dir / (std::string(name) + ".yuv"), std::ios::binary);
        for (std::size_t at = y4m.find('\n') + 1; at < y4m.size(); at += frame_bytes) {
            at = y4m.find('\n', at) + 1;  // past "FRAME\n"
            raw.write(y4m.data() + at, std::streamsize(frame_bytes));
        }
    }
    const auto out = dir / "out.json";
    const auto result =
        run_vq("-r \"" + (dir / "ref.yuv").string() + "\" -d \"" + (dir / "dist.yuv").string() +
               "\" -w 352 -h 288 -p 422 -b 8 --no_prediction --feature psnr_hvs "
               "--threads 1 --json --precision max -q -o \"" +
               out.string() + "\"");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const auto ours = nlohmann::json::parse(read_file(out));
    const auto golden = read_golden({fixture + "__psnr_hvs.json", fixture, "psnr_hvs"});
    ASSERT_EQ(ours["frames"].size(), golden["frames"].size());
    for (std::size_t f = 0; f < golden["frames"].size(); ++f) {
        const auto& want = golden["frames"][f]["metrics"];
        const auto& got = ours["frames"][f]["metrics"];
        ASSERT_EQ(got.size(), want.size()) << "frame " << f;
        for (auto w = want.begin(), g = got.begin(); w != want.end(); ++w, ++g) {
            EXPECT_EQ(g.key(), w.key()) << "frame " << f;
            EXPECT_EQ(g->get<double>(), w->get<double>()) << "frame " << f << " " << w.key();
        }
    }
    EXPECT_EQ(ours["pooled_metrics"], golden["pooled_metrics"]);
}

// --- Refused formats -----------------------------------------------------------------------

std::string start_error(const VideoFormat& format) {
    Session session({.threads = 1});
    session.add_feature("psnr_hvs");
    try {
        session.start(format);
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::usage);
        return error.what();
    }
    ADD_FAILURE() << format << " was accepted";
    return "";
}

TEST(PsnrHvsErrors, PlanesSmallerThanOneBlock) {
    EXPECT_EQ(start_error({7, 64, 8, ChromaFormat::yuv444}),
              "psnr_hvs: the Y plane of 7x64 8-bit 4:4:4 is 7x64; every plane needs at least 8x8 "
              "samples");
    EXPECT_EQ(start_error({64, 15, 10, ChromaFormat::yuv420}),
              "psnr_hvs: the Cb plane of 64x15 10-bit 4:2:0 is 32x7; every plane needs at least "
              "8x8 samples");
    EXPECT_EQ(start_error({15, 8, 8, ChromaFormat::yuv422}),
              "psnr_hvs: the Cb plane of 15x8 8-bit 4:2:2 is 7x8; every plane needs at least 8x8 "
              "samples");
}

TEST(PsnrHvsErrors, MonochromeHasNoChroma) {
    EXPECT_EQ(start_error({64, 64, 8, ChromaFormat::yuv400}),
              "psnr_hvs: 4:0:0 video has no chroma planes; psnr_hvs needs Y, Cb and Cr");
}

TEST(PsnrHvsErrors, DeeperThanTwelveBits) {
    for (const int depth : {13, 16})
        EXPECT_EQ(
            start_error({64, 64, depth, ChromaFormat::yuv420}),
            "psnr_hvs: bit depth " + std::to_string(depth) + " is not supported (at most 12)");
}

TEST(PsnrHvsErrors, OptionsAreRefused) {
    Session session({.threads = 1});
    EXPECT_THROW(session.add_feature("psnr_hvs=enable_chroma=false"), Error);
}

// The smallest accepted 4:2:0 picture (16x16: chroma 8x8) scores; at 16x14 the CLI fails with
// the one-line message and the usage status.
TEST(PsnrHvsCli, TooSmallInputFailsWithOneLine) {
    const auto dir = scratch_dir("psnr_hvs_small");
    const auto write = [&](const std::string& name, int width, int height) {
        std::ofstream out(dir / name, std::ios::binary);
        out << "YUV4MPEG2 W" << width << " H" << height << " F25:1 Ip A1:1 C420jpeg\nFRAME\n"
            << std::string(std::size_t(width * height * 3 / 2), '\x40');
        return (dir / name).string();
    };
    const auto run = [&](int width, int height) {
        const std::string file = write("clip" + std::to_string(height) + ".y4m", width, height);
        return run_vq("-r \"" + file + "\" -d \"" + file + "\" --feature psnr_hvs --json -q -o \"" +
                      (dir / "out.json").string() + "\"");
    };
    // Identical pictures score +inf on every output, which JSON writes as null (spec §10).
    ASSERT_EQ(run(16, 16).exit_code, 0);
    const auto identical = nlohmann::json::parse(read_file(dir / "out.json"));
    for (const std::string& output : outputs)
        EXPECT_TRUE(identical["frames"][0]["metrics"][output].is_null()) << output;
    const auto small = run(16, 14);
    EXPECT_EQ(small.exit_code, 2);
    EXPECT_NE(small.output.find("every plane needs at least 8x8 samples"), std::string::npos)
        << small.output;
    EXPECT_EQ(std::count(small.output.begin(), small.output.end(), '\n'), 1) << small.output;
}

}  // namespace
}  // namespace vq::test
