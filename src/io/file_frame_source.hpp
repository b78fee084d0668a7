// What the Y4M and raw YUV readers share: frames of a fixed size read from a file into buffers
// from the session's allocator, with the same end-of-file and truncation rules.
#pragma once

#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "io/frame_layout.hpp"
#include "io/frame_source.hpp"
#include "io/input_file.hpp"

namespace vq {

class FileFrameSource : public FrameSource {
public:
    const VideoFormat& format() const override { return format_; }
    const std::string& path() const override { return file_.path(); }
    std::optional<Picture> next() override;
    bool skip() override;  // steps over a regular frame of a regular file without reading it
    void set_allocator(BufferAllocator allocator) override;
    // With Planes::luma, the chroma planes are stepped over: seeked past in a regular file.
    void read_planes(Planes planes) override { planes_ = planes; }

    // Positional reading, for read_ahead's parallel readers. layout() assumes that the frames
    // from the next one on are regular; nullopt for a pipe or after a failure.
    std::optional<FrameLayout> layout() const;
    // The file's bytes not read yet (InputFile::bytes_left).
    std::optional<std::size_t> bytes_left() const { return file_.bytes_left(); }

    // The n-th frame of `layout`, or nullopt if it is irregular or anything fails: the sequential
    // reader then reads it, to the same result as if no frame had been read by position. Several
    // threads may call this at once, provided that no other member runs meanwhile. Its samples
    // are not checked: see check_samples().
    std::optional<Picture> read_frame_at(const FrameLayout& layout, std::size_t n) const;

    // next() but for the check of the samples against the bit depth, which read_ahead's readers
    // make with check_samples() so that a frame the consumer skips is never checked, as in
    // sequential reading (skip() reads nothing).
    std::optional<Picture> next_unchecked();
    // Throws vq::Error naming frame `index` (counted from the file's first) when a sample exceeds
    // the bit depth (check_sample_range).
    void check_samples(const Picture& picture, std::size_t index) const;
    // The index of the frame next() reads next, counted from the file's first.
    std::size_t next_index() const { return index_; }

    // Sequential reading continues after the first n frames of `layout`, all regular. A failure
    // (to seek) is thrown by the next next() or skip(), as every failure is.
    void resume_after(const FrameLayout& layout, std::size_t n) noexcept;

protected:
    // `marker` starts every frame's record in the file when no frame parameters are present;
    // `ignored_bytes` follow each frame's samples and are stepped over (the alpha plane of a
    // C444alpha Y4M file).
    FileFrameSource(InputFile file, const VideoFormat& format, std::string_view marker,
                    std::size_t ignored_bytes);

    // Consumes whatever precedes frame `index`'s samples; false at a clean end of file, that is
    // when no byte of the frame is present.
    virtual bool begin_frame(std::size_t index) = 0;

    // The file ended `got` bytes into a frame's samples: true ends the input there, false makes
    // the frame an error (the default).
    virtual bool ends_at_partial_frame(std::size_t got);

    InputFile& file() { return file_; }

private:
    std::optional<Picture> read_next();

    // Runs one frame step; after a failure every later call rethrows the same error, so a caller
    // that retries never mistakes the bytes after a bad frame for a clean end.
    template <typename Step>
    auto guarded(Step step);

    FrameBuffer allocate() const;
    // Both false where a partial frame ends the input.
    bool read_samples(std::byte* dest);
    bool discard_samples();
    // Steps over `count` bytes (seeking where the file is regular and holds them all); returns
    // how many there were.
    std::size_t step_over(std::size_t count);
    // Throws "'path': frame N is truncated (got A of B bytes)".
    [[noreturn]] void throw_truncated(std::size_t got) const;

    InputFile file_;
    VideoFormat format_;
    std::string_view marker_;
    std::size_t ignored_bytes_;
    Planes planes_ = Planes::all;
    BufferAllocator allocator_;
    // Parallel readers allocate at once, and a session's allocator need not be thread-safe.
    mutable std::mutex allocator_mutex_;
    std::size_t index_ = 0;  // of the next frame in the file, counting from 0
    std::exception_ptr failure_;
};

}  // namespace vq
