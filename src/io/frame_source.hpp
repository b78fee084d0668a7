// Frame sources: Y4M and raw YUV readers, and a read-ahead wrapper that reads on its own threads.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/planes.hpp"
#include "io/device_surface.hpp"
#include "vq/picture.hpp"

namespace vq {

class FrameSource {
public:
    virtual ~FrameSource() = default;

    virtual const VideoFormat& format() const = 0;
    virtual const std::string& path() const = 0;

    // The next frame, or nullopt at a clean end of file (no byte of a new frame present).
    // Throws vq::Error (runtime) naming the file and the frame (counted from 0 in the file) on a
    // partial frame, lost framing or a read error; every later call throws the same error.
    virtual std::optional<Picture> next() = 0;

    // Discards the next frame without keeping it; false at a clean end of file.
    virtual bool skip() = 0;

    // Discards the next `count` frames; returns how many there were (fewer than `count` only at a
    // clean end of file). A container source may seek over them rather than decode them.
    virtual std::size_t skip_frames(std::size_t count) {
        std::size_t skipped = 0;
        while (skipped < count && skip()) ++skipped;
        return skipped;
    }

    // Which planes of later frames must be read (SessionInternals::planes_read): with
    // Planes::luma the bytes of the chroma planes may be left as the allocator gave them, and
    // only the luma samples are checked against the bit depth. Call before the first next().
    // Reading more than asked is allowed; by default a source reads every plane.
    virtual void read_planes(Planes planes) { (void)planes; }

    // Where later frames' memory comes from (pinned staging memory for the CUDA backend). Call
    // before the first next(); the default is ordinary memory, reused once a frame is dropped.
    virtual void set_allocator(BufferAllocator allocator) = 0;

    // Which decoder decodes the frames from here on (--hwdec). Given a sink, a container whose
    // codec this FFmpeg decodes through CUDA, and whose first frame decodes so, decodes on the GPU
    // into the sink's device pictures; otherwise, or without a sink, the CPU decodes it, and the
    // choice says why (`cpu_reason` when there is no sink). Call before the first next(). Sources
    // that decode nothing (Y4M, raw YUV) answer an empty description.
    virtual DecoderChoice choose_decoder(const std::shared_ptr<DeviceSurfaceSink>& sink,
                                         const std::string& cpu_reason) {
        (void)sink;
        (void)cpu_reason;
        return {};
    }
};

// Opens a YUV4MPEG2 file. Throws vq::Error naming the file for a missing/unreadable file, an
// empty file, a bad magic or header, an unsupported C tag, or absurd dimensions.
std::unique_ptr<FrameSource> open_y4m(const std::string& path);

// Called with the number of bytes after the last whole frame of a raw YUV file.
using TrailingBytes = std::function<void(std::size_t bytes)>;

// Opens a headerless planar YUV file of the given format (chroma planes ceil-sized). A partial
// last frame is an error, unless `on_trailing_bytes` is given: then, as in the reference, those
// bytes end the input after the whole frames, and it is told how many there were.
std::unique_ptr<FrameSource> open_yuv(const std::string& path, const VideoFormat& format,
                                      TrailingBytes on_trailing_bytes = {});

// Threads that read one input when the caller does not say: min(4, hardware threads).
unsigned default_read_threads();

// Wraps a source so that up to `depth` frames are read ahead on their own threads, started by the
// first next(); set_allocator() after that throws, and skip() before it is the source's own (a
// file source steps over a frame without reading it). Frames of a regular file are read by up to
// `threads` threads at once (never more than `depth`), other sources' by one; either way they come
// out in order, exactly as the source itself gives them. Errors are rethrown from next() at the
// frame where they happened. Destroying the wrapper stops the threads without reading on. depth 0
// returns the source itself.
std::unique_ptr<FrameSource> read_ahead(std::unique_ptr<FrameSource> source, std::size_t depth,
                                        unsigned threads = default_read_threads());

// False for a source too small to be worth reading ahead: a Y4M or raw file with less than 1 MiB
// left, which the caller reads in less time than a reading thread takes to start (its stack, its
// malloc arena: about 0.1 ms). The frames are the same either way.
bool worth_reading_ahead(const FrameSource& source);

}  // namespace vq
