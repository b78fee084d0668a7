// Whole runs through the command line against the reference's goldens: every per-frame key in the
// reference's order, every value, every pooled value and aggregate, bit for bit. The presets
// (--aom_ctc, --nflx_ctc) are checked here because what they are is the whole output file.
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace vq::test {
namespace {

struct CliGolden {
    std::string golden;  // file in shared/golden
    std::string fixture;
    std::string flags;
};

void PrintTo(const CliGolden& c, std::ostream* out) { *out << c.golden; }

std::vector<CliGolden> preset_goldens() {
    std::vector<CliGolden> cases;
    for (const char* fixture :
         {"mandel_576x324_8b_420", "grad_576x324_10b_420", "grad_1920x1080_8b_420"})
        for (const char* version : {"v6.0", "v7.0"})
            cases.push_back({std::string(fixture) + "__aom_ctc_" + version + ".json", fixture,
                             std::string("--aom_ctc ") + version});
    for (const char* fixture : {"mandel_576x324_8b_420", "grad_576x324_10b_420"})
        cases.push_back(
            {std::string(fixture) + "__nflx_ctc_v1.0.json", fixture, "--nflx_ctc v1.0"});
    return cases;
}

// Every key of `expected` in order, and each value the same double.
void expect_same_object(const nlohmann::ordered_json& actual,
                        const nlohmann::ordered_json& expected, const std::string& where) {
    std::vector<std::string> actual_keys, expected_keys;
    for (const auto& [key, value] : actual.items()) actual_keys.push_back(key);
    for (const auto& [key, value] : expected.items()) expected_keys.push_back(key);
    ASSERT_EQ(actual_keys, expected_keys) << where;
    for (const auto& [key, value] : expected.items()) {
        if (value.is_object()) {
            expect_same_object(actual[key], value, where + "." + key);
            continue;
        }
        EXPECT_EQ(actual[key].get<double>(), value.get<double>()) << where << "." << key;
    }
}

class CliGoldenRun : public ::testing::TestWithParam<CliGolden> {};

TEST_P(CliGoldenRun, WritesTheReferenceFileBitForBit) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const CliGolden& c = GetParam();
    for (const char* threads : {"1", "2"}) {
        const auto dir = scratch_dir(c.golden + threads);
        const auto clip = fixtures / c.fixture;
        const auto result =
            run_vq("-r " + (clip / "ref.y4m").string() + " -d " + (clip / "dist.y4m").string() +
                   " " + c.flags + " --threads " + threads + " --json --precision max -q -o " +
                   (dir / "out.json").string());
        ASSERT_EQ(result.exit_code, 0) << result.output;
        const auto actual = nlohmann::ordered_json::parse(read_file(dir / "out.json"));
        const auto expected = nlohmann::ordered_json::parse(read_file(*golden_dir() / c.golden));
        const std::string where = c.golden + " --threads " + threads;
        ASSERT_EQ(actual["frames"].size(), expected["frames"].size()) << where;
        for (std::size_t i = 0; i < expected["frames"].size(); ++i)
            expect_same_object(actual["frames"][i]["metrics"], expected["frames"][i]["metrics"],
                               where + " frame " + std::to_string(i));
        expect_same_object(actual["pooled_metrics"], expected["pooled_metrics"], where);
        expect_same_object(actual["aggregate_metrics"], expected["aggregate_metrics"], where);
    }
}

INSTANTIATE_TEST_SUITE_P(Presets, CliGoldenRun, ::testing::ValuesIn(preset_goldens()),
                         [](const auto& info) {
                             std::string name = info.param.golden.substr(
                                 0, info.param.golden.size() - std::string(".json").size());
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

TEST(CliPresets, UnknownVersionIsAUsageErrorListingTheKnownOnes) {
    const auto result = run_vq("-r a.y4m -d b.y4m --aom_ctc v9.0");
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find("--aom_ctc: unknown version 'v9.0' (known: v1.0, v2.0, v3.0, "
                                 "v4.0, v5.0, v6.0, v7.0)"),
              std::string::npos)
        << result.output;
    const auto nflx = run_vq("-r a.y4m -d b.y4m --nflx_ctc v2.0");
    EXPECT_EQ(nflx.exit_code, 2) << nflx.output;
    EXPECT_NE(nflx.output.find("known: v1.0"), std::string::npos) << nflx.output;
}

}  // namespace
}  // namespace vq::test
