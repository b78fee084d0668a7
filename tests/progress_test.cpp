// The terminal progress line and the --quiet switch.
#include <filesystem>
#include <sstream>

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
