// PSNR: the spec's worked examples through the public library API, and every golden through the
// CLI.
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq {
namespace {

// The 4x4 4:2:0 frame of spec/psnr.md §7.1 (and ciede.md §7), with `scale`/`offset` per plane
// for the 10-bit variant of §7.2.
template <typename Sample>
Picture example_frame(int bit_depth, bool distorted, const int (&mul)[3], const int (&add)[3]) {
    static const int ref_y[16] = {100, 110, 120, 130, 100, 110, 120, 130,
                                  60,  70,  80,  90,  60,  70,  80,  90};
    static const int dist_y[16] = {102, 110, 118, 131, 100, 112, 120, 130,
                                   60,  72,  80,  88,  61,  70,  80,  90};
    static const int ref_c[2][4] = {{100, 128, 140, 90}, {150, 128, 110, 160}};
    static const int dist_c[2][4] = {{101, 127, 140, 92}, {150, 130, 108, 160}};
    Picture picture = Picture::allocate({4, 4, bit_depth, ChromaFormat::yuv420});
    for (int i = 0; i < 16; ++i)
        picture.plane_data<Sample>(0)[i] =
            Sample((distorted ? dist_y : ref_y)[i] * mul[0] + add[0]);
    for (int p = 1; p < 3; ++p)
        for (int i = 0; i < 4; ++i)
            picture.plane_data<Sample>(p)[i] =
                Sample((distorted ? dist_c : ref_c)[p - 1][i] * mul[p] + add[p]);
    return picture;
}

ScoreTable score_one(const std::string& feature, const Picture& ref, const Picture& dist) {
    Session session({.threads = 1});
    session.add_feature(feature);
    session.start(ref.format());
    session.push({ref, dist});
    return session.finish();
}

double value(const ScoreTable& table, const std::string& name) {
    const auto column = table.find(name);
    EXPECT_TRUE(column) << name;
    return column ? table.value(*column, 0).value_or(NAN) : NAN;
}

TEST(PsnrExample, EightBit) {  // spec/psnr.md §7.1
    const int one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    const auto table =
        score_one("psnr=enable_mse=true", example_frame<std::uint8_t>(8, false, one, zero),
                  example_frame<std::uint8_t>(8, true, one, zero));
    EXPECT_NEAR(value(table, "psnr_y"), 46.747777, 5e-7);
    EXPECT_EQ(value(table, "mse_y"), 1.375);
    EXPECT_NEAR(value(table, "psnr_cb"), 46.369891, 5e-7);
    EXPECT_EQ(value(table, "mse_cb"), 1.5);
    EXPECT_NEAR(value(table, "psnr_cr"), 45.120504, 5e-7);
    EXPECT_EQ(value(table, "mse_cr"), 2.0);
    EXPECT_EQ(table.name(0), "psnr_y");
    EXPECT_EQ(table.name(1), "mse_y");
}

TEST(PsnrExample, TenBitAndReducedPeak) {  // spec/psnr.md §7.2
    const int four[3] = {4, 4, 4}, zero[3] = {0, 0, 0}, shift[3] = {1, 0, -1};
    const Picture ref = example_frame<std::uint16_t>(10, false, four, zero);
    const Picture dist = example_frame<std::uint16_t>(10, true, four, shift);
    const auto table = score_one("psnr", ref, dist);
    EXPECT_NEAR(value(table, "psnr_y"), 46.218113, 5e-7);
    EXPECT_NEAR(value(table, "psnr_cb"), 46.395400, 5e-7);
    EXPECT_NEAR(value(table, "psnr_cr"), 45.012373, 5e-7);
    const auto reduced = score_one("psnr=reduced_hbd_peak=true", ref, dist);
    EXPECT_NEAR(value(table, "psnr_y") - value(reduced, "psnr_y"), 20 * std::log10(1023.0 / 1020.0),
                1e-12);
}

TEST(PsnrExample, CapsOnIdenticalInput) {  // spec/psnr.md §7.3
    const Picture ten = Picture::allocate({64, 48, 10, ChromaFormat::yuv420});
    EXPECT_EQ(value(score_one("psnr", ten, ten), "psnr_y"), 72.0);
    const auto with_min_sse = score_one("psnr=min_sse=0.5", ten, ten);
    EXPECT_EQ(value(with_min_sse, "psnr_y"), 99.0);
    EXPECT_EQ(value(with_min_sse, "psnr_cb"), 93.0);
    const Picture eight = Picture::allocate({64, 48, 8, ChromaFormat::yuv420});
    EXPECT_EQ(value(score_one("psnr", eight, eight), "psnr_cr"), 60.0);
}

TEST(PsnrExample,
     ApsnrOfIdenticalRunIsItsCap) {  // spec/psnr.md §5: 64x48 8-bit, 2 frames -> 90 / 84
    const Picture eight = Picture::allocate({64, 48, 8, ChromaFormat::yuv420});
    Session session({.threads = 2});
    session.add_feature("psnr=enable_apsnr=true");
    session.start(eight.format());
    session.push({eight, eight});
    session.push({eight, eight});
    const auto table = session.finish();
    ASSERT_EQ(table.aggregates().size(), 3u);
    EXPECT_EQ(table.aggregates()[0], (std::pair<std::string, double>{"apsnr_y", 90.0}));
    EXPECT_EQ(table.aggregates()[1], (std::pair<std::string, double>{"apsnr_cb", 84.0}));
}

TEST(PsnrExample, MonochromeScoresLumaOnly) {
    const Picture mono = Picture::allocate({16, 16, 8, ChromaFormat::yuv400});
    const auto table = score_one("psnr", mono, mono);
    EXPECT_EQ(table.column_count(), 1u);
    EXPECT_EQ(value(table, "psnr_y"), 60.0);
}

// Golden comparison: vq's values (printed with %.17g) must equal the reference's to the last bit.
nlohmann::json run_json(const std::string& arguments, const std::string& scratch) {
    const auto dir = test::scratch_dir(scratch);
    const auto out = dir / "out.json";
    const auto result =
        test::run_vq(arguments + " --json --precision max -q -o \"" + out.string() + "\"");
    EXPECT_EQ(result.exit_code, 0) << result.output;
    return nlohmann::json::parse(test::read_file(out));
}

void expect_same_frames(const nlohmann::json& golden, const nlohmann::json& ours,
                        const std::vector<std::string>& keys, const std::string& what) {
    ASSERT_EQ(golden["frames"].size(), ours["frames"].size()) << what;
    for (std::size_t i = 0; i < golden["frames"].size(); ++i)
        for (const auto& key : keys)
            EXPECT_EQ(golden["frames"][i]["metrics"][key].get<double>(),
                      ours["frames"][i]["metrics"][key].get<double>())
                << what << " frame " << i << " " << key;
    for (const auto& key : keys)
        for (const char* method : {"min", "max", "mean", "harmonic_mean"})
            EXPECT_EQ(golden["pooled_metrics"][key][method].get<double>(),
                      ours["pooled_metrics"][key][method].get<double>())
                << what << " pooled " << key << " " << method;
}

const char* const fixtures[] = {"grad_576x324_8b_420",    "testsrc_576x324_8b_420",
                                "mandel_576x324_8b_420",  "grad_576x324_10b_420",
                                "grad_1920x1080_8b_420",  "testsrc_352x288_8b_422",
                                "testsrc_352x288_8b_444", "odd_641x359_8b_420"};

TEST(PsnrGolden, EveryFixture) {
    VQ_REQUIRE_FIXTURES(dir);
    for (const std::string name : fixtures) {
        const auto golden =
            nlohmann::json::parse(test::read_file(*test::golden_dir() / (name + "__feat.json")));
        const auto ours = run_json("-r \"" + (dir / name / "ref.y4m").string() + "\" -d \"" +
                                       (dir / name / "dist.y4m").string() + "\" --feature psnr",
                                   "psnr_golden_" + name);
        // The odd-size golden's chroma covers only the top-left 320x179 of each chroma plane (the
        // reference cannot read the 321x180 planes the file holds), so only luma is comparable
        // there; PsnrGolden.OddSizeChromaIsTheWholePlane checks vq's chroma independently.
        const bool odd = name.starts_with("odd_");
        expect_same_frames(golden, ours,
                           odd ? std::vector<std::string>{"psnr_y"}
                               : std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr"},
                           name);
    }
}

TEST(PsnrGolden, MseAndApsnr) {
    VQ_REQUIRE_FIXTURES(dir);
    const std::string name = "grad_576x324_10b_420";
    const auto golden =
        nlohmann::json::parse(test::read_file(*test::golden_dir() / (name + "__psnr_opts.json")));
    const auto ours = run_json("-r \"" + (dir / name / "ref.y4m").string() + "\" -d \"" +
                                   (dir / name / "dist.y4m").string() +
                                   "\" --feature psnr=enable_mse=true:enable_apsnr=true",
                               "psnr_opts");
    expect_same_frames(golden, ours, {"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr"},
                       name);
    for (const char* key : {"apsnr_y", "apsnr_cb", "apsnr_cr"})
        EXPECT_EQ(golden["aggregate_metrics"][key].get<double>(),
                  ours["aggregate_metrics"][key].get<double>())
            << key;
}

// An independent computation of the odd fixture's chroma PSNR over the full ceil-size planes.
TEST(PsnrGolden, OddSizeChromaIsTheWholePlane) {
    VQ_REQUIRE_FIXTURES(dir);
    const auto path = [&](const char* file) {
        return (dir / "odd_641x359_8b_420" / file).string();
    };
    const auto ours =
        run_json("-r \"" + path("ref.y4m") + "\" -d \"" + path("dist.y4m") + "\" --feature psnr",
                 "psnr_odd");
    // Parse the Y4M frames by hand: 641x359 luma, 321x180 chroma, "FRAME\n" markers.
    const std::string ref = test::read_file(path("ref.y4m")),
                      dist = test::read_file(path("dist.y4m"));
    const std::size_t luma = 641 * 359, chroma = 321 * 180, frame = luma + 2 * chroma;
    std::size_t r = ref.find('\n') + 1, d = dist.find('\n') + 1;
    for (std::size_t i = 0; i < ours["frames"].size(); ++i) {
        r += 6;
        d += 6;
        for (int plane = 1; plane <= 2; ++plane) {
            std::uint64_t sse = 0;
            const std::size_t offset = luma + (plane - 1) * chroma;
            for (std::size_t k = 0; k < chroma; ++k) {
                const int diff = int(std::uint8_t(ref[r + offset + k])) -
                                 int(std::uint8_t(dist[d + offset + k]));
                sse += std::uint64_t(diff * diff);
            }
            const double mse = double(sse) / double(chroma);
            const double expected =
                std::min(10.0 * std::log10(255.0 * 255.0 / std::max(mse, 1e-16)), 60.0);
            EXPECT_EQ(
                ours["frames"][i]["metrics"][plane == 1 ? "psnr_cb" : "psnr_cr"].get<double>(),
                expected);
        }
        r += frame;
        d += frame;
    }
}

}  // namespace
}  // namespace vq
