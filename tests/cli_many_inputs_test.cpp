// `vq -r REF -d A -d B ...` and --distorted_list: one output per input in the -o folder, each the
// same file a run of its own writes; an input that fails is named with its error and the others
// complete.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "io_test_support.hpp"
#include "test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;

constexpr VideoFormat format{96, 64, 8, ChromaFormat::yuv420};

std::string q(const fs::path& path) { return "\"" + path.string() + "\""; }

// The report without its one run-dependent line, the frames per second.
std::string without_fps(const fs::path& path) {
    return std::regex_replace(test::read_file(path), std::regex(".*\"fps\".*\n"), "");
}

struct Ladder {
    fs::path dir, reference, a, b, small;
};

Ladder make_ladder(const std::string& name) {
    Ladder ladder{test::scratch_dir(name), {}, {}, {}, {}};
    ladder.reference =
        test::write_synthetic_y4m(ladder.dir / "ref.y4m", format, SyntheticScene::mixed, false, 5);
    ladder.a =
        test::write_synthetic_y4m(ladder.dir / "a.y4m", format, SyntheticScene::mixed, true, 5);
    ladder.b =
        test::write_synthetic_y4m(ladder.dir / "b.y4m", format, SyntheticScene::textured, true, 5);
    ladder.small = test::write_synthetic_y4m(ladder.dir / "small.y4m", {48, 32, 8, format.chroma},
                                             SyntheticScene::mixed, true, 5);
    return ladder;
}

TEST(CliManyInputs, EachOutputIsThatOfARunOfItsOwn) {
    const Ladder ladder = make_ladder("cli_many_outputs");
    const std::string flags = " --feature psnr --json --threads 2 -q";
    const auto result = test::run_vq("-r " + q(ladder.reference) + " -d " + q(ladder.a) + " -d " +
                                     q(ladder.b) + flags + " -o " + q(ladder.dir / "out/"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(test::file_names_in(ladder.dir / "out"), (std::set<std::string>{"a.json", "b.json"}));
    for (const fs::path& input : {ladder.a, ladder.b}) {
        const fs::path own = ladder.dir / ("own_" + input.stem().string() + ".json");
        ASSERT_EQ(
            test::run_vq("-r " + q(ladder.reference) + " -d " + q(input) + flags + " -o " + q(own))
                .exit_code,
            0);
        EXPECT_EQ(without_fps(ladder.dir / "out" / (input.stem().string() + ".json")),
                  without_fps(own))
            << input;
    }
}

TEST(CliManyInputs, ListFileGivesEachInputItsScale) {
    const Ladder ladder = make_ladder("cli_many_list");
    if (test::run_vq("-r " + q(ladder.reference) + " -d " + q(ladder.small) +
                     " --scale 96x64 --feature psnr -q")
            .exit_code != 0)
        GTEST_SKIP() << "--scale needs vq built with FFmpeg";
    const fs::path list = test::write_file(ladder.dir / "list.txt",
                                           "# the ladder\n" + ladder.a.string() + "\n\n" +
                                               ladder.small.string() + " --scale 96x64:bicubic\n");
    const auto result = test::run_vq("-r " + q(ladder.reference) + " --distorted_list " + q(list) +
                                     " --feature psnr --csv -q -o " + q(ladder.dir / "out/"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    ASSERT_EQ(test::run_vq("-r " + q(ladder.reference) + " -d " + q(ladder.small) +
                           " --scale 96x64 --feature psnr --csv -q -o " + q(ladder.dir / "own.csv"))
                  .exit_code,
              0);
    EXPECT_EQ(test::read_file(ladder.dir / "out" / "small.csv"),
              test::read_file(ladder.dir / "own.csv"));
}

TEST(CliManyInputs, AFailingInputIsNamedAndTheOthersComplete) {
    const Ladder ladder = make_ladder("cli_many_failing");
    const fs::path missing = ladder.dir / "missing.y4m";
    const auto result =
        test::run_vq("-r " + q(ladder.reference) + " -d " + q(missing) + " -d " + q(ladder.a) +
                     " -d " + q(ladder.small) + " --feature psnr -q -o " + q(ladder.dir / "out/"));
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_EQ(test::file_names_in(ladder.dir / "out"), (std::set<std::string>{"a.xml"}));
    EXPECT_NE(result.output.find("vq: " + missing.string() + ": "), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("vq: " + ladder.small.string() + ": "), std::string::npos);
    EXPECT_NE(result.output.find("sizes differ"), std::string::npos);
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 2) << result.output;
}

TEST(CliManyInputs, StemsTakenTwiceGetANumber) {
    const Ladder ladder = make_ladder("cli_many_stems");
    fs::create_directories(ladder.dir / "other");
    const fs::path again = ladder.dir / "other" / "a.y4m";
    fs::copy_file(ladder.b, again);
    ASSERT_EQ(test::run_vq("-r " + q(ladder.reference) + " -d " + q(ladder.a) + " -d " + q(again) +
                           " --feature psnr --json -q -o " + q(ladder.dir / "out/"))
                  .exit_code,
              0);
    EXPECT_EQ(test::file_names_in(ladder.dir / "out"),
              (std::set<std::string>{"a.json", "a-2.json"}));
}

TEST(CliManyInputs, BadRequestsAreOneLineUsageErrors) {
    const Ladder ladder = make_ladder("cli_many_bad");
    const std::string run =
        "-r " + q(ladder.reference) + " -d " + q(ladder.a) + " --feature psnr -q ";
    const fs::path file = test::write_file(ladder.dir / "scores.xml", "");
    test::expect_one_line_error(test::run_vq(run + "-d " + q(ladder.b) + " -o " + q(file)), 2,
                                {"-o/--output", "names a folder"});
    test::expect_one_line_error(test::run_vq(run + "-d -"), 2, {"standard input"});
    test::expect_one_line_error(test::run_vq(run + "-d " + q(ladder.a) + " " + q(ladder.b)), 2,
                                {ladder.b.string()});
    const fs::path empty = test::write_file(ladder.dir / "empty.txt", "# nothing\n\n");
    test::expect_one_line_error(test::run_vq(run + "--distorted_list " + q(empty)), 2,
                                {"--distorted_list", "no inputs"});
    const fs::path bad_scale = test::write_file(ladder.dir / "bad.txt", "x.y4m\ny.y4m --scale 9\n");
    test::expect_one_line_error(test::run_vq(run + "--distorted_list " + q(bad_scale)), 2,
                                {"--distorted_list", "line 2"});
    test::expect_one_line_error(test::run_vq(run + "--distorted_list " + q(ladder.dir / "none")), 2,
                                {"--distorted_list", "cannot read"});
    EXPECT_FALSE(fs::exists(ladder.dir / "out"));
}

}  // namespace
}  // namespace vq
