// The terminal progress line and the --quiet switch.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "cli/args.hpp"
#include "cli/progress.hpp"
#include "test_support.hpp"

namespace vq::cli {
namespace {

TEST(ProgressLine, DrawsFramesFpsAndEta) {
    std::ostringstream out;
    ProgressLine progress(out, true, 100);
    progress.update(1);
    progress.finish();
    const std::string text = out.str();
    EXPECT_EQ(text.rfind("\r1 frame ", 0), 0u) << text;
    EXPECT_NE(text.find("fps"), std::string::npos);
    EXPECT_NE(text.find("1/100"), std::string::npos);
    EXPECT_NE(text.find("ETA"), std::string::npos);
    EXPECT_EQ(text.back(), '\n');
}

TEST(ProgressLine, NoEtaWithoutALength) {
    std::ostringstream out;
    ProgressLine progress(out, true, std::nullopt);
    progress.update(3);
    EXPECT_EQ(out.str().find("ETA"), std::string::npos);
}

TEST(ProgressLine, DisabledPrintsNothing) {
    std::ostringstream out;
    ProgressLine progress(out, false, 10);
    for (std::size_t i = 1; i <= 10; ++i) progress.update(i);
    progress.finish();
    EXPECT_TRUE(out.str().empty());
}

// The lines drawn, each without its leading '\r' and trailing erase-to-end-of-line.
std::vector<std::string> drawn_lines(const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t at = text.find('\r'); at != std::string::npos; at = text.find('\r', at + 1)) {
        const std::size_t end = text.find("\x1b[K", at);
        lines.push_back(text.substr(at + 1, end - at - 1));
    }
    return lines;
}

using State = InputProgress::State;

TEST(ProgressLine, ManyInputsShowEachInput) {
    std::ostringstream out;
    ProgressLine progress(out, true, 600, [] { return std::size_t(120); });
    const std::vector<std::string> names = {"a.mp4", "b.mp4", "c.mkv"};
    progress.update(
        120, names,
        std::vector<InputProgress>{{State::running, 118}, {State::done, 96}, {State::failed, 3}});
    const std::vector<std::string> lines = drawn_lines(out.str());
    ASSERT_EQ(lines.size(), 1u) << out.str();
    EXPECT_EQ(lines[0].rfind("120 frames ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("120/600"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("  a.mp4 118  b.mp4 96 done  c.mkv failed"), std::string::npos)
        << lines[0];
    EXPECT_LT(lines[0].size(), 120u);
}

// Too many inputs for the terminal's width: the fewest and most frames scored, how many ended
// and failed; never a line as wide as the terminal, which would wrap and could not be rewritten.
TEST(ProgressLine, InputsThatDoNotFitAreSummed) {
    for (const std::size_t columns : {100, 50, 20, 1}) {
        SCOPED_TRACE(columns);
        std::ostringstream out;
        ProgressLine progress(out, true, 6000, [columns] { return columns; });
        std::vector<std::string> names;
        std::vector<InputProgress> inputs;
        for (int i = 0; i < 8; ++i) {
            names.push_back(fmt::format("encode_at_{}_kbps.mp4", 500 * (i + 1)));
            inputs.push_back({State::running, std::size_t(112 + i)});
        }
        inputs[6] = {State::done, 90};
        inputs[7] = {State::failed, 0};
        progress.update(120, names, inputs);
        const std::vector<std::string> lines = drawn_lines(out.str());
        ASSERT_EQ(lines.size(), 1u);
        EXPECT_LT(lines[0].size(), std::max<std::size_t>(columns, 2)) << lines[0];
        EXPECT_EQ(lines[0].find("encode_at"), std::string::npos) << lines[0];
        if (columns == 100) {
            EXPECT_NE(lines[0].find("  8 inputs: 112-117 scored, 1 done, 1 failed"),
                      std::string::npos)
                << lines[0];
        }
    }
}

TEST(ProgressLine, ManyInputsDisabledPrintsNothing) {
    std::ostringstream out;
    ProgressLine progress(out, false, 10);
    const std::vector<std::string> names = {"a", "b"};
    const std::vector<InputProgress> inputs = {{State::running, 1}, {State::failed, 0}};
    for (std::size_t i = 1; i <= 10; ++i) progress.update(i, names, inputs);
    progress.finish();
    EXPECT_TRUE(out.str().empty());
}

TEST(ProgressLine, InputsAreNamedByFileNameUnlessTwoShareIt) {
    EXPECT_EQ(progress_names({"ladder/a.mp4", "ladder/b\n\x1b[2J.mkv", "x/c.mp4", "y/c.mp4"}),
              (std::vector<std::string>{"a.mp4", "b??[2J.mkv", "x/c.mp4", "y/c.mp4"}));
}

Arguments parse(std::vector<std::string> words) {
    words.insert(words.begin(), "vq");
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    return parse_arguments(int(argv.size()), argv.data());
}

TEST(Arguments, QuietAndFormatFlags) {
    const auto args = parse({"-r", "a", "-d", "b", "--feature", "psnr", "-q", "--json", "--csv"});
    EXPECT_TRUE(args.quiet);
    EXPECT_EQ(args.format, OutputFormat::csv);  // the last format flag wins, as in libvmaf
    EXPECT_FALSE(parse({"-d", "b", "--feature", "cambi"}).quiet);
}

TEST(Arguments, LibvmafSpellings) {
    const auto args = parse({"-rref.y4m", "--distorted=dist.y4m", "--feature", "psnr", "--feature",
                             "cambi=topk=0.2", "--frame_cnt", "5", "--subsample", "2", "--threads",
                             "3", "--precision", "max"});
    EXPECT_EQ(args.reference, "ref.y4m");
    ASSERT_EQ(args.distorted.size(), 1u);
    EXPECT_EQ(args.distorted[0].path, "dist.y4m");
    EXPECT_EQ(args.features.size(), 2u);
    EXPECT_EQ(args.loop.frame_count, 5u);
    EXPECT_EQ(args.session.subsample, 2u);
    EXPECT_EQ(args.session.threads, 3u);
    EXPECT_EQ(args.number_style.kind, NumberStyle::Kind::significant_digits);
}

TEST(CliQuiet, QuietRunPrintsNothing) {
    const auto out = test::scratch_dir("cli_quiet") / "scores.json";
    const auto result = test::run_vq("--demo -q --json -o \"" + out.string() + "\"");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.output, "");
    EXPECT_TRUE(std::filesystem::is_regular_file(out));
}

}  // namespace
}  // namespace vq::cli
