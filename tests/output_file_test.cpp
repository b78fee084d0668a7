// OutputFile: -o never damages what it writes to. Every file, link, FIFO and device node lives in
// the test's own scratch folder; device nodes need mknod, and those tests skip where it is refused.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli/output_file.hpp"
#include "fifo_test_support.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq::cli {
namespace {

namespace fs = std::filesystem;
using test::error_of;
using test::read_file;
using test::write_file;

std::set<std::string> names_in(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.insert(entry.path().filename().string());
    return names;
}

mode_t mode_of(const fs::path& path) {
    struct stat info {};
    EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
    return info.st_mode & 07777;
}

// A device node like /dev/null (1,3) or /dev/full (1,7), made in `dir`; nullopt where the system
// refuses to make or open one (no CAP_MKNOD, a nodev mount).
std::optional<fs::path> device_node(const fs::path& dir, const char* name, unsigned minor) {
    const fs::path path = dir / name;
    if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) != 0) return std::nullopt;
    const int fd = ::open(path.c_str(), O_WRONLY);
    if (fd < 0) return std::nullopt;
    ::close(fd);
    return path;
}

struct Umask {
    explicit Umask(mode_t mask) : saved(::umask(mask)) {}
    ~Umask() { ::umask(saved); }
    mode_t saved;
};

TEST(OutputFile, NewFileAppearsOnlyWhenPublishedWithTheUmasksMode) {
    const Umask umask(022);
    const fs::path dir = test::scratch_dir("output_new");
    const fs::path path = dir / "scores.json";
    {
        OutputFile output(path.string());
        EXPECT_FALSE(fs::exists(path)) << "the report appears only once complete";
        output.publish("{}\n");
    }
    EXPECT_EQ(read_file(path), "{}\n");
    EXPECT_EQ(mode_of(path), 0644u);
    EXPECT_EQ(names_in(dir), std::set<std::string>{"scores.json"});
}

TEST(OutputFile, ReplacesARegularFileKeepingItsMode) {
    const fs::path dir = test::scratch_dir("output_replace");
    const fs::path path = write_file(dir / "scores.xml", "old");
    fs::permissions(path, fs::perms(0640));
    {
        OutputFile output(path.string());
        EXPECT_EQ(read_file(path), "old") << "the old file stays until the new one is complete";
        output.publish("new");
    }
    EXPECT_EQ(read_file(path), "new");
    EXPECT_EQ(mode_of(path), 0640u);
    EXPECT_EQ(names_in(dir), std::set<std::string>{"scores.xml"});
}

TEST(OutputFile, AnUnpublishedRunLeavesTheOldFileAndNoTemporary) {
    const fs::path dir = test::scratch_dir("output_unpublished");
    const fs::path path = write_file(dir / "scores.csv", "old");
    { OutputFile output(path.string()); }
    { OutputFile output((dir / "new.csv").string()); }
    EXPECT_EQ(read_file(path), "old");
    EXPECT_EQ(names_in(dir), std::set<std::string>{"scores.csv"});
}

TEST(OutputFile, WritesThroughASymlinkAndKeepsTheLink) {
    const fs::path dir = test::scratch_dir("output_symlink");
    fs::create_directory(dir / "real");
    write_file(dir / "real" / "scores.json", "old");
    fs::create_symlink("real/scores.json", dir / "link.json");
    fs::create_symlink("real/new.json", dir / "dangling.json");
    OutputFile((dir / "link.json").string()).publish("through the link");
    OutputFile((dir / "dangling.json").string()).publish("made at the target");
    EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
    EXPECT_TRUE(fs::is_symlink(dir / "dangling.json"));
    EXPECT_EQ(read_file(dir / "real" / "scores.json"), "through the link");
    EXPECT_EQ(read_file(dir / "real" / "new.json"), "made at the target");
    EXPECT_EQ(names_in(dir / "real"), (std::set<std::string>{"scores.json", "new.json"}));
}

TEST(OutputFile, WritesAFifoInPlace) {
    const fs::path dir = test::scratch_dir("output_fifo");
    const fs::path fifo = dir / "scores.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const int reader = test::open_fifo_reader(fifo);
    ASSERT_GE(reader, 0) << std::strerror(errno);
    OutputFile(fifo.string()).publish("to the reader");
    EXPECT_EQ(test::read_available(reader), "to the reader");
    ::close(reader);
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode)) << "the FIFO was replaced";
    EXPECT_EQ(names_in(dir), std::set<std::string>{"scores.fifo"});
}

// /dev/stdout and /dev/fd/N lead to /proc/self/fd/N, a link that names an open file (here a
// pipe), not a directory entry: written in place, whatever it leads to.
TEST(OutputFile, WritesAnOpenFileNamedThroughProcInPlace) {
    const fs::path dir = test::scratch_dir("output_proc_link");
    int pipe_ends[2];
    ASSERT_EQ(::pipe(pipe_ends), 0);
    fs::create_symlink(fmt::format("/proc/self/fd/{}", pipe_ends[1]), dir / "stdout");
    OutputFile((dir / "stdout").string()).publish("down the pipe");
    ::close(pipe_ends[1]);
    char buffer[64] = {};
    EXPECT_EQ(std::string(buffer, std::size_t(::read(pipe_ends[0], buffer, sizeof buffer))),
              "down the pipe");
    ::close(pipe_ends[0]);
    EXPECT_TRUE(fs::is_symlink(dir / "stdout"));
    EXPECT_EQ(names_in(dir), std::set<std::string>{"stdout"});
}

TEST(OutputFile, WritesACharacterDeviceInPlace) {
    const fs::path dir = test::scratch_dir("output_device");
    const auto null = device_node(dir, "null", 3);
    if (!null)
        GTEST_SKIP() << "cannot make a device node here (mknod: " << std::strerror(errno) << ")";
    OutputFile(null->string()).publish("discarded");
    struct stat info {};
    ASSERT_EQ(::lstat(null->c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode)) << "the device node was replaced";
    EXPECT_EQ(names_in(dir), std::set<std::string>{"null"});
}

TEST(OutputFile, AFullDeviceIsARunTimeError) {
    const fs::path dir = test::scratch_dir("output_full");
    const auto full = device_node(dir, "full", 7);
    if (!full)
        GTEST_SKIP() << "cannot make a device node here (mknod: " << std::strerror(errno) << ")";
    OutputFile output(full->string());
    EXPECT_EQ(error_of([&] { output.publish("no room"); }),
              fmt::format("cannot write '{}': {}", full->string(), std::strerror(ENOSPC)));
}

TEST(OutputFile, ImpossiblePlacesAreUsageErrorsAtOnce) {
    const fs::path dir = test::scratch_dir("output_impossible");
    const auto usage_error_of = [](const fs::path& path) {
        return error_of([&] { OutputFile output(path.string()); }, ErrorKind::usage);
    };
    EXPECT_EQ(usage_error_of(dir), fmt::format("cannot write '{}': Is a directory", dir.string()));
    EXPECT_EQ(usage_error_of(dir / "missing" / "scores.json"),
              fmt::format("cannot write '{0}/missing/scores.json': folder '{0}/missing': No such "
                          "file or directory",
                          dir.string()));
    write_file(dir / "file", "");
    EXPECT_EQ(usage_error_of(dir / "file" / "scores.json"),
              fmt::format("cannot write '{}/file/scores.json': Not a directory", dir.string()));
    EXPECT_EQ(names_in(dir), std::set<std::string>{"file"});
}

TEST(OutputFile, NoWritePermissionIsAUsageError) {
    const fs::path dir = test::scratch_dir("output_permission");
    const fs::path locked = dir / "locked";
    fs::create_directory(locked);
    const fs::path read_only = write_file(dir / "read_only.json", "keep");
    fs::permissions(locked, fs::perms(0500));
    fs::permissions(read_only, fs::perms(0444));
    if (::access(locked.c_str(), W_OK) == 0) {
        fs::permissions(locked, fs::perms(0700));
        GTEST_SKIP() << "permissions are not enforced for this user (root)";
    }
    EXPECT_EQ(
        error_of([&] { OutputFile output((locked / "scores.json").string()); }, ErrorKind::usage),
        fmt::format("cannot write '{0}/scores.json': folder '{0}': Permission denied",
                    locked.string()));
    EXPECT_EQ(error_of([&] { OutputFile output(read_only.string()); }, ErrorKind::usage),
              fmt::format("cannot write '{}': Permission denied", read_only.string()));
    EXPECT_EQ(read_file(read_only), "keep");
    fs::permissions(locked, fs::perms(0700));
    EXPECT_TRUE(fs::is_empty(locked));
}

}  // namespace
}  // namespace vq::cli
