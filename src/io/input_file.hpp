// A read-only file with just enough buffering for short text lines (Y4M headers and FRAME
// markers) in front of large unbuffered reads straight into frame memory.
//
// Frame data dominates: a 4K frame is 12 MB, and copying it through a stdio-sized buffer would
// double the memory traffic. read() therefore hands out whatever the small buffer holds and then
// lets the kernel copy the rest directly into the destination, so reading runs at page-cache
// copy speed with one system call per frame.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace vq {

class InputFile {
public:
    // Throws vq::Error (runtime): "cannot open 'path': <reason>".
    explicit InputFile(std::string path);
    ~InputFile();
    InputFile(InputFile&& other) noexcept;
    InputFile& operator=(InputFile&&) = delete;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    const std::string& path() const { return path_; }

    // Bytes consumed so far: the position of the next byte this object will return.
    std::size_t offset() const { return offset_; }

    // True if no byte is left (fills the buffer to find out).
    bool at_end();

    enum class LineEnd { newline, end_of_file, too_long };

    // Reads up to and including the next '\n' into `line` (the '\n' is not stored). Stops with
    // too_long after max_length bytes that hold no '\n', and with end_of_file when the file
    // ends first (`line` then holds what was there).
    LineEnd read_line(std::string& line, std::size_t max_length);

    // Reads `count` bytes into `dest`; returns fewer only at the end of the file.
    std::size_t read(std::byte* dest, std::size_t count);

    // Skips `count` bytes; returns fewer only at the end of the file.
    std::size_t discard(std::size_t count);

    // Every read error throws vq::Error (runtime) naming the file and the byte offset.

private:
    bool refill();  // false at the end of the file
    std::size_t read_some(std::byte* dest, std::size_t count);

    std::string path_;
    int fd_ = -1;
    std::size_t offset_ = 0;
    std::unique_ptr<std::byte[]> buffer_;
    std::size_t begin_ = 0;  // unread bytes are buffer_[begin_, end_)
    std::size_t end_ = 0;
};

}  // namespace vq
