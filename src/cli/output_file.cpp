#include "cli/output_file.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "cli/interrupt.hpp"
#include "vq/error.hpp"

namespace vq::cli {
namespace {

namespace fs = std::filesystem;

constexpr int max_link_hops = 40;  // the kernel's own limit before ELOOP

std::string folder_of(const std::string& path) {
    const fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? "." : parent.string();
}

// /dev/stdout, /dev/fd/N and /proc/self/fd/N are links on procfs that name an open file, not a
// directory entry: a pipe, a terminal, or a file the shell opened, to be written where it is.
bool names_an_open_file(const std::string& link) {
    struct statfs info {};
    return ::statfs(folder_of(link).c_str(), &info) == 0 && info.f_type == PROC_SUPER_MAGIC;
}

enum class Kind { stream, direct, replace, create };

struct Destination {
    Kind kind;
    std::string path;     // the file to write (direct: the path as given)
    struct stat info {};  // replace: the file replaced
};

[[noreturn]] void unusable(const std::string& given, const std::string& reason) {
    throw usage_error(fmt::format("cannot write '{}': {}", given, reason));
}

// Follows `given` through its symbolic links to what will be written.
Destination resolve(const std::string& given) {
    if (given == "-") return {Kind::stream, given};
    std::string path = given;
    for (int hop = 0; hop < max_link_hops; ++hop) {
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0) {
            if (errno == ENOENT) return {Kind::create, path};
            unusable(given, std::strerror(errno));
        }
        if (S_ISLNK(info.st_mode)) {
            if (names_an_open_file(path)) return {Kind::direct, given};
            std::error_code error;
            const fs::path target = fs::read_symlink(path, error);
            if (error) unusable(given, error.message());
            path = target.is_absolute() ? target.string()
                                        : (fs::path(folder_of(path)) / target).string();
            continue;
        }
        if (S_ISDIR(info.st_mode)) unusable(given, std::strerror(EISDIR));
        if (S_ISREG(info.st_mode)) return {Kind::replace, path, info};
        return {Kind::direct, given};
    }
    unusable(given, std::strerror(ELOOP));
}

// Errors that say the user named an impossible place, as opposed to a failure of the system.
bool is_usage_errno(int error) {
    return error == EACCES || error == EPERM || error == EROFS || error == ENOENT ||
           error == ENOTDIR || error == ENAMETOOLONG;
}

// Creates "<target>.<6 hex digits>.vq-partial", registered for removal on a signal before it
// exists, so an interrupt at any moment leaves none behind. 0666 lets the umask decide the mode
// of a new file, as for any file a program creates.
int create_temporary(const std::string& given, const std::string& target, std::string& temporary) {
    std::random_device random;
    for (int attempt = 0; attempt < 100; ++attempt) {
        temporary = fmt::format("{}.{:06x}.vq-partial", target, random() & 0xFFFFFF);
        remove_on_interrupt(temporary);
        const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        const int error = errno;
        remove_on_interrupt({});
        if (error == EEXIST) continue;
        const std::string message = fmt::format("cannot write '{}': folder '{}': {}", given,
                                                folder_of(target), std::strerror(error));
        throw is_usage_errno(error) ? usage_error(message) : runtime_error(message);
    }
    throw runtime_error(fmt::format("cannot write '{}': no free temporary name beside it", given));
}

// 0, or the errno of the failed write.
int write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd, bytes.data(), bytes.size());
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) return errno;
        if (written == 0) return EIO;
        bytes.remove_prefix(std::size_t(written));
    }
    return 0;
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    const Destination destination = resolve(path_);
    target_ = destination.path;
    switch (destination.kind) {
    case Kind::stream: return;
    case Kind::direct:
        if (::access(target_.c_str(), W_OK) != 0) unusable(path_, std::strerror(errno));
        return;
    case Kind::replace:
        if (::access(target_.c_str(), W_OK) != 0) unusable(path_, std::strerror(errno));
        break;
    case Kind::create: {
        // The path is missing (a parent that is a file fails resolve() with ENOTDIR): is its
        // folder?
        const std::string folder = folder_of(target_);
        if (::access(folder.c_str(), F_OK) != 0)
            unusable(path_, fmt::format("folder '{}': {}", folder, std::strerror(errno)));
        break;
    }
    }
    fd_ = create_temporary(path_, target_, temporary_);
    if (destination.kind == Kind::replace) {
        ::fchmod(fd_, destination.info.st_mode & 07777);
        // Only root may give a file away; anyone else's replacement is theirs, as after any
        // editor's save-by-rename.
        if (destination.info.st_uid != ::geteuid() || destination.info.st_gid != ::getegid())
            (void)!::fchown(fd_, destination.info.st_uid, destination.info.st_gid);
    }
}

OutputFile::~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (temporary_.empty()) return;
    ::unlink(temporary_.c_str());
    remove_on_interrupt({});
}

void OutputFile::fail(int error) const {
    throw runtime_error(fmt::format("cannot write '{}': {}", path_, std::strerror(error)));
}

void OutputFile::publish(std::string_view contents) {
    if (path_ == "-") {
        if (const int error = write_all(STDOUT_FILENO, contents)) fail(error);
        return;
    }
    // Appending, not truncating: on a device or a FIFO it makes no difference, and a file behind
    // /dev/stdout keeps what the shell's `>>` had put in it.
    if (temporary_.empty() &&
        (fd_ = ::open(target_.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC)) < 0)
        fail(errno);
    if (const int error = write_all(fd_, contents)) fail(error);
    // A full disk often shows only here: file systems allocate blocks at write-back.
    if (!temporary_.empty() && ::fsync(fd_) != 0) fail(errno);
    if (::close(std::exchange(fd_, -1)) != 0 && errno != EINTR) fail(errno);
    if (temporary_.empty()) return;
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail(errno);
    temporary_.clear();
    remove_on_interrupt({});
}

}  // namespace vq::cli
