// `vq -o`: checked before any frame is read, written in place where it is not a regular file,
// every write checked, nothing left behind by a signal. Every path the tests write lives in the
// test's scratch folder (standard output being the test's own pipe).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fifo_test_support.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"

extern char** environ;

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::write_file;

constexpr VideoFormat clip_format{64, 48, 8, ChromaFormat::yuv420};
const std::string clip_header = "YUV4MPEG2 W64 H48 F25:1 Ip C420";

struct Clip {
    fs::path dir, ref, dist;
};

Clip make_clip(const std::string& name) {
    Clip clip{test::scratch_dir(name), {}, {}};
    clip.ref = write_file(clip.dir / "ref.y4m", test::y4m_file(clip_header, clip_format, 3));
    clip.dist = write_file(clip.dir / "dist.y4m", test::y4m_file(clip_header, clip_format, 3));
    return clip;
}

std::string q(const fs::path& path) { return fmt::format("\"{}\"", path.string()); }

std::string inputs(const Clip& clip) {
    return fmt::format("-r {} -d {} --feature psnr", q(clip.ref), q(clip.dist));
}

// The output path is a usage error before the first frame is read: here the distorted input's
// first frame is truncated, and the error is about the output all the same.
TEST(CliOutput, ImpossiblePathFailsBeforeTheFirstFrame) {
    const Clip clip = make_clip("cli_output_early");
    write_file(clip.dist, clip_header + "\nFRAME\nxyz");
    const std::string run = inputs(clip) + " -o ";
    test::expect_one_line_error(test::run_vq(run + q(clip.dir)), 2,
                                {clip.dir.string() + "': Is a directory"});
    test::expect_one_line_error(
        test::run_vq(run + q(clip.dir / "missing" / "out.json")), 2,
        {"folder '" + (clip.dir / "missing").string() + "': No such file or directory"});
    EXPECT_EQ(test::file_names_in(clip.dir), (std::set<std::string>{"ref.y4m", "dist.y4m"}));
}

TEST(CliOutput, DashWritesStandardOutput) {
    const Clip clip = make_clip("cli_output_dash");
    // Were "-" taken for a file name, it would land in the working folder: make that the scratch
    // one.
    const fs::path previous = fs::current_path();
    fs::current_path(clip.dir);
    const auto result = test::run_vq(inputs(clip) + " -q --json -o -");
    fs::current_path(previous);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    ASSERT_TRUE(nlohmann::json::accept(result.output)) << result.output;
    EXPECT_EQ(nlohmann::json::parse(result.output)["frames"].size(), 3u);
    EXPECT_EQ(test::file_names_in(clip.dir), (std::set<std::string>{"ref.y4m", "dist.y4m"}));
}

// What -o /dev/stdout does: a link to /proc/self/fd/1, here this test's pipe.
TEST(CliOutput, ProcLinkToStandardOutputWritesThePipe) {
    const Clip clip = make_clip("cli_output_stdout");
    fs::create_symlink("/proc/self/fd/1", clip.dir / "stdout");
    const auto result = test::run_vq(inputs(clip) + " -q --json -o " + q(clip.dir / "stdout"));
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_TRUE(nlohmann::json::accept(result.output)) << result.output;
    EXPECT_TRUE(fs::is_symlink(clip.dir / "stdout"));
    EXPECT_EQ(test::file_names_in(clip.dir),
              (std::set<std::string>{"ref.y4m", "dist.y4m", "stdout"}));
}

TEST(CliOutput, FifoReaderGetsTheScores) {
    const Clip clip = make_clip("cli_output_fifo");
    const fs::path fifo = clip.dir / "scores.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const int reader = test::open_fifo_reader(fifo);
    ASSERT_GE(reader, 0) << std::strerror(errno);
    const auto result = test::run_vq(inputs(clip) + " -q --csv -o " + q(fifo));
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(test::read_available(reader).rfind("Frame,", 0), 0u);
    ::close(reader);
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode)) << "the FIFO was replaced by a file";
}

TEST(CliOutput, FullDeviceIsAOneLineRunTimeError) {
    const Clip clip = make_clip("cli_output_full");
    const fs::path full = clip.dir / "full";
    if (::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
        GTEST_SKIP() << "cannot make a device node here (mknod: " << std::strerror(errno) << ")";
    if (const int fd = ::open(full.c_str(), O_WRONLY); fd >= 0)
        ::close(fd);
    else
        GTEST_SKIP() << "cannot open a device node here (" << std::strerror(errno) << ")";
    test::expect_one_line_error(test::run_vq(inputs(clip) + " -q -o " + q(full)), 1,
                                {"No space left on device"});
    struct stat info {};
    ASSERT_EQ(::lstat(full.c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode)) << "the device node was replaced by a file";
}

std::string last_log;  // what the last vq that a signal ended said

// vq reading its distorted input from a FIFO this test feeds, so that it is surely mid-run.
struct RunningVq {
    pid_t pid = -1;
    int feed = -1;
};

RunningVq start_vq_on_fifo(const Clip& clip, const fs::path& fifo, const fs::path& out,
                           const fs::path& log) {
    RunningVq run;
    const std::string vq = test::vq_binary().string();
    std::vector<std::string> words = {vq,          "-r",   clip.ref.string(), "-d", fifo.string(),
                                      "--feature", "psnr", "--json",          "-o", out.string()};
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    const int spawned = posix_spawn(&run.pid, vq.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return {};
    // Opening a FIFO's write end without a reader fails (ENXIO) rather than blocks with O_NONBLOCK:
    // wait for vq to open it, but not forever.
    for (int attempt = 0; attempt < 1000 && run.feed < 0; ++attempt) {
        run.feed = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (run.feed < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (run.feed >= 0) ::fcntl(run.feed, F_SETFL, 0);
    return run;
}

// Sends `signal` to a vq that is mid-run and returns how it ended; the folder must then hold no
// partial output file.
int wait_status_after(int signal, const std::string& name) {
    const Clip clip = make_clip("cli_output_" + name);
    const fs::path fifo = clip.dir / "dist.fifo", out = clip.dir / "out.json",
                   log = clip.dir / "log";
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const RunningVq run = start_vq_on_fifo(clip, fifo, out, log);
    if (run.pid <= 0 || run.feed < 0) {
        ADD_FAILURE() << "cannot start vq, or it never opened its input";
        return -1;
    }
    // A header and one frame: vq is then waiting for the second, its output file open.
    const std::string first = test::y4m_file(clip_header, clip_format, 1);
    const auto previous_handler = ::signal(SIGPIPE, SIG_IGN);  // vq may have failed and gone
    EXPECT_EQ(::write(run.feed, first.data(), first.size()), ssize_t(first.size()));
    ::signal(SIGPIPE, previous_handler);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(run.pid, signal);
    int wait_status = 0;
    EXPECT_EQ(::waitpid(run.pid, &wait_status, 0), run.pid);
    ::close(run.feed);
    EXPECT_EQ(test::file_names_in(clip.dir),
              (std::set<std::string>{"ref.y4m", "dist.y4m", "dist.fifo", "log"}))
        << "a partial output file was left behind";
    last_log = test::read_file(log);
    return wait_status;
}

void expect_clean_exit_on(int signal, int status, const std::string& name) {
    const int wait_status = wait_status_after(signal, name);
    ASSERT_TRUE(WIFEXITED(wait_status))
        << "vq died of signal " << WTERMSIG(wait_status) << " instead of exiting";
    EXPECT_EQ(WEXITSTATUS(wait_status), status);
    EXPECT_NE(last_log.find("vq: "), std::string::npos) << last_log;
    std::string upper = name;
    for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_NE(last_log.find("(" + upper + ")"), std::string::npos) << last_log;
    EXPECT_EQ(std::count(last_log.begin(), last_log.end(), '\n'), 1) << last_log;
}

TEST(CliOutput, SigintLeavesNothingBehindAndExits130) {
    expect_clean_exit_on(SIGINT, 130, "sigint");
}

TEST(CliOutput, SigtermLeavesNothingBehindAndExits143) {
    expect_clean_exit_on(SIGTERM, 143, "sigterm");
}

// Every other signal whose default action ends a process ends vq the same way.
TEST(CliOutput, EveryEndingSignalLeavesNothingBehind) {
    for (const auto& [signal, name] :
         {std::pair{SIGHUP, "sighup"}, std::pair{SIGQUIT, "sigquit"}, std::pair{SIGUSR1, "sigusr1"},
          std::pair{SIGUSR2, "sigusr2"}, std::pair{SIGALRM, "sigalrm"}}) {
        SCOPED_TRACE(name);
        expect_clean_exit_on(signal, 128 + signal, name);
    }
}

// A crash ends vq as the signal would (a core dump where enabled) after its line; SIGKILL cannot
// be caught, and the report, written to an unnamed file, has no name to leave behind.
TEST(CliOutput, CrashesAndSigkillLeaveNothingBehind) {
    for (const auto& [signal, name] : {std::pair{SIGSEGV, "sigsegv"}, std::pair{SIGBUS, "sigbus"},
                                       std::pair{SIGKILL, "sigkill"}}) {
        SCOPED_TRACE(name);
        const int wait_status = wait_status_after(signal, name);
        ASSERT_TRUE(WIFSIGNALED(wait_status));
        EXPECT_EQ(WTERMSIG(wait_status), signal);
    }
}

}  // namespace
}  // namespace vq
