// A starved machine: when threads cannot be started or memory runs out, vq exits 1 within
// seconds with one line saying what it could not get, instead of hanging on work no thread will
// do or aborting. The limits are set in a shell for vq alone (ulimit), and root is not exempt
// from these two: RLIMIT_STACK sizes every new thread's stack, which RLIMIT_AS must hold.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ffmpeg_test_support.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;

constexpr VideoFormat clip_format{64, 48, 8, ChromaFormat::yuv420};
const std::string clip_header = "YUV4MPEG2 W64 H48 F25:1 Ip C420";
constexpr int seconds_allowed = 30;  // `timeout` ends a hang with status 124

struct Starved {
    test::CommandResult result;
    double seconds = 0;
};

// Runs vq under `limits` (shell ulimit commands), with a deadline.
Starved run_starved(const std::string& limits, const std::string& arguments) {
    const auto start = std::chrono::steady_clock::now();
    Starved run;
    run.result =
        test::run_shell(fmt::format("{}; exec timeout -s KILL {} '{}' {}", limits, seconds_allowed,
                                    test::vq_binary().string(), arguments));
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return run;
}

void expect_clean_failure(const Starved& run, const std::string& names) {
    EXPECT_EQ(run.result.exit_code, 1) << run.result.output;
    EXPECT_LT(run.seconds, seconds_allowed) << "vq hung";
    EXPECT_NE(run.result.output.find(names), std::string::npos) << run.result.output;
    EXPECT_EQ(std::count(run.result.output.begin(), run.result.output.end(), '\n'), 1)
        << run.result.output;
}

fs::path clip(const std::string& name) {
    const fs::path dir = test::scratch_dir(name);
    return test::write_file(dir / "clip.y4m", test::y4m_file(clip_header, clip_format, 12));
}

// A clip of more than 1 MiB, which vq reads ahead on threads of its own (worth_reading_ahead).
fs::path large_clip(const std::string& name) {
    constexpr VideoFormat format{640, 480, 8, ChromaFormat::yuv420};
    const fs::path dir = test::scratch_dir(name);
    return test::write_file(dir / "clip.y4m",
                            test::y4m_file("YUV4MPEG2 W640 H480 F25:1 Ip C420", format, 4));
}

// AddressSanitizer reserves terabytes of address space for its shadow memory when vq starts, which
// an address-space limit (ulimit -v) forbids: under it, vq cannot even start, so the tests that
// starve vq of address space skip in the sanitizer build (the ordinary build runs them).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool address_sanitizer = true;
#elif defined(__has_feature)
constexpr bool address_sanitizer = __has_feature(address_sanitizer);
#else
constexpr bool address_sanitizer = false;
#endif
#define VQ_SKIP_UNDER_ADDRESS_SANITIZER()                                                    \
    if (address_sanitizer)                                                                   \
    GTEST_SKIP() << "AddressSanitizer's shadow memory does not fit an address-space limit: " \
                    "run in the ordinary build"

// Stacks of 1 GiB in 1.5 GiB of address space: vq itself fits, a second thread does not.
const std::string no_second_thread = "ulimit -s 1048576 && ulimit -v 1572864";

TEST(HostileResources, ThreadsThatCannotStartEndTheRunWithOneLine) {
    VQ_SKIP_UNDER_ADDRESS_SANITIZER();
    const fs::path y4m = large_clip("hostile_threads");
    for (const char* threads : {"--threads 1", "--threads 2", ""}) {
        SCOPED_TRACE(threads);
        expect_clean_failure(
            run_starved(no_second_thread, fmt::format("-r '{0}' -d '{0}' -q --feature psnr {1}",
                                                      y4m.string(), threads)),
            "thread");
    }
}

// A clip under 1 MiB is read without reading threads: one worker is all that --threads 1 needs.
TEST(HostileResources, ASmallClipNeedsNoReadingThread) {
    VQ_SKIP_UNDER_ADDRESS_SANITIZER();
    const fs::path y4m = clip("hostile_small_threads");
    const auto run =
        run_starved(no_second_thread,
                    fmt::format("-r '{0}' -d '{0}' -q --feature psnr --threads 1", y4m.string()));
    EXPECT_EQ(run.result.exit_code, 0) << run.result.output;
}

TEST(HostileResources, MemoryThatRunsOutEndsTheRunWithOneLine) {
    VQ_SKIP_UNDER_ADDRESS_SANITIZER();
    const fs::path dir = test::scratch_dir("hostile_memory");
    // Sparse: 100 MB frames that take no disk.
    const fs::path big = dir / "big.yuv";
    test::write_file(big, "");
    fs::resize_file(big, 8192 * 8192 * 3 / 2 * 4);
    // 400 MB of address space holds the process and fewer than the first frames in flight
    // (600 MB held them on a quick machine now and then: a run that succeeded).
    const auto run = run_starved("ulimit -v 400000",
                                 fmt::format("-r '{0}' -d '{0}' -q --feature psnr -w 8192 -h 8192 "
                                             "-p 420 -b 8 --threads 2",
                                             big.string()));
    EXPECT_EQ(run.result.exit_code, 1) << run.result.output;
    EXPECT_LT(run.seconds, seconds_allowed) << "vq hung";
    const std::string& said = run.result.output;
    EXPECT_TRUE(said.find("cannot allocate") != std::string::npos ||
                said.find("out of memory") != std::string::npos ||
                said.find("thread") != std::string::npos)
        << said;
    EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
}

TEST(HostileResources, AbsurdThreadCountsAreCappedToTheCores) {
    const fs::path y4m = clip("hostile_many_threads");
    const auto run = run_starved(
        "ulimit -u 4096",
        fmt::format("-r '{0}' -d '{0}' -q --feature psnr --threads 3000 --decode-threads 3000",
                    y4m.string()));
    EXPECT_EQ(run.result.exit_code, 0) << run.result.output;
}

}  // namespace
}  // namespace vq
