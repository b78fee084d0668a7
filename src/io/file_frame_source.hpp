// What the Y4M and raw YUV readers share: frames of a fixed size read from a file into buffers
// from the session's allocator, with the same end-of-file and truncation rules.
#pragma once

#include <cstddef>
#include <exception>
#include <optional>
#include <string>

#include "io/frame_source.hpp"
#include "io/input_file.hpp"

namespace vq {

class FileFrameSource : public FrameSource {
public:
    const VideoFormat& format() const override { return format_; }
    const std::string& path() const override { return file_.path(); }
    std::optional<Picture> next() override;
    bool skip() override;
    void set_allocator(BufferAllocator allocator) override;

protected:
    // `ignored_bytes` follow each frame's samples in the file and are stepped over (the alpha
    // plane of a C444alpha Y4M file).
    FileFrameSource(InputFile file, const VideoFormat& format, std::size_t ignored_bytes = 0);

    // Consumes whatever precedes frame `index`'s samples; false at a clean end of file, that is
    // when no byte of the frame is present.
    virtual bool begin_frame(std::size_t index) = 0;

    InputFile& file() { return file_; }

private:
    // Runs one frame step; after a failure every later call rethrows the same error, so a caller
    // that retries never mistakes the bytes after a bad frame for a clean end.
    template <typename Step>
    auto guarded(Step step);

    FrameBuffer allocate() const;
    void read_samples(std::byte* dest);
    void discard_samples();
    // Throws "'path': frame N is truncated (got A of B bytes)".
    [[noreturn]] void throw_truncated(std::size_t got) const;

    InputFile file_;
    VideoFormat format_;
    std::size_t ignored_bytes_;
    BufferAllocator allocator_;
    std::size_t index_ = 0;  // of the next frame in the file, counting from 0
    std::exception_ptr failure_;
};

}  // namespace vq
