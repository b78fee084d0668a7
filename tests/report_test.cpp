// Output writers and number formatting against spec/cli-and-output.md §11 and the worked
// examples of spec/psnr.md §7, byte for byte; and the JSON writer against every golden file.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/score_table_filler.hpp"
#include "test_support.hpp"
#include "vq/report.hpp"
#include "vq/scores.hpp"

namespace vq {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
const NumberStyle libvmaf_style = NumberStyle::libvmaf_default();

std::string fmt(double value) { return format_number(value, libvmaf_style); }

std::string write(const ScoreTable& table, OutputFormat format,
                  const NumberStyle& style = libvmaf_style, const std::string& version = "3.2.0") {
    std::ostringstream out;
    write_report(out, table, format, style, ReportInfo{version, {}});
    return out.str();
}

// Removes vq's receipt members from a JSON report, leaving what libvmaf would have written.
std::string strip_vq_extension(const std::string& json) {
    const auto start = json.find(",\n  \"backend_used\": ");
    if (start == std::string::npos) return json;
    return json.substr(0, start) + "\n}\n";
}

// The single-frame run of spec/cli-and-output.md §11.3 (`-n --feature ciede --feature
// psnr=enable_mse=true`, the 4x4 frame of spec/psnr.md §7.1).
ScoreTable spec_example_table() {
    ScoreTable table;
    const std::pair<const char*, double> values[] = {
        {"ciede2000", 43.963131}, {"psnr_y", 46.747777},  {"mse_y", 1.375}, {"psnr_cb", 46.369891},
        {"mse_cb", 1.5},          {"psnr_cr", 45.120504}, {"mse_cr", 2.0}};
    for (const auto& [name, value] : values) table.set(table.add_column(name), 0, value);
    table.set_frame_count(1);
    vq::detail::ScoreTableFiller::set_fps(table, 33333.33);
    vq::detail::ScoreTableFiller::set_size(table, 4, 4);
    vq::detail::ScoreTableFiller::set_backend_used(table, "cpu");
    vq::detail::ScoreTableFiller::set_receipts(
        table,
        {FeatureReceipt{.feature = "ciede", .backend = "cpu", .outputs = {"ciede2000"}},
         FeatureReceipt{.feature = "psnr",
                        .backend = "cpu",
                        .outputs = {"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr"}}});
    return table;
}

const char* const spec_example_json =
    "{\n"
    "  \"version\": \"3.2.0\",\n"
    "  \"fps\": 33333.33,\n"
    "  \"frames\": [\n"
    "    {\n"
    "      \"frameNum\": 0,\n"
    "      \"metrics\": {\n"
    "        \"ciede2000\": 43.963131,\n"
    "        \"psnr_y\": 46.747777,\n"
    "        \"mse_y\": 1.375000,\n"
    "        \"psnr_cb\": 46.369891,\n"
    "        \"mse_cb\": 1.500000,\n"
    "        \"psnr_cr\": 45.120504,\n"
    "        \"mse_cr\": 2.000000\n"
    "      }\n"
    "    }\n"
    "  ],\n"
    "  \"pooled_metrics\": {\n"
    "    \"ciede2000\": {\n"
    "      \"min\": 43.963131,\n"
    "      \"max\": 43.963131,\n"
    "      \"mean\": 43.963131,\n"
    "      \"harmonic_mean\": 43.963131\n"
    "    },\n"
    "    \"psnr_y\": {\n"
    "      \"min\": 46.747777,\n"
    "      \"max\": 46.747777,\n"
    "      \"mean\": 46.747777,\n"
    "      \"harmonic_mean\": 46.747777\n"
    "    },\n"
    "    \"mse_y\": {\n"
    "      \"min\": 1.375000,\n"
    "      \"max\": 1.375000,\n"
    "      \"mean\": 1.375000,\n"
    "      \"harmonic_mean\": 1.375000\n"
    "    },\n"
    "    \"psnr_cb\": {\n"
    "      \"min\": 46.369891,\n"
    "      \"max\": 46.369891,\n"
    "      \"mean\": 46.369891,\n"
    "      \"harmonic_mean\": 46.369891\n"
    "    },\n"
    "    \"mse_cb\": {\n"
    "      \"min\": 1.500000,\n"
    "      \"max\": 1.500000,\n"
    "      \"mean\": 1.500000,\n"
    "      \"harmonic_mean\": 1.500000\n"
    "    },\n"
    "    \"psnr_cr\": {\n"
    "      \"min\": 45.120504,\n"
    "      \"max\": 45.120504,\n"
    "      \"mean\": 45.120504,\n"
    "      \"harmonic_mean\": 45.120504\n"
    "    },\n"
    "    \"mse_cr\": {\n"
    "      \"min\": 2.000000,\n"
    "      \"max\": 2.000000,\n"
    "      \"mean\": 2.000000,\n"
    "      \"harmonic_mean\": 2.000000\n"
    "    }\n"
    "  },\n";

const char* const cpu_receipt =
    ",\n"
    "  \"backend_used\": \"cpu\",\n"
    "  \"feature_backends\": {\n"
    "    \"ciede\": \"cpu\",\n"
    "    \"psnr\": \"cpu\"\n"
    "  }\n"
    "}\n";

// ---- number formatting (§11.2) ----

TEST(NumberFormat, SixDecimalsByDefault) {
    EXPECT_EQ(fmt(46.747777), "46.747777");
    EXPECT_EQ(fmt(1.375), "1.375000");
    EXPECT_EQ(fmt(0.0), "0.000000");
    EXPECT_EQ(fmt(100), "100.000000");
    EXPECT_EQ(fmt(0.000001), "0.000001");
}

TEST(NumberFormat, SixteenDecimalsForTinyFractionsWhateverTheIntegerPart) {
    EXPECT_EQ(fmt(0.0000009), "0.0000009000000000");
    EXPECT_EQ(fmt(45.00000001), "45.0000000100000008");
    EXPECT_EQ(fmt(123456.0000001), "123456.0000001000007614");
    EXPECT_EQ(fmt(1e-7), "0.0000001000000000");
    EXPECT_EQ(fmt(2.5e-17), "0.0000000000000000");
    EXPECT_EQ(fmt(5e-324), "0.0000000000000000");  // the loop ends on a subnormal too
}

TEST(NumberFormat, RoundsTiesToEvenOnTheBinaryValue) {
    EXPECT_EQ(fmt(0.0078125), "0.007812");
    EXPECT_EQ(fmt(0.0234375), "0.023438");
    EXPECT_EQ(fmt(2.5), "2.500000");
    EXPECT_EQ(fmt(0.1234565), "0.123456");  // binary value lies below the decimal tie
}

TEST(NumberFormat, Negatives) {
    EXPECT_EQ(fmt(-46.747777), "-46.747777");
    EXPECT_EQ(fmt(-0.0000009), "-0.0000009000000000");
    EXPECT_EQ(fmt(-45.00000001), "-45.0000000100000008");
    EXPECT_EQ(fmt(-0.0), "-0.000000");
}

// At and above 2^31 the reference's int conversion yields INT_MIN: never the 16-decimal form.
TEST(NumberFormat, IntegerPartBeyondIntRangeKeepsSixDecimals) {
    const double below = 2147483647.0 + std::ldexp(1.0, -22);
    const double above = 2147483648.0 + std::ldexp(1.0, -22);
    EXPECT_EQ(fmt(below), "2147483647.0000002384185791");
    EXPECT_EQ(fmt(above), "2147483648.000000");
    EXPECT_EQ(fmt(-above), "-2147483648.000000");
    EXPECT_EQ(fmt(1e20), "100000000000000000000.000000");
}

TEST(NumberFormat, NonFinitePrintLikePrintf) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(fmt(inf), "inf");
    EXPECT_EQ(fmt(-inf), "-inf");
    EXPECT_EQ(fmt(nan), "nan");
    EXPECT_EQ(fmt(-nan), "-nan");
    const auto g17 = NumberStyle::significant(17);
    EXPECT_EQ(format_number(inf, g17), "inf");
    EXPECT_EQ(format_number(-inf, g17), "-inf");
    EXPECT_EQ(format_number(nan, g17), "nan");
    EXPECT_EQ(format_number(-nan, g17), "-nan");
}

TEST(NumberFormat, SignificantDigitsIsPercentG) {
    EXPECT_EQ(format_number(0.1, NumberStyle::significant(17)), "0.10000000000000001");
    EXPECT_EQ(format_number(57.953478984378648, NumberStyle::significant(17)),
              "57.953478984378648");
    EXPECT_EQ(format_number(2.0, NumberStyle::significant(17)), "2");
    EXPECT_EQ(format_number(1234567.0, NumberStyle::significant(6)), "1.23457e+06");
    EXPECT_EQ(format_number(0.00001234, NumberStyle::significant(3)), "1.23e-05");
    EXPECT_EQ(format_number(0.0000009, NumberStyle::significant(6)), "9e-07");
    EXPECT_EQ(format_number(45.00000001, NumberStyle::significant(4)), "45");
}

TEST(NumberFormat, SeventeenSignificantDigitsRoundTrip) {
    std::mt19937_64 rng(20240611);
    std::uniform_int_distribution<std::uint64_t> bits;
    for (int i = 0; i < 100000; ++i) {
        std::uint64_t pattern = bits(rng);
        double value;
        std::memcpy(&value, &pattern, sizeof value);
        if (!std::isfinite(value)) continue;
        const std::string text = format_number(value, NumberStyle::significant(17));
        const double back = std::strtod(text.c_str(), nullptr);
        ASSERT_EQ(std::memcmp(&back, &value, sizeof value), 0) << text;
    }
}

// ---- JSON (§11.3) ----

TEST(ReportJson, SpecCompleteExample) {
    EXPECT_EQ(write(spec_example_table(), OutputFormat::json),
              std::string(spec_example_json) + "  \"aggregate_metrics\": {\n  }" + cpu_receipt);
}

TEST(ReportJson, SpecExampleWithApsnrAggregates) {
    ScoreTable table = spec_example_table();
    table.add_aggregate("apsnr_y", 36.685082);
    table.add_aggregate("apsnr_cb", 36.597658);
    table.add_aggregate("apsnr_cr", 36.669200);
    EXPECT_EQ(write(table, OutputFormat::json), std::string(spec_example_json) +
                                                    "  \"aggregate_metrics\": {\n"
                                                    "    \"apsnr_y\": 36.685082,\n"
                                                    "    \"apsnr_cb\": 36.597658,\n"
                                                    "    \"apsnr_cr\": 36.669200\n"
                                                    "  }" +
                                                    cpu_receipt);
}

TEST(ReportJson, ReceiptIsValidJsonAndComesLast) {
    ScoreTable table = spec_example_table();
    vq::detail::ScoreTableFiller::set_backend_used(table, "cuda+cpu");
    vq::detail::ScoreTableFiller::set_receipts(
        table, {FeatureReceipt{.feature = "cambi", .backend = "cuda", .outputs = {"cambi"}},
                FeatureReceipt{.feature = "ciede", .backend = "cpu", .outputs = {}}});
    const auto parsed = nlohmann::ordered_json::parse(write(table, OutputFormat::json));
    EXPECT_EQ(parsed["backend_used"], "cuda+cpu");
    EXPECT_EQ(parsed["feature_backends"]["cambi"], "cuda");
    EXPECT_EQ(parsed["feature_backends"]["ciede"], "cpu");
    std::vector<std::string> keys;
    for (const auto& item : parsed.items()) keys.push_back(item.key());
    EXPECT_EQ(keys,
              (std::vector<std::string>{"version", "fps", "frames", "pooled_metrics",
                                        "aggregate_metrics", "backend_used", "feature_backends"}));
    EXPECT_EQ(strip_vq_extension(write(spec_example_table(), OutputFormat::json)),
              std::string(spec_example_json) + "  \"aggregate_metrics\": {\n  }\n}\n");
}

// `--feature cambi=window_size=33 --feature cambi=topk=0.2`: one feature, two option sets. JSON
// names must be unique, so each entry is keyed by its outputs' name.
TEST(ReportJson, FeatureBackendsKeysAreUniqueWhenAFeatureRunsTwice) {
    ScoreTable table = spec_example_table();
    vq::detail::ScoreTableFiller::set_receipts(
        table, {FeatureReceipt{.feature = "cambi", .backend = "cpu", .outputs = {"cambi_ws_33"}},
                FeatureReceipt{.feature = "cambi", .backend = "cpu", .outputs = {"cambi_topk_0.2"}},
                FeatureReceipt{.feature = "psnr", .backend = "cpu", .outputs = {"psnr_y"}}});
    const std::string json = write(table, OutputFormat::json);
    const std::string receipt = json.substr(json.find("\"feature_backends\""));
    EXPECT_EQ(receipt,
              "\"feature_backends\": {\n"
              "    \"cambi_ws_33\": \"cpu\",\n"
              "    \"cambi_topk_0.2\": \"cpu\",\n"
              "    \"psnr\": \"cpu\"\n"
              "  }\n"
              "}\n");
}

TEST(ReportJson, NonFiniteFrameValuePrintsNullWithoutNewline) {
    ScoreTable table;
    const auto ciede = table.add_column("ciede2000");
    const auto psnr = table.add_column("psnr_y");
    table.set(ciede, 0, inf);
    table.set(psnr, 0, 60.0);
    vq::detail::ScoreTableFiller::set_fps(table, 2.0);
    table.add_aggregate("apsnr_cb", -inf);
    const std::string json = strip_vq_extension(write(table, OutputFormat::json));
    EXPECT_EQ(json,
              "{\n"
              "  \"version\": \"3.2.0\",\n"
              "  \"fps\": 2.00,\n"
              "  \"frames\": [\n"
              "    {\n"
              "      \"frameNum\": 0,\n"
              "      \"metrics\": {\n"
              "        \"ciede2000\": null,        \"psnr_y\": 60.000000\n"
              "      }\n"
              "    }\n"
              "  ],\n"
              "  \"pooled_metrics\": {\n"
              "    \"ciede2000\": {\n"
              "      \"min\": null,\n"
              "      \"max\": null,\n"
              "      \"mean\": null,\n"
              "      \"harmonic_mean\": null\n"
              "    },\n"
              "    \"psnr_y\": {\n"
              "      \"min\": 60.000000,\n"
              "      \"max\": 60.000000,\n"
              "      \"mean\": 60.000000,\n"
              "      \"harmonic_mean\": 60.000000\n"
              "    }\n"
              "  },\n"
              "  \"aggregate_metrics\": {\n"
              "    \"apsnr_cb\": null\n"
              "  }\n"
              "}\n");
}

TEST(ReportJson, NullAsLastValueGluesTheClosingBrace) {
    ScoreTable table;
    table.set(table.add_column("psnr_y"), 0, 60.0);
    table.set(table.add_column("ciede2000"), 0, std::numeric_limits<double>::quiet_NaN());
    const std::string json = write(table, OutputFormat::json);
    EXPECT_NE(json.find("        \"psnr_y\": 60.000000,\n"
                        "        \"ciede2000\": null      }\n"
                        "    }\n"),
              std::string::npos)
        << json;
}

TEST(ReportJson, EmptySections) {
    ScoreTable table;
    vq::detail::ScoreTableFiller::set_fps(table, 0.0);
    EXPECT_EQ(write(table, OutputFormat::json, libvmaf_style, "0.1.0"),
              "{\n"
              "  \"version\": \"0.1.0\",\n"
              "  \"fps\": 0.00,\n"
              "  \"frames\": [\n"
              "  ],\n"
              "  \"pooled_metrics\": {\n"
              "  },\n"
              "  \"aggregate_metrics\": {\n"
              "  },\n"
              "  \"backend_used\": \"\",\n"
              "  \"feature_backends\": {\n"
              "  }\n"
              "}\n");
}

TEST(ReportJson, NonFiniteFpsIsNull) {
    ScoreTable table;
    vq::detail::ScoreTableFiller::set_fps(table, std::numeric_limits<double>::quiet_NaN());
    EXPECT_NE(write(table, OutputFormat::json).find("\n  \"fps\": null,\n"), std::string::npos);
    vq::detail::ScoreTableFiller::set_fps(table, inf);
    EXPECT_NE(write(table, OutputFormat::json).find("\n  \"fps\": null,\n"), std::string::npos);
}

// A frame without values is skipped; so is its pooling, which leaves an empty block.
TEST(ReportJson, FailedPoolingLeavesAnEmptyBlock) {
    ScoreTable table;
    const auto a = table.add_column("a");
    const auto b = table.add_column("b");
    table.set(a, 0, 1.0);
    table.set(a, 2, 3.0);
    table.set(b, 2, 4.0);
    const std::string json = strip_vq_extension(write(table, OutputFormat::json));
    EXPECT_EQ(json,
              "{\n"
              "  \"version\": \"3.2.0\",\n"
              "  \"fps\": 0.00,\n"
              "  \"frames\": [\n"
              "    {\n"
              "      \"frameNum\": 0,\n"
              "      \"metrics\": {\n"
              "        \"a\": 1.000000\n"
              "      }\n"
              "    },\n"
              "    {\n"
              "      \"frameNum\": 2,\n"
              "      \"metrics\": {\n"
              "        \"a\": 3.000000,\n"
              "        \"b\": 4.000000\n"
              "      }\n"
              "    }\n"
              "  ],\n"
              "  \"pooled_metrics\": {\n"
              "    \"a\": {\n"
              "    },\n"
              "    \"b\": {\n"
              "    }\n"
              "  },\n"
              "  \"aggregate_metrics\": {\n"
              "  }\n"
              "}\n");
}

// The separator before a frame is keyed on its index, not on whether one was printed before.
TEST(ReportJson, FrameSeparatorKeyedOnIndex) {
    ScoreTable table;
    table.set(table.add_column("a"), 1, 1.0);
    const std::string json = write(table, OutputFormat::json);
    EXPECT_NE(json.find("  \"frames\": [,\n    {\n      \"frameNum\": 1,\n"), std::string::npos)
        << json;
}

TEST(ReportJson, SubsampledFramesAreSkipped) {
    ScoreTable table;
    const auto a = table.add_column("a");
    for (std::size_t i = 0; i < 5; ++i) table.set(a, i, double(i));
    table.set_subsample(2);
    const auto parsed = nlohmann::json::parse(write(table, OutputFormat::json));
    ASSERT_EQ(parsed["frames"].size(), 3u);
    EXPECT_EQ(parsed["frames"][1]["frameNum"], 2);
    EXPECT_EQ(parsed["frames"][2]["frameNum"], 4);
    EXPECT_EQ(parsed["pooled_metrics"]["a"]["mean"], 2.0);
}

TEST(ReportJson, SignificantDigitsStyle) {
    ScoreTable table;
    table.set(table.add_column("a"), 0, 0.1);
    vq::detail::ScoreTableFiller::set_fps(table, 1.234);
    const std::string json = write(table, OutputFormat::json, NumberStyle::significant(17));
    EXPECT_NE(json.find("\"a\": 0.10000000000000001\n"), std::string::npos) << json;
    EXPECT_NE(json.find("\"fps\": 1.23,\n"), std::string::npos) << json;
}

// Rebuilds each golden's table from its per-frame scores and aggregates, then writes it with
// %.17g (the goldens' format): everything but the vq receipt must match the file byte for byte,
// pooled values included, which checks the pooling arithmetic bit for bit.
TEST(ReportGolden, JsonWriterReproducesEveryGolden) {
    const auto golden = test::golden_dir();
    if (!golden) GTEST_SKIP() << "../shared/golden not found";
    int checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(*golden)) {
        if (entry.path().extension() != ".json") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const auto parsed = nlohmann::ordered_json::parse(text);

        ScoreTable table;
        for (const auto& frame : parsed["frames"]) {
            const auto index = frame["frameNum"].get<std::size_t>();
            for (const auto& [name, value] : frame["metrics"].items())
                table.set(table.add_column(name), index,
                          value.is_null() ? inf : value.get<double>());
        }
        for (const auto& [name, value] : parsed["aggregate_metrics"].items())
            table.add_aggregate(name, value.is_null() ? -inf : value.get<double>());
        vq::detail::ScoreTableFiller::set_fps(table, parsed["fps"].is_null()
                                                         ? std::numeric_limits<double>::quiet_NaN()
                                                         : parsed["fps"].get<double>());

        const std::string written = write(table, OutputFormat::json, NumberStyle::significant(17),
                                          parsed["version"].get<std::string>());
        EXPECT_EQ(strip_vq_extension(written), text) << entry.path();
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

// ---- XML (§11.4) ----

TEST(ReportXml, SpecExampleLayout) {
    ScoreTable table = spec_example_table();
    table.add_aggregate("apsnr_y", 36.685082);
    table.add_aggregate("apsnr_cr", -inf);
    EXPECT_EQ(write(table, OutputFormat::xml),
              "<VMAF version=\"3.2.0\">\n"
              "  <params qualityWidth=\"4\" qualityHeight=\"4\" />\n"
              "  <fyi fps=\"33333.33\" />\n"
              "  <frames>\n"
              "    <frame frameNum=\"0\" ciede2000=\"43.963131\" psnr_y=\"46.747777\" "
              "mse_y=\"1.375000\" psnr_cb=\"46.369891\" mse_cb=\"1.500000\" "
              "psnr_cr=\"45.120504\" mse_cr=\"2.000000\" />\n"
              "  </frames>\n"
              "  <pooled_metrics>\n"
              "    <metric name=\"ciede2000\" min=\"43.963131\" max=\"43.963131\" "
              "mean=\"43.963131\" harmonic_mean=\"43.963131\" />\n"
              "    <metric name=\"psnr_y\" min=\"46.747777\" max=\"46.747777\" "
              "mean=\"46.747777\" harmonic_mean=\"46.747777\" />\n"
              "    <metric name=\"mse_y\" min=\"1.375000\" max=\"1.375000\" "
              "mean=\"1.375000\" harmonic_mean=\"1.375000\" />\n"
              "    <metric name=\"psnr_cb\" min=\"46.369891\" max=\"46.369891\" "
              "mean=\"46.369891\" harmonic_mean=\"46.369891\" />\n"
              "    <metric name=\"mse_cb\" min=\"1.500000\" max=\"1.500000\" "
              "mean=\"1.500000\" harmonic_mean=\"1.500000\" />\n"
              "    <metric name=\"psnr_cr\" min=\"45.120504\" max=\"45.120504\" "
              "mean=\"45.120504\" harmonic_mean=\"45.120504\" />\n"
              "    <metric name=\"mse_cr\" min=\"2.000000\" max=\"2.000000\" "
              "mean=\"2.000000\" harmonic_mean=\"2.000000\" />\n"
              "  </pooled_metrics>\n"
              "  <aggregate_metrics apsnr_y=\"36.685082\" apsnr_cr=\"-inf\" />\n"
              "</VMAF>\n");
}

TEST(ReportXml, NonFiniteFailedPoolingAndEmptySections) {
    ScoreTable table;
    const auto ciede = table.add_column("ciede2000");
    const auto psnr = table.add_column("psnr_y");
    table.set(ciede, 0, inf);
    table.set(ciede, 1, inf);
    table.set(psnr, 1, 60.0);
    vq::detail::ScoreTableFiller::set_fps(table, std::numeric_limits<double>::quiet_NaN());
    vq::detail::ScoreTableFiller::set_size(table, 64, 48);
    EXPECT_EQ(write(table, OutputFormat::xml, libvmaf_style, "x"),
              "<VMAF version=\"x\">\n"
              "  <params qualityWidth=\"64\" qualityHeight=\"48\" />\n"
              "  <fyi fps=\"nan\" />\n"
              "  <frames>\n"
              "    <frame frameNum=\"0\" ciede2000=\"inf\" />\n"
              "    <frame frameNum=\"1\" ciede2000=\"inf\" psnr_y=\"60.000000\" />\n"
              "  </frames>\n"
              "  <pooled_metrics>\n"
              "    <metric name=\"ciede2000\" min=\"inf\" max=\"inf\" mean=\"inf\" "
              "harmonic_mean=\"inf\" />\n"
              "    <metric name=\"psnr_y\" />\n"
              "  </pooled_metrics>\n"
              "  <aggregate_metrics />\n"
              "</VMAF>\n");

    EXPECT_EQ(write(ScoreTable{}, OutputFormat::xml),
              "<VMAF version=\"3.2.0\">\n"
              "  <params qualityWidth=\"0\" qualityHeight=\"0\" />\n"
              "  <fyi fps=\"0.00\" />\n"
              "  <frames>\n"
              "  </frames>\n"
              "  <pooled_metrics>\n"
              "  </pooled_metrics>\n"
              "  <aggregate_metrics />\n"
              "</VMAF>\n");
}

// ---- CSV (§11.5) and SUB (§11.6) ----

// Frame 1 lacks "a" (its row shifts left), frame 2 has nothing (skipped), frame 3 is
// subsampled away.
ScoreTable gappy_table() {
    ScoreTable table;
    const auto a = table.add_column("a");
    const auto b = table.add_column("b");
    table.set(a, 0, 1.5);
    table.set(b, 0, -inf);
    table.set(b, 1, 0.0000009);
    table.set(a, 4, 2.0);
    table.set(b, 4, 3.0);
    table.set(a, 3, 9.0);
    table.set_frame_count(5);
    table.set_subsample(2);
    table.set(a, 6, 7.0);  // extends the run to 7 frames
    return table;
}

TEST(ReportCsv, Layout) {
    EXPECT_EQ(write(spec_example_table(), OutputFormat::csv),
              "Frame,ciede2000,psnr_y,mse_y,psnr_cb,mse_cb,psnr_cr,mse_cr,\n"
              "0,43.963131,46.747777,1.375000,46.369891,1.500000,45.120504,2.000000,\n");
    ScoreTable table = gappy_table();
    table.set_subsample(1);
    EXPECT_EQ(write(table, OutputFormat::csv),
              "Frame,a,b,\n"
              "0,1.500000,-inf,\n"
              "1,0.0000009000000000,\n"
              "3,9.000000,\n"
              "4,2.000000,3.000000,\n"
              "6,7.000000,\n");
    EXPECT_EQ(write(gappy_table(), OutputFormat::csv),
              "Frame,a,b,\n"
              "0,1.500000,-inf,\n"
              "4,2.000000,3.000000,\n"
              "6,7.000000,\n");
    EXPECT_EQ(write(ScoreTable{}, OutputFormat::csv), "Frame,\n");
}

TEST(ReportSub, Layout) {
    EXPECT_EQ(write(spec_example_table(), OutputFormat::sub),
              "{0}{1}frame: 0|ciede2000: 43.963131|psnr_y: 46.747777|mse_y: 1.375000|"
              "psnr_cb: 46.369891|mse_cb: 1.500000|psnr_cr: 45.120504|mse_cr: 2.000000|\n");
    ScoreTable table = gappy_table();
    table.set_subsample(1);
    EXPECT_EQ(write(table, OutputFormat::sub),
              "{0}{1}frame: 0|a: 1.500000|b: -inf|\n"
              "{1}{2}frame: 1|b: 0.0000009000000000|\n"
              "{3}{4}frame: 3|a: 9.000000|\n"
              "{4}{5}frame: 4|a: 2.000000|b: 3.000000|\n"
              "{6}{7}frame: 6|a: 7.000000|\n");
    EXPECT_EQ(write(ScoreTable{}, OutputFormat::sub), "");
}

}  // namespace
}  // namespace vq
