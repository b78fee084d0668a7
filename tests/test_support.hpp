// Helpers shared by the tests: locating ../shared and the unpacked fixtures.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace vq::test {

// ../shared beside the checkout, if present.
std::optional<std::filesystem::path> shared_dir();

// The directory holding <fixture>/{ref,dist}.y4m, unpacked on first use into the build tree.
// Empty when ../shared is absent.
std::optional<std::filesystem::path> fixtures_dir();

// Every unpacked clip under `fixtures` (the folders holding ref.y4m and dist.y4m), sorted; the
// files beside them, such as the verification stamp, are not clips.
std::vector<std::filesystem::path> fixture_clips(const std::filesystem::path& fixtures);

// The golden directory (../shared/golden), if present.
std::optional<std::filesystem::path> golden_dir();

// Path of the built `vq` executable.
std::filesystem::path vq_binary();

// A fresh empty directory for one test's files: scratch/SUITE.TEST/NAME under the build tree.
std::filesystem::path scratch_dir(const std::string& name);

}  // namespace vq::test

// Skips the current test with a message when ../shared is not beside the checkout.
#define VQ_REQUIRE_FIXTURES(var)                                                         \
    const auto var##_opt = ::vq::test::fixtures_dir();                                   \
    if (!var##_opt) GTEST_SKIP() << "../shared/fixtures not found: golden test skipped"; \
    const std::filesystem::path var = *var##_opt

namespace vq::test {

struct CommandResult {
    int exit_code = -1;
    std::string output;  // stdout and stderr together
};

// Runs `vq` with the given argument string (shell syntax) and captures its output.
CommandResult run_vq(const std::string& arguments);

// Reads a whole file.
std::string read_file(const std::filesystem::path& path);

// The names of the files in a folder.
std::set<std::string> file_names_in(const std::filesystem::path& dir);

// vq failed with `status` and one line of output naming each of `names`.
void expect_one_line_error(const CommandResult& result, int status,
                           const std::vector<std::string>& names);

}  // namespace vq::test
