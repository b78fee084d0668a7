#include "test_support.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include <fmt/format.h>

namespace vq::test {

// Each path can be overridden from the environment, for running a build on another machine
// (scripts/device_round.sh runs the tests on the GPU machine from a different directory).
std::filesystem::path configured(const char* variable, const char* built_in) {
    const char* value = std::getenv(variable);
    return value && *value ? value : built_in;
}

std::optional<std::filesystem::path> shared_dir() {
    const std::filesystem::path dir = configured("VQ_TEST_SHARED_DIR", VQ_SHARED_DIR);
    if (std::filesystem::is_directory(dir / "fixtures")) return dir;
    return std::nullopt;
}

std::optional<std::filesystem::path> fixtures_dir() {
    static std::once_flag once;
    static std::optional<std::filesystem::path> result;
    std::call_once(once, [] {
        const auto shared = shared_dir();
        if (!shared) return;
        const std::filesystem::path dest =
            configured("VQ_TEST_BINARY_DIR", VQ_BINARY_DIR) / "fixtures";
        // ctest runs tests in parallel processes: one unpacks while the others wait on the lock
        // (two unpacking at once made one fail and its test skip).
        std::error_code error;
        std::filesystem::create_directories(dest.parent_path(), error);
        const int lock =
            ::open((dest.string() + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
        if (lock >= 0) ::flock(lock, LOCK_EX);
        const struct Unlock {
            int fd;
            ~Unlock() {
                if (fd >= 0) ::close(fd);  // closing releases the lock
            }
        } unlock{lock};
        // unpack.sh verifies every file's checksum, about a second; ctest runs each test in its
        // own process, so a stamp newer than the manifest records a verified unpack.
        const auto manifest = *shared / "fixtures" / "MANIFEST.sha256";
        const auto stamp = dest / ".verified";
        if (std::filesystem::exists(stamp) &&
            std::filesystem::last_write_time(stamp, error) >=
                std::filesystem::last_write_time(manifest, error)) {
            result = dest;
            return;
        }
        const std::string command =
            fmt::format("\"{}\" \"{}\" > /dev/null", (*shared / "fixtures" / "unpack.sh").string(),
                        dest.string());
        if (std::system(command.c_str()) != 0) return;
        std::ofstream(stamp).put('\n');
        result = dest;
    });
    return result;
}

std::optional<std::filesystem::path> golden_dir() {
    const auto shared = shared_dir();
    if (!shared) return std::nullopt;
    return *shared / "golden";
}

std::filesystem::path vq_binary() { return configured("VQ_TEST_CLI", VQ_CLI_PATH); }

std::filesystem::path scratch_dir(const std::string& name) {
    // ctest runs each test in its own process, in parallel: a folder per running test, so that
    // two instances of one parameterised test never clear each other's files.
    std::string test = "outside-a-test";
    if (const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info())
        test = std::string(info->test_suite_name()) + "." + info->name();
    std::replace(test.begin(), test.end(), '/', '_');
    const auto dir = configured("VQ_TEST_BINARY_DIR", VQ_BINARY_DIR) / "scratch" / test / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

CommandResult run_vq(const std::string& arguments) {
    CommandResult result;
    const std::string command = fmt::format("\"{}\" {} 2>&1", vq_binary().string(), arguments);
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    std::size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::set<std::string> file_names_in(const std::filesystem::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.insert(entry.path().filename().string());
    return names;
}

void expect_one_line_error(const CommandResult& result, int status,
                           const std::vector<std::string>& names) {
    EXPECT_EQ(result.exit_code, status) << result.output;
    for (const std::string& name : names)
        EXPECT_NE(result.output.find(name), std::string::npos)
            << "should name '" << name << "': " << result.output;
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1)
        << "one line: " << result.output;
}

std::vector<std::filesystem::path> fixture_clips(const std::filesystem::path& fixtures) {
    std::vector<std::filesystem::path> clips;
    for (const auto& entry : std::filesystem::directory_iterator(fixtures))
        if (entry.is_directory() && std::filesystem::exists(entry.path() / "ref.y4m"))
            clips.push_back(entry.path());
    std::sort(clips.begin(), clips.end());
    return clips;
}

}  // namespace vq::test
