#include "io/ffmpeg_util.hpp"

#include <cstdarg>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string_view>
#include <utility>

extern "C" {
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>

namespace vq::ffmpeg {
namespace {

// FFmpeg logs from whichever thread does the work, decoder threads included; each thread keeps
// its own last message so that two inputs opened or decoded at once do not swap explanations.
thread_local std::string last_error;

void log_callback(void* context, int level, const char* format, std::va_list arguments) {
    if (level > AV_LOG_WARNING) return;
    char line[1024];
    int print_prefix = 0;  // the "[h264 @ 0x...]" prefix means nothing to a user
    std::va_list copy;
    va_copy(copy, arguments);
    const int length =
        av_log_format_line2(context, level, format, copy, line, sizeof line, &print_prefix);
    va_end(copy);
    if (length <= 0) return;
    std::string text(line);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '.'))
        text.pop_back();
    if (text.empty() || (level > AV_LOG_ERROR && !reports_truncation(text))) return;
    if (context) {
        // Only contexts whose opaque vq sets (open_ffmpeg's) carry a LogSink there.
        const AVClass* kind = *static_cast<const AVClass* const*>(context);
        void* opaque = nullptr;
        if (kind == avcodec_get_class()) opaque = static_cast<AVCodecContext*>(context)->opaque;
        if (kind == avformat_get_class()) opaque = static_cast<AVFormatContext*>(context)->opaque;
        if (opaque) static_cast<LogSink*>(opaque)->record(text);
    }
    last_error = std::move(text);
}

}  // namespace

bool reports_truncation(std::string_view text) {
    for (const std::string_view phrase : {"ended prematurely", "ends prematurely", "partial file",
                                          "truncated", "Packet corrupt", "no index at the end"})
        if (text.find(phrase) != std::string_view::npos) return true;
    return false;
}

FramePtr make_frame() {
    FramePtr frame(av_frame_alloc());
    if (!frame) throw std::bad_alloc();
    return frame;
}

PacketPtr make_packet() {
    PacketPtr packet(av_packet_alloc());
    if (!packet) throw std::bad_alloc();
    return packet;
}

void Dictionary::set(const char* key, const char* value) {
    if (av_dict_set(&entries_, key, value, 0) < 0) throw std::bad_alloc();
}

std::string error_text(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    if (av_strerror(code, text, sizeof text) < 0) return fmt::format("error {}", code);
    return text;
}

std::string LogSink::take() {
    std::lock_guard lock(mutex_);
    return std::exchange(first_, std::string());
}

void LogSink::record(std::string message) {
    std::lock_guard lock(mutex_);
    if (first_.empty()) first_ = std::move(message);
}

std::string take_logged_error() { return std::exchange(last_error, std::string()); }

void install_log_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (const char* wanted = std::getenv("VQ_FFMPEG_LOG"); wanted && *wanted) {
            av_log_set_level(AV_LOG_INFO);
            return;
        }
        av_log_set_callback(log_callback);
    });
}

std::string pixel_format_name(int format) {
    const char* name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(format));
    return name ? std::string(name) : fmt::format("pixel format {}", format);
}

}  // namespace vq::ffmpeg
