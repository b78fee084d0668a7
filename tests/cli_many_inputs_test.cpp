// `vq -r REF -d A -d B ...` and --distorted_list: one output per input in the -o folder, each the
// same file a run of its own writes; an input that fails is named with its error and the others
// complete.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "ffmpeg_test_support.hpp"
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
    test::expect_one_line_error(
        test::run_vq(run + "-d " + q(ladder.b) + " -o " + q(file / "scores/")), 2,
        {"-o/--output", "cannot be made there"});
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

// The progress line, with each input's frames, is drawn on a terminal only: never into a pipe or
// a file, never with -q. The terminal is a pseudo-terminal made by util-linux's script(1).
TEST(CliManyInputs, ProgressLineShowsEveryInputOnATerminalOnly) {
    const Ladder ladder = make_ladder("cli_many_progress");
    const std::string run = "-r " + q(ladder.reference) + " -d " + q(ladder.a) + " -d " +
                            q(ladder.b) + " -d " + q(ladder.dir / "missing.y4m") +
                            " --feature psnr -o " + q(ladder.dir / "out/");
    const auto piped = test::run_vq(run);
    EXPECT_EQ(piped.exit_code, 1) << piped.output;
    EXPECT_EQ(piped.output.find('\r'), std::string::npos) << piped.output;
    EXPECT_EQ(piped.output.find('\x1b'), std::string::npos) << piped.output;

    if (test::run_shell("script --version").exit_code != 0)
        GTEST_SKIP() << "no script(1) (util-linux) to run vq on a pseudo-terminal";
    const auto on_terminal = [&](const std::string& flags) {
        return test::run_shell("script -qec " +
                               test::quoted(test::vq_binary().string() + " " + run + flags) +
                               " /dev/null < /dev/null");
    };
    const auto shown = on_terminal("");
    // The first line drawn: from a carriage return to the erase-to-end-of-line after it (the
    // terminal also ends every other line with "\r\n").
    const std::size_t end = shown.output.find("\x1b[K");
    ASSERT_NE(end, std::string::npos) << shown.output;
    const std::size_t start = shown.output.rfind('\r', end);
    ASSERT_NE(start, std::string::npos) << shown.output;
    const std::string drawn = shown.output.substr(start, end - start);
    EXPECT_NE(drawn.find("  a.y4m "), std::string::npos) << drawn;
    EXPECT_NE(drawn.find("  b.y4m "), std::string::npos) << drawn;
    EXPECT_NE(drawn.find("  missing.y4m failed"), std::string::npos) << drawn;
    const auto quiet = on_terminal(" -q");
    EXPECT_EQ(quiet.output.find("\x1b[K"), std::string::npos) << quiet.output;
    EXPECT_NE(quiet.output.find("missing.y4m"), std::string::npos) << "errors are still shown";
}

// Ctrl-C in a many-input run, while one input (a FIFO fed one frame) keeps it waiting, leaves no
// output behind: no score file, no report, and not the -o folder it would have made; in a folder
// that exists, nothing.
TEST(CliManyInputs, InterruptLeavesNoOutputs) {
    const Ladder ladder = make_ladder("cli_many_interrupt");
    const fs::path one = test::write_file(
        ladder.dir / "one.y4m", test::y4m_file("YUV4MPEG2 W96 H64 F25:1 Ip C420", format, 1));
    fs::create_directories(ladder.dir / "existing");
    for (const std::string folder : {"made/", "existing/"}) {
        SCOPED_TRACE(folder);
        const fs::path fifo = ladder.dir / "dist.fifo";
        const std::string script = fmt::format(
            "mkfifo {fifo}; {vq} -r {ref} -d {a} -d {fifo} --feature psnr --json -o {out} "
            "--report {page} 2> {log} & pid=$!; exec 3> {fifo}; cat {one} >&3; sleep 0.5; "
            "kill -INT $pid; wait $pid; echo status=$?; exec 3>&-; rm {fifo}",
            fmt::arg("fifo", q(fifo)), fmt::arg("vq", q(test::vq_binary())),
            fmt::arg("ref", q(ladder.reference)), fmt::arg("a", q(ladder.a)),
            fmt::arg("out", q(ladder.dir / folder)), fmt::arg("page", q(ladder.dir / "r.html")),
            fmt::arg("log", q(ladder.dir / "log")), fmt::arg("one", q(one)));
        const auto result = test::run_shell("bash -c " + test::quoted(script));
        EXPECT_NE(result.output.find("status=130"), std::string::npos)
            << result.output << test::read_file(ladder.dir / "log");
        EXPECT_EQ(test::file_names_in(ladder.dir),
                  (std::set<std::string>{"ref.y4m", "a.y4m", "b.y4m", "small.y4m", "one.y4m",
                                         "existing", "log"}))
            << "a partial output was left behind";
        EXPECT_TRUE(test::file_names_in(ladder.dir / "existing").empty());
    }
}

}  // namespace
}  // namespace vq
