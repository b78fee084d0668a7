// --pool (percentiles) and --shots (per-shot pooling): the arithmetic against hand-computed
// values, the parsers' one-line errors, every output format, and the command line.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io_test_support.hpp"
#include "report/pooling.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"
#include "vq/report.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;

double percentile_of(std::vector<double> values, double rank) { return percentile(values, rank); }

// numpy.percentile(values, rank) by hand: h = (n-1)·rank/100, between v[floor h] and the next.
TEST(ExtraPooling, PercentileInterpolatesLinearlyBetweenClosestRanks) {
    EXPECT_EQ(percentile_of({1, 2, 3, 4}, 50), 2.5);   // h = 1.5
    EXPECT_EQ(percentile_of({1, 2, 3, 4}, 25), 1.75);  // h = 0.75
    EXPECT_EQ(percentile_of({4, 3, 2, 1}, 0), 1.0);    // unsorted input
    EXPECT_EQ(percentile_of({4, 3, 2, 1}, 100), 4.0);
    EXPECT_EQ(percentile_of({40, 10, 20}, 10), 12.0);  // h = 0.2: 10 + 10·0.2
    EXPECT_EQ(percentile_of({40, 10, 20}, 90), 36.0);  // h = 1.8: 40 - 20·0.2
    EXPECT_EQ(percentile_of({7}, 1), 7.0);
    std::vector<double> ramp;
    for (int i = 0; i <= 100; ++i) ramp.push_back(i);
    EXPECT_EQ(percentile_of(ramp, 1), 1.0);
    EXPECT_EQ(percentile_of(ramp, 99.5), 99.5);
    EXPECT_TRUE(std::isnan(percentile_of({1, std::nan(""), 3}, 50)));
}

TEST(ExtraPooling, PoolListParses) {
    const auto list = parse_pool_list("p1,p5,p50,p99.9,p0,p100");
    ASSERT_EQ(list.size(), 6u);
    EXPECT_EQ(list[0].name, "p1");
    EXPECT_EQ(list[3].rank, 99.9);
    EXPECT_EQ(list[5].rank, 100.0);
}

TEST(ExtraPooling, BadPoolListsAreOneLineUsageErrors) {
    for (const char* bad : {"p101", "x", "", "p", "p1,,p5", "p-1", "p1e1", "P5", "p5,", "p.5",
                            "p5.", "p1,p1", "mean", "pnan"}) {
        const std::string message = test::error_of([&] { parse_pool_list(bad); }, ErrorKind::usage);
        EXPECT_NE(message.find("--pool"), std::string::npos) << bad;
        EXPECT_EQ(message.find('\n'), std::string::npos) << bad;
    }
}

TEST(ExtraPooling, ShotListSkipsBlankAndCommentLines) {
    const ShotList list = parse_shot_list("# scene cuts\n0\n\n  12 \r\n40\n", "s.txt");
    EXPECT_EQ(list.starts, (std::vector<std::size_t>{0, 12, 40}));
    EXPECT_EQ(list.lines, (std::vector<std::size_t>{2, 4, 5}));
}

TEST(ExtraPooling, BadShotListsNameTheLine) {
    const auto message_of = [](const char* text) {
        return test::error_of([&] { parse_shot_list(text, "s.txt"); }, ErrorKind::usage);
    };
    EXPECT_EQ(message_of(""), "--shots s.txt: no frame numbers (one shot start per line)");
    EXPECT_EQ(message_of("# only a comment\n\n"),
              "--shots s.txt: no frame numbers (one shot start per line)");
    EXPECT_EQ(message_of("0\n20\n10\n"),
              "--shots s.txt line 3: frame 10 does not follow frame 20 (shot starts must be "
              "sorted and distinct)");
    EXPECT_EQ(message_of("0\n5\n5\n"),
              "--shots s.txt line 3: frame 5 does not follow frame 5 (shot starts must be sorted "
              "and distinct)");
    EXPECT_EQ(message_of("0\nten\n"), "--shots s.txt line 2: expected a frame number, got 'ten'");
    EXPECT_EQ(message_of("-3\n"), "--shots s.txt line 1: expected a frame number, got '-3'");
    EXPECT_EQ(message_of("1 2\n"), "--shots s.txt line 1: expected a frame number, got '1 2'");
    EXPECT_EQ(message_of("99999999999999999999999\n"),
              "--shots s.txt line 1: expected a frame number, got '99999999999999999999999'");
}

ScoreTable ramp_table(std::size_t frames) {
    ScoreTable table;
    const auto a = table.add_column("a");
    const auto b = table.add_column("b");
    for (std::size_t f = 0; f < frames; ++f) {
        table.set(a, f, double(f));
        table.set(b, f, 100.0 - double(f));
    }
    table.set_frame_count(frames);
    return table;
}

PoolingRequest request(const char* pool, const char* shots) {
    PoolingRequest r;
    if (pool) r.percentiles = parse_pool_list(pool);
    if (shots) r.shots = parse_shot_list(shots, "s.txt");
    return r;
}

double value_of(const PoolSet& set, const std::string& method) {
    for (const PooledValue& v : set)
        if (v.method == method) return v.value;
    ADD_FAILURE() << "no " << method;
    return std::nan("");
}

TEST(ExtraPooling, ShotsPoolTheirOwnFramesAndStartAtZero) {
    const ScoreTable table = ramp_table(10);
    const ExtraPooling extra = pool_extra(table, request("p50", "4\n7\n"));
    ASSERT_EQ(extra.shots.size(), 3u);  // 0-3 added, 4-6, 7-9
    EXPECT_EQ(extra.shots[0].first, 0u);
    EXPECT_EQ(extra.shots[0].last, 3u);
    EXPECT_EQ(extra.shots[2].first, 7u);
    EXPECT_EQ(extra.shots[2].last, 9u);
    EXPECT_EQ(value_of(extra.shots[1].columns[0], "mean"), 5.0);
    EXPECT_EQ(value_of(extra.shots[1].columns[0], "min"), 4.0);
    EXPECT_EQ(value_of(extra.shots[1].columns[1], "max"), 96.0);
    EXPECT_EQ(value_of(extra.shots[0].columns[0], "p50"), 1.5);
    EXPECT_EQ(value_of(extra.percentiles[0], "p50"), 4.5);
}

TEST(ExtraPooling, SubsampledShotsPoolOnlySelectedFrames) {
    ScoreTable table = ramp_table(10);
    table.set_subsample(3);  // frames 0, 3, 6, 9
    const ExtraPooling extra = pool_extra(table, request("p50", "0\n4\n5\n"));
    EXPECT_EQ(value_of(extra.shots[0].columns[0], "mean"), 1.5);  // 0, 3
    EXPECT_TRUE(extra.shots[1].columns[0].empty());               // frame 4 alone: none selected
    EXPECT_EQ(value_of(extra.shots[2].columns[0], "p50"), 7.5);   // 6, 9
}

TEST(ExtraPooling, ShotPastTheRunIsAnErrorNamingItsLine) {
    const ScoreTable table = ramp_table(10);
    EXPECT_EQ(
        test::error_of([&] { pool_extra(table, request(nullptr, "0\n\n10\n")); }, ErrorKind::usage),
        "--shots s.txt line 3: frame 10 is past the last frame scored (9)");
}

// Found by fuzz_report_names: a table with no frame made every start "past the last frame
// scored (18446744073709551615)".
TEST(ExtraPooling, TableWithoutFramesHasNoShots) {
    ScoreTable table;
    table.add_column("x");
    const ExtraPooling extra = pool_extra(table, request("p50", "0\n"));
    EXPECT_TRUE(extra.shots.empty());
}

std::string written(const ScoreTable& table, OutputFormat format, const ExtraPooling& extra) {
    std::ostringstream out;
    write_report(out, table, format, NumberStyle::significant(6), {"test", extra});
    return out.str();
}

TEST(ExtraPooling, EveryFormatCarriesPercentilesAndShots) {
    const ScoreTable table = ramp_table(10);
    const ExtraPooling extra = pool_extra(table, request("p5,p50", "0\n4\n"));

    const auto json = nlohmann::json::parse(written(table, OutputFormat::json, extra));
    EXPECT_EQ(json["pooled_metrics"]["a"]["p50"], 4.5);
    EXPECT_EQ(json["pooled_metrics"]["a"]["mean"], 4.5);
    ASSERT_EQ(json["shots"].size(), 2u);
    EXPECT_EQ(json["shots"][1]["first"], 4);
    EXPECT_EQ(json["shots"][1]["last"], 9);
    EXPECT_EQ(json["shots"][1]["pooled_metrics"]["b"]["min"], 91);

    const std::string xml = written(table, OutputFormat::xml, extra);
    EXPECT_NE(xml.find(R"(<metric name="a" min="0" max="9" mean="4.5" harmonic_mean=)"),
              std::string::npos);
    EXPECT_NE(xml.find(R"(p5="0.45" p50="4.5" />)"), std::string::npos);
    EXPECT_NE(xml.find(R"(<shot first="4" last="9">)"), std::string::npos);

    const std::string csv = written(table, OutputFormat::csv, extra);
    EXPECT_NE(csv.find("\npooled:p50,4.5,95.5,\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nshot 4-9:min,4,91,\n"), std::string::npos) << csv;

    const std::string sub = written(table, OutputFormat::sub, extra);
    EXPECT_NE(sub.find("\n{0}{10}pooled|a min: 0|a max: 9|a mean: 4.5|"), std::string::npos);
    EXPECT_NE(sub.find("\n{4}{10}shot 4-9|a min: 4|"), std::string::npos) << sub;
}

// An empty request writes exactly what a run without the flags writes (the golden tests pin that
// text to libvmaf's).
TEST(ExtraPooling, NoRequestLeavesEveryFormatUnchanged) {
    const ScoreTable table = ramp_table(5);
    for (const OutputFormat format :
         {OutputFormat::json, OutputFormat::xml, OutputFormat::csv, OutputFormat::sub}) {
        std::ostringstream plain;
        write_report(plain, table, format, NumberStyle::significant(6), {"test", {}});
        EXPECT_EQ(written(table, format, pool_extra(table, {})), plain.str());
    }
}

struct Clip {
    fs::path dir, ref, dist;
};

Clip make_clip(const std::string& name) {
    constexpr VideoFormat format{64, 48, 8, ChromaFormat::yuv420};
    const std::string header = "YUV4MPEG2 W64 H48 F25:1 Ip C420";
    Clip clip{test::scratch_dir(name), {}, {}};
    clip.ref = test::write_file(clip.dir / "ref.y4m", test::y4m_file(header, format, 6));
    clip.dist = test::write_file(clip.dir / "dist.y4m", test::y4m_file(header, format, 6));
    return clip;
}

std::string inputs(const Clip& clip) {
    return "-r \"" + clip.ref.string() + "\" -d \"" + clip.dist.string() + "\" --feature psnr";
}

TEST(ExtraPoolingCli, BadValuesFailWithOneLine) {
    const Clip clip = make_clip("extra_pooling_cli_bad");
    const std::string run = inputs(clip) + " -q ";
    test::expect_one_line_error(test::run_vq(run + "--pool p101"), 2, {"--pool", "'p101'"});
    test::expect_one_line_error(test::run_vq(run + "--pool x"), 2, {"--pool", "'x'"});
    const fs::path empty = test::write_file(clip.dir / "empty.txt", "");
    test::expect_one_line_error(test::run_vq(run + "--shots \"" + empty.string() + "\""), 2,
                                {"--shots", "no frame numbers"});
    const fs::path unsorted = test::write_file(clip.dir / "unsorted.txt", "0\n3\n2\n");
    test::expect_one_line_error(test::run_vq(run + "--shots \"" + unsorted.string() + "\""), 2,
                                {"--shots", "line 3", "does not follow"});
    const fs::path beyond = test::write_file(clip.dir / "beyond.txt", "0\n6\n");
    const fs::path out = clip.dir / "out.json";
    test::expect_one_line_error(
        test::run_vq(run + "--shots \"" + beyond.string() + "\" -o \"" + out.string() + "\""), 2,
        {"--shots", "line 2", "past the last frame scored (5)"});
    EXPECT_FALSE(fs::exists(out)) << "no output after a failed pooling";
    test::expect_one_line_error(
        test::run_vq(run + "--shots \"" + (clip.dir / "missing.txt").string() + "\""), 2,
        {"--shots", "cannot read"});
}

TEST(ExtraPoolingCli, SummaryShowsPercentilesAndShots) {
    const Clip clip = make_clip("extra_pooling_cli_summary");
    const fs::path shots = test::write_file(clip.dir / "shots.txt", "0\n3\n");
    const auto result =
        test::run_vq(inputs(clip) + " --pool p5,p50 --shots \"" + shots.string() + "\"");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("mean          min          max           p5          p50"),
              std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("shot (psnr_y)"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("\n3-5 "), std::string::npos) << result.output;
}

}  // namespace
}  // namespace vq
