#include "output_file.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <random>
#include <streambuf>
#include <utility>

#include <fmt/format.h>

#include "interrupt.hpp"
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

[[noreturn]] void folder_unusable(const std::string& given, const std::string& folder, int error) {
    const std::string message =
        fmt::format("cannot write '{}': folder '{}': {}", given, folder, std::strerror(error));
    throw is_usage_errno(error) ? usage_error(message) : runtime_error(message);
}

// An unnamed file in `folder` (O_TMPFILE): whatever ends the run before the report is complete,
// even SIGKILL or a power cut, leaves nothing behind. -1 where the file system or the kernel has
// no unnamed files, or /proc, through which one is given its name, is missing.
int create_unnamed(const std::string& given, const std::string& folder) {
    if (::access("/proc/self/fd", X_OK) != 0) return -1;
    const int fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) return -1;
    folder_unusable(given, folder, errno);
}

// Gives the name "<folder>/.<6 hex digits>.vq-partial" to what `make` makes there (false: the name
// was taken). The name is short, so any name the file system accepts for the target is possible,
// and registered for removal on a signal before it exists, so that an interrupt leaves none.
template <typename Make>
std::string name_temporary(const std::string& given, const std::string& folder, Make make) {
    std::random_device random;
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string temporary =
            (fs::path(folder) / fmt::format(".{:06x}.vq-partial", random() & 0xFFFFFF)).string();
        remove_on_interrupt(temporary);
        if (make(temporary)) return temporary;
        const int error = errno;
        remove_on_interrupt({});
        if (error != EEXIST) folder_unusable(given, folder, error);
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

// An ostream's buffer writing to a file descriptor, so a report of any length is written as it
// is formatted rather than held whole in memory. It remembers the first failed write's errno.
constexpr std::size_t write_buffer_bytes = 1 << 16;

class DescriptorBuffer final : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd) : fd_(fd) { reset(); }
    int error() const { return error_; }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
        return c;
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    void reset() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
    bool drain() {
        if (!error_) error_ = write_all(fd_, {pbase(), std::size_t(pptr() - pbase())});
        reset();
        return !error_;
    }

    int fd_;
    int error_ = 0;
    std::array<char, write_buffer_bytes> buffer_;
};

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    if (path_.empty()) throw usage_error("-o/--output: empty file name");
    const Destination destination = resolve(path_);
    target_ = destination.path;
    switch (destination.kind) {
    case Kind::stream: return;
    case Kind::direct:
        if (::access(target_.c_str(), W_OK) != 0) unusable(path_, std::strerror(errno));
        return;
    case Kind::replace:
        if (::access(target_.c_str(), W_OK) != 0) unusable(path_, std::strerror(errno));
        replaced_ = destination.info;
        break;
    case Kind::create:
        // The path is missing (a parent that is a file fails resolve() with ENOTDIR): is its
        // folder?
        if (::access(folder_of(target_).c_str(), F_OK) != 0)
            unusable(path_,
                     fmt::format("folder '{}': {}", folder_of(target_), std::strerror(errno)));
        break;
    }
    fd_ = create_unnamed(path_, folder_of(target_));
    if (fd_ < 0 && ::access(folder_of(target_).c_str(), W_OK | X_OK) != 0)
        folder_unusable(path_, folder_of(target_), errno);
    replaces_file_ = true;
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
    publish([contents](std::ostream& out) { out << contents; });
}

void OutputFile::publish(const std::function<void(std::ostream&)>& write) {
    if (path_ == "-") return write_to(STDOUT_FILENO, write);
    if (!replaces_file_) {
        // Appending, not truncating: on a device or a FIFO it makes no difference, and a file
        // behind /dev/stdout keeps what the shell's `>>` had put in it.
        fd_ = ::open(target_.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
        if (fd_ < 0) fail(errno);
        write_to(fd_, write);
        if (::close(std::exchange(fd_, -1)) != 0 && errno != EINTR) fail(errno);
        return;
    }
    if (fd_ < 0)  // no unnamed files here: a named temporary, made only now the run is done
        temporary_ = name_temporary(path_, folder_of(target_), [&](const std::string& name) {
            fd_ = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            return fd_ >= 0;
        });
    if (replaced_) {
        ::fchmod(fd_, replaced_->st_mode & 07777);
        // Only root may give a file away; anyone else's replacement is theirs, as after any
        // editor's save-by-rename.
        if (replaced_->st_uid != ::geteuid() || replaced_->st_gid != ::getegid())
            (void)!::fchown(fd_, replaced_->st_uid, replaced_->st_gid);
    }
    write_to(fd_, write);
    // A full disk often shows only here: file systems allocate blocks at write-back.
    if (::fsync(fd_) != 0) fail(errno);
    if (temporary_.empty()) {
        // The complete report gets a name for the moment it takes to rename it over the target.
        const std::string self = fmt::format("/proc/self/fd/{}", fd_);
        temporary_ = name_temporary(path_, folder_of(target_), [&](const std::string& name) {
            return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0;
        });
    }
    if (::close(std::exchange(fd_, -1)) != 0 && errno != EINTR) fail(errno);
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail(errno);
    temporary_.clear();
    remove_on_interrupt({});
}

void OutputFile::write_to(int fd, const std::function<void(std::ostream&)>& write) const {
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    write(out);
    out.flush();
    if (buffer.error()) fail(buffer.error());
}

}  // namespace vq::cli
