#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {
namespace {

// Big enough that small frames and line reads cost few system calls, small enough that the extra
// copy of the bytes that follow a FRAME marker does not matter.
constexpr std::size_t buffer_bytes = 64 * 1024;

// Linux transfers at most about 2 GiB per read(); a 16K 16-bit 4:4:4 frame is 1.6 GB, so chunk
// anyway to stay within that on every platform.
constexpr std::size_t max_read_bytes = std::size_t(1) << 30;

}  // namespace

InputFile::InputFile(std::string path) : path_(std::move(path)) {
    // "-" is standard input (a Y4M stream piped from ffmpeg, say); a duplicate descriptor keeps
    // closing uniform.
    fd_ = path_ == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
                       : ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0)
        throw runtime_error(fmt::format("cannot open '{}': {}", path_, std::strerror(errno)));
    struct stat info {};
    if (::fstat(fd_, &info) == 0 && S_ISDIR(info.st_mode)) {
        ::close(fd_);
        throw runtime_error(fmt::format("cannot open '{}': {}", path_, std::strerror(EISDIR)));
    }
    regular_ = S_ISREG(info.st_mode);
    if (regular_) size_ = std::size_t(info.st_size);
    // Frames are read front to back once: ask for aggressive kernel read-ahead.
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
    buffer_ = std::make_unique_for_overwrite<std::byte[]>(buffer_bytes);
}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

InputFile::InputFile(InputFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      regular_(other.regular_),
      size_(other.size_),
      offset_(other.offset_),
      buffer_(std::move(other.buffer_)),
      begin_(other.begin_),
      end_(other.end_) {}

std::optional<std::size_t> InputFile::bytes_left() const {
    if (!regular_) return std::nullopt;
    return size_ - std::min(offset_, size_);
}

std::size_t InputFile::read_some(std::byte* dest, std::size_t count) {
    for (;;) {
        const ssize_t got = ::read(fd_, dest, std::min(count, max_read_bytes));
        if (got >= 0) return static_cast<std::size_t>(got);
        if (errno != EINTR)
            throw runtime_error(fmt::format("'{}': read error at byte {}: {}", path_, offset_,
                                            std::strerror(errno)));
    }
}

std::size_t InputFile::read_at(std::size_t offset, std::byte* dest, std::size_t count) const {
    std::size_t done = 0;
    while (done < count) {
        const ssize_t got = ::pread(fd_, dest + done, std::min(count - done, max_read_bytes),
                                    static_cast<off_t>(offset + done));
        if (got == 0) break;
        if (got > 0) {
            done += static_cast<std::size_t>(got);
        } else if (errno != EINTR) {
            throw runtime_error(fmt::format("'{}': read error at byte {}: {}", path_, offset + done,
                                            std::strerror(errno)));
        }
    }
    return done;
}

void InputFile::seek(std::size_t offset) {
    if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0)
        throw runtime_error(
            fmt::format("'{}': cannot seek to byte {}: {}", path_, offset, std::strerror(errno)));
    offset_ = offset;
    begin_ = end_ = 0;  // the buffered bytes belonged to the old position
}

bool InputFile::refill() {
    begin_ = 0;
    end_ = read_some(buffer_.get(), buffer_bytes);
    return end_ > 0;
}

bool InputFile::at_end() { return begin_ == end_ && !refill(); }

InputFile::LineEnd InputFile::read_line(std::string& line, std::size_t max_length) {
    line.clear();
    for (;;) {
        if (begin_ == end_ && !refill()) return LineEnd::end_of_file;
        const char* start = reinterpret_cast<const char*>(buffer_.get() + begin_);
        const std::size_t available = end_ - begin_;
        const std::size_t room = max_length - line.size();
        // The '\n' may sit just past the last allowed byte, hence room + 1.
        const std::size_t scanned = std::min(available, room + 1);
        if (const void* newline = std::memchr(start, '\n', scanned)) {
            const std::size_t length = static_cast<const char*>(newline) - start;
            line.append(start, length);
            begin_ += length + 1;
            offset_ += length + 1;
            return LineEnd::newline;
        }
        const std::size_t taken = std::min(available, room);
        line.append(start, taken);
        begin_ += taken;
        offset_ += taken;
        if (available > room) return LineEnd::too_long;
    }
}

std::size_t InputFile::read(std::byte* dest, std::size_t count) {
    std::size_t done = std::min(count, end_ - begin_);
    std::memcpy(dest, buffer_.get() + begin_, done);
    begin_ += done;
    offset_ += done;
    while (done < count) {
        const std::size_t got = read_some(dest + done, count - done);
        if (got == 0) break;
        done += got;
        offset_ += got;
    }
    return done;
}

std::size_t InputFile::discard(std::size_t count) {
    std::size_t done = 0;
    while (done < count) {
        if (begin_ == end_ && !refill()) break;
        const std::size_t taken = std::min(count - done, end_ - begin_);
        begin_ += taken;
        offset_ += taken;
        done += taken;
    }
    return done;
}

}  // namespace vq
