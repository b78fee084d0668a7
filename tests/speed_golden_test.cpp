// SpEED against the reference's goldens (shared/golden/INDEX.md): every frame and every pooled
// value of speed_chroma (defaults on every clip, each prescale method, kernel scale, weighting
// mode and the v1.0.16 options) and of speed_temporal, at one thread and at the default thread
// count, and once through the vq command line.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden_cases.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

// odd_641x359's golden came from raw input holding only the top-left 320x179 of each chroma plane
// (INDEX.md). An even-sized 640x358 picture holds exactly those chroma planes; SpEED reads no
// luma, so it sees what the reference saw.
Picture floor_chroma(const Picture& odd) {
    const VideoFormat& f = odd.format();
    Picture even = Picture::allocate({f.width / 2 * 2, f.height / 2 * 2, f.bit_depth, f.chroma});
    for (int p = 0; p < 3; ++p) {
        const auto source = odd.plane<std::uint8_t>(p);
        std::uint8_t* out = even.plane_data<std::uint8_t>(p);
        const int w = even.format().plane_width(p), h = even.format().plane_height(p);
        for (int y = 0; y < h; ++y) std::memcpy(out + std::ptrdiff_t(y) * w, source.row(y), w);
    }
    return even;
}

std::vector<FramePair> golden_frames(const std::filesystem::path& fixtures, const GoldenCase& c) {
    std::vector<FramePair> frames = fixture_frames(fixtures, c.fixture);
    if (c.fixture.starts_with("odd_"))
        for (FramePair& pair : frames)
            pair = {floor_chroma(pair.reference), floor_chroma(pair.distorted), pair.index};
    return frames;
}

ScoreTable score(const GoldenCase& c, const std::vector<FramePair>& frames, unsigned threads) {
    Session session({.threads = threads});
    session.add_feature(c.request);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

void expect_golden_pooling(const ScoreTable& table, const GoldenCase& c,
                           const std::vector<std::string>& outputs) {
    const nlohmann::json golden = read_golden(c);
    for (const std::string& output : outputs) {
        const std::string name = output + c.suffix;
        const auto column = table.find(name);
        ASSERT_TRUE(column) << name;
        for (const PoolingMethod method : all_pooling_methods) {
            const auto& expected = golden["pooled_metrics"][name][to_string(method)];
            if (!expected.is_number()) continue;
            EXPECT_EQ(table.pooled(*column, method).value_or(-1), expected.get<double>())
                << c.golden << " pooled " << name << " " << to_string(method);
        }
    }
}

class SpeedGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(SpeedGolden, EveryFrameAndPoolingBitExactAtOneAndAllThreads) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    const std::vector<FramePair> frames = golden_frames(fixtures, c);
    for (const unsigned threads : {1u, 0u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        const ScoreTable table = score(c, frames, threads);
        expect_golden_outputs(table, c, speed_outputs(c));
        expect_golden_pooling(table, c, speed_outputs(c));
    }
}

INSTANTIATE_TEST_SUITE_P(Speed, SpeedGolden, ::testing::ValuesIn(speed_golden_cases()),
                         golden_case_name);

// The command line end to end: the JSON file's frames and pooled values, key for key.
TEST(SpeedGoldenCli, V1OptionsOnMandel) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const std::string clip = "mandel_576x324_8b_420";
    const std::filesystem::path out = scratch_dir("speed_cli") / "out.json";
    const CommandResult run = run_vq(
        "-r \"" + (fixtures / clip / "ref.y4m").string() + "\" -d \"" +
        (fixtures / clip / "dist.y4m").string() +
        "\" --no_prediction --threads 1 --feature speed_chroma=speed_nn_floor=0.1:speed_sigma_nn="
        "0.19:speed_weight_var_mode=5:speed_max_val=2 --json --precision max -q -o \"" +
        out.string() + "\"");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto ours = nlohmann::json::parse(read_file(out));
    const auto golden = read_golden({clip + "__speed_chroma_v1opts.json", clip, ""});
    ASSERT_EQ(ours["frames"].size(), golden["frames"].size());
    for (const char* plane : {"u", "v", "uv"}) {
        const std::string key =
            std::string("speed_chroma_") + plane + "_mxv_2_nnf_0.1_snn_0.19_wvm_5";
        for (std::size_t f = 0; f < golden["frames"].size(); ++f)
            EXPECT_EQ(ours["frames"][f]["metrics"][key].get<double>(),
                      golden["frames"][f]["metrics"][key].get<double>())
                << key << " frame " << f;
        for (const char* method : {"min", "max", "mean", "harmonic_mean"})
            EXPECT_EQ(ours["pooled_metrics"][key][method].get<double>(),
                      golden["pooled_metrics"][key][method].get<double>())
                << key << " " << method;
    }
}

}  // namespace
}  // namespace vq::test
