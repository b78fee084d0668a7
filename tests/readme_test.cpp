// The README's first commands are what a new user types: the programs they run must be where the
// README says, relative to the build folder (.ci/run also runs them verbatim on a fresh clone).
#include <filesystem>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;

// The lines of the README's first ```sh code block.
std::string first_shell_block(const std::string& readme) {
    std::istringstream lines(readme);
    std::string line, block;
    bool inside = false;
    while (std::getline(lines, line)) {
        if (!inside && line == "```sh") {
            inside = true;
        } else if (inside && line.starts_with("```")) {
            break;
        } else if (inside) {
            block += line + "\n";
        }
    }
    return block;
}

TEST(Readme, FirstCommandsRunProgramsThatTheBuildMakes) {
    const fs::path readme = fs::path(VQ_SOURCE_DIR) / "README.md";
    const fs::path build_root = VQ_BUILD_ROOT;
    if (!fs::exists(readme) || !fs::is_directory(build_root))
        GTEST_SKIP() << "the source tree or the build folder is not on this machine";
    const std::string block = first_shell_block(test::read_file(readme));
    ASSERT_FALSE(block.empty()) << "README.md has no ```sh code block";

    // "build/vq --demo": every program run from the build folder (a word starting "build/").
    const std::regex program(R"((?:^|[\s;&|])build/([^\s;&|]+))");
    int programs = 0;
    for (auto it = std::sregex_iterator(block.begin(), block.end(), program);
         it != std::sregex_iterator(); ++it) {
        ++programs;
        const fs::path built = build_root / (*it)[1].str();
        EXPECT_TRUE(fs::is_regular_file(built))
            << "the README runs build/" << (*it)[1] << ", but the build made no " << built;
    }
    EXPECT_GT(programs, 0) << "the README's first commands run no program from build/:\n" << block;
}

}  // namespace
}  // namespace vq
