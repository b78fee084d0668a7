// Owners and error text for FFmpeg's C objects, shared by the decoder and the scaler.
//
// Every FFmpeg object vq holds lives in a unique_ptr whose deleter is the matching free function,
// so that an exception thrown half-way through opening an input leaks nothing.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>
}

namespace vq::ffmpeg {

struct FormatContextDeleter {
    void operator()(AVFormatContext* context) const { avformat_close_input(&context); }
};
struct CodecContextDeleter {
    void operator()(AVCodecContext* context) const { avcodec_free_context(&context); }
};
struct FrameDeleter {
    void operator()(AVFrame* frame) const { av_frame_free(&frame); }
};
struct PacketDeleter {
    void operator()(AVPacket* packet) const { av_packet_free(&packet); }
};
struct CodecParametersDeleter {
    void operator()(AVCodecParameters* parameters) const { avcodec_parameters_free(&parameters); }
};
struct SwsContextDeleter {
    void operator()(SwsContext* context) const { sws_freeContext(context); }
};
// A custom I/O context owns its buffer (av_malloc'ed, possibly replaced by FFmpeg) and not the
// opaque state behind it.
struct IoContextDeleter {
    void operator()(AVIOContext* context) const {
        if (context) av_freep(&context->buffer);
        avio_context_free(&context);
    }
};

// An options dictionary; FFmpeg's calls take its address and may replace its contents.
class Dictionary {
public:
    Dictionary() = default;
    Dictionary(const Dictionary&) = delete;
    Dictionary& operator=(const Dictionary&) = delete;
    ~Dictionary() { av_dict_free(&entries_); }
    void set(const char* key, const char* value);  // throws std::bad_alloc
    AVDictionary** address() { return &entries_; }

private:
    AVDictionary* entries_ = nullptr;
};

// Unreferences a packet when the scope ends, however it ends.
class PacketUnref {
public:
    explicit PacketUnref(AVPacket* packet) : packet_(packet) {}
    PacketUnref(const PacketUnref&) = delete;
    PacketUnref& operator=(const PacketUnref&) = delete;
    ~PacketUnref() { av_packet_unref(packet_); }

private:
    AVPacket* packet_;
};

using FormatContextPtr = std::unique_ptr<AVFormatContext, FormatContextDeleter>;
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextDeleter>;
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;
using PacketPtr = std::unique_ptr<AVPacket, PacketDeleter>;
using CodecParametersPtr = std::unique_ptr<AVCodecParameters, CodecParametersDeleter>;
using SwsContextPtr = std::unique_ptr<SwsContext, SwsContextDeleter>;
using IoContextPtr = std::unique_ptr<AVIOContext, IoContextDeleter>;

// Allocators that throw std::bad_alloc instead of returning null.
FramePtr make_frame();
PacketPtr make_packet();

// av_strerror's text for an FFmpeg error code, on one line.
std::string error_text(int code);

// Collects the error-level messages FFmpeg logs about one input. A decoder's worker threads log
// through copies of its context, which keep the context's `opaque`: pointing the format and codec
// contexts' `opaque` at a sink routes every message about the input there, whichever thread
// logs it, so damage a decoder conceals (FFV1's slice CRC mismatches, H.264's concealed
// macroblocks) is still seen.
class LogSink {
public:
    // The first message since the last take(), or empty if none.
    std::string take();
    void record(std::string message);

private:
    std::mutex mutex_;
    std::string first_;
};

// The last error-level message FFmpeg logged on this thread ("moov atom not found"), taken so
// that the next call returns it only if FFmpeg logs again; empty if none. FFmpeg's own log output
// is silenced (vq reports one line per failure) unless VQ_FFMPEG_LOG is set in the environment.
std::string take_logged_error();

// Whether an FFmpeg message says that the file stops short. Demuxers say so only as a warning, or
// when the file is opened (NUT's missing index), and some (Matroska's, NUT's) then end the stream
// quietly at the last whole packet: vq takes these messages for damage. Warnings that say so are
// recorded like errors.
bool reports_truncation(std::string_view text);

// Routes FFmpeg's log as described above; idempotent and thread-safe.
void install_log_handler();

// "name" of a pixel format, or "pixel format N" for one FFmpeg cannot name.
std::string pixel_format_name(int format);

}  // namespace vq::ffmpeg
