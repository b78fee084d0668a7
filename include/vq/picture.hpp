// Pictures: planar YCbCr frames as they sit in a Y4M or raw YUV file.
//
// A Picture's three planes live back to back in one buffer, exactly in the file's layout (Y, then
// Cb, then Cr, each row tightly packed), so a reader fills a frame with one read and the CUDA
// backend uploads it with one copy. Samples are uint8_t for 8-bit video and little-endian uint16_t
// for 9..16 bits. Chroma planes of odd-sized 4:2:0 / 4:2:2 video have ceil-size dimensions.
//
// A picture decoded on the GPU (--hwdec) keeps that layout in device memory instead: only the CUDA
// backend, which computes every feature of its run, is given one; nothing reads its samples on
// the host.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

namespace vq {

enum class ChromaFormat { yuv420, yuv422, yuv444, yuv400 };

std::string to_string(ChromaFormat format);

struct VideoFormat {
    int width = 0;
    int height = 0;
    int bit_depth = 8;
    ChromaFormat chroma = ChromaFormat::yuv420;

    int plane_count() const { return chroma == ChromaFormat::yuv400 ? 1 : 3; }
    int plane_width(int plane) const;
    int plane_height(int plane) const;
    std::size_t bytes_per_sample() const { return bit_depth > 8 ? 2 : 1; }
    std::size_t plane_bytes(int plane) const;
    std::size_t plane_offset(int plane) const;
    std::size_t frame_bytes() const;

    friend bool operator==(const VideoFormat&, const VideoFormat&) = default;
};

// Throws vq::Error (usage) unless the format is one vq can hold: positive dimensions up to
// max_dimension, bit depth 8..16.
void validate(const VideoFormat& format);
inline constexpr int max_dimension = 16384;

std::string describe(const VideoFormat& format);  // "1920x1080 8-bit 4:2:0"
// Writes describe(format). Declared beside the type so that every translation unit prints a
// VideoFormat the same way (a printer visible in only some of them breaks the one-definition rule).
std::ostream& operator<<(std::ostream& out, const VideoFormat& format);

template <typename Sample>
struct PlaneView {
    const Sample* data = nullptr;
    int width = 0;
    int height = 0;
    std::ptrdiff_t stride = 0;  // in samples

    const Sample* row(int y) const { return data + y * stride; }
    Sample at(int y, int x) const { return row(y)[x]; }
};

// Frame memory. Shared so that pictures can be passed between threads cheaply and returned to a
// pool (for example pinned staging memory) when the last user lets go.
using FrameBuffer = std::shared_ptr<std::byte[]>;

// Where frame memory comes from: a session asks for pinned host memory when CUDA runs, and the
// readers fill whatever it hands them.
using BufferAllocator = std::function<FrameBuffer(std::size_t bytes)>;

// Where a picture's buffer lives.
enum class Residence { host, device };

class Picture {
public:
    Picture() = default;
    Picture(const VideoFormat& format, FrameBuffer buffer, Residence residence = Residence::host);

    // Allocates an ordinary (pageable, zero-filled) buffer of format.frame_bytes().
    static Picture allocate(const VideoFormat& format);

    const VideoFormat& format() const { return format_; }
    bool empty() const { return !buffer_; }
    bool on_device() const { return residence_ == Residence::device; }
    std::byte* data() { return buffer_.get(); }
    const std::byte* data() const { return buffer_.get(); }
    std::size_t size_bytes() const { return format_.frame_bytes(); }

    template <typename Sample>
    PlaneView<Sample> plane(int index) const {
        return {reinterpret_cast<const Sample*>(buffer_.get() + format_.plane_offset(index)),
                format_.plane_width(index), format_.plane_height(index),
                format_.plane_width(index)};
    }
    template <typename Sample>
    Sample* plane_data(int index) {
        return reinterpret_cast<Sample*>(buffer_.get() + format_.plane_offset(index));
    }

private:
    VideoFormat format_;
    FrameBuffer buffer_;
    Residence residence_ = Residence::host;
};

// How many earlier reference pictures a frame pair can carry (motion's five-frame window needs 2).
inline constexpr int max_reference_history = 2;

// One reference/distorted pair. The reference may be empty when every feature of a run is
// no-reference (CAMBI without full_ref).
struct FramePair {
    Picture reference;
    Picture distorted;
    std::size_t index = 0;  // the frame's position in the run (Session::push sets it)
    // The temporal contract: previous_references[k] is the reference picture of frame index-1-k,
    // filled by the session for as many frames back as any feature's history() asks; empty at
    // the start of the run. Features read it from compute(), which stays const and order-free.
    std::array<Picture, max_reference_history> previous_references{};
    // The distorted pictures of the same earlier frames (speed_temporal differences both videos).
    std::array<Picture, max_reference_history> previous_distorted{};
};

}  // namespace vq
