// A read-only file with just enough buffering for short text lines (Y4M headers and FRAME
// markers) in front of large unbuffered reads straight into frame memory.
//
// Frame data dominates: a 4K frame is 12 MB, and copying it through a stdio-sized buffer would
// double the memory traffic. read() therefore hands out whatever the small buffer holds and then
// lets the kernel copy the rest directly into the destination, so reading runs at page-cache
// copy speed with one system call per frame.
//
// Frames of a regular file can also be read by position (read_at), from any number of threads at
// once: one thread alone cannot copy from the page cache as fast as a GPU consumes 4K frames.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace vq {

class InputFile {
public:
    // Throws vq::Error (runtime): "cannot open 'path': <reason>". The path "-" is standard input.
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

    // True for a regular file, whose bytes read_at() and seek() can reach; false for a pipe.
    bool is_regular() const { return regular_; }

    // A regular file's bytes after the sequential position, as long as the file was when opened
    // (a file still being written may hold more); nullopt for a pipe.
    std::optional<std::size_t> bytes_left() const;

    // Reads `count` bytes at `offset` into `dest`; returns fewer only at the end of the file.
    // Leaves the sequential position alone. Several threads may call it at once, provided that
    // no other member runs meanwhile.
    std::size_t read_at(std::size_t offset, std::byte* dest, std::size_t count) const;

    // Moves the sequential position to `offset` (regular files only).
    void seek(std::size_t offset);

    // Every read error throws vq::Error (runtime) naming the file and the byte offset.

private:
    bool refill();  // false at the end of the file
    std::size_t read_some(std::byte* dest, std::size_t count);

    std::string path_;
    int fd_ = -1;
    bool regular_ = false;
    std::size_t size_ = 0;  // a regular file's, when opened
    std::size_t offset_ = 0;
    std::unique_ptr<std::byte[]> buffer_;
    std::size_t begin_ = 0;  // unread bytes are buffer_[begin_, end_)
    std::size_t end_ = 0;
};

}  // namespace vq
