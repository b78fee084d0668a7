#include "io/ffmpeg_source.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

extern "C" {
#include <libavutil/pixdesc.h>
}

#include "io/ffmpeg_chunks.hpp"
#include "io/ffmpeg_cuda.hpp"
#include "io/ffmpeg_pixels.hpp"
#include "io/ffmpeg_seek.hpp"
#include "io/ffmpeg_util.hpp"
#include "io/recycling_allocator.hpp"
#include "io/sample_range.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

using namespace ffmpeg;

// Bytes in memory behind a custom AVIOContext, readable and seekable like a file.
struct MemoryInput {
    std::span<const std::byte> bytes;
    std::size_t position = 0;
};

int read_memory(void* opaque, std::uint8_t* buffer, int size) {
    auto& input = *static_cast<MemoryInput*>(opaque);
    const std::size_t count =
        std::min(input.bytes.size() - input.position, std::size_t(std::max(size, 0)));
    if (count == 0) return AVERROR_EOF;
    std::memcpy(buffer, input.bytes.data() + input.position, count);
    input.position += count;
    return int(count);
}

std::int64_t seek_memory(void* opaque, std::int64_t offset, int whence) {
    auto& input = *static_cast<MemoryInput*>(opaque);
    const auto size = std::int64_t(input.bytes.size());
    if (whence & AVSEEK_SIZE) return size;
    std::int64_t base = 0;
    switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = std::int64_t(input.position); break;
    case SEEK_END: base = size; break;
    default: return AVERROR(EINVAL);
    }
    if (offset > size || offset < -size || base + offset < 0 || base + offset > size)
        return AVERROR(EINVAL);
    input.position = std::size_t(base + offset);
    return base + offset;
}

// An opened container: the demuxer and, for bytes in memory, the I/O context reading them.
struct Container {
    std::unique_ptr<MemoryInput> memory;  // outlives the I/O context reading it
    IoContextPtr io;                      // outlives the format context using it
    FormatContextPtr format;
};

class Decoder final : public FfmpegSource {
public:
    Decoder(std::string path, std::optional<std::span<const std::byte>> bytes,
            const DecodeOptions& options)
        : path_(std::move(path)),
          bytes_(bytes),
          options_(options),
          packet_(make_packet()),
          frame_(make_frame()),
          allocator_(recycling_allocator()) {
        install_log_handler();
        take_logged_error();  // an earlier input's leftovers explain nothing here
        open_stream();
        if (options_.await_decoder_choice)
            if (const std::optional<VideoFormat> announced = announced_format()) {
                // Nothing is decoded before choose_decoder() or the first frame asked for: a run
                // that decodes on the GPU never starts the CPU's decoder (with frame threads it
                // takes in up to a frame per thread, zeroing each new buffer, before giving one).
                format_ = *announced;
                awaiting_choice_ = true;
                describe_stream(stream_->codecpar->format);
                return;
            }
        start_decoding();
        format_ = first_frame_format();
        pixel_format_ = frame_->format;
        describe_stream(pixel_format_);
    }

    // Another decoder of the same input for chunked decoding (ffmpeg_chunks.hpp), decoding as
    // `primary` does (its decoder, sink and allocator; on the GPU a stream and an FFmpeg device
    // of its own) with `threads` threads. It decodes nothing until it seeks (ChunkWorker::seek);
    // its codec takes `parameters`, the primary's stream's, and its container is probed again
    // only where the streams are found by reading packets (`probe`). Reads only what the primary
    // set up before chunked decoding started, which does not change after, so any thread may make
    // one while the primary decodes.
    Decoder(const Decoder& primary, unsigned threads, const AVCodecParameters& parameters,
            bool probe)
        : path_(primary.path_),
          bytes_(primary.bytes_),
          options_(primary.options_),
          packet_(make_packet()),
          frame_(make_frame()),
          format_(primary.format_),
          pixel_format_(primary.pixel_format_),
          info_(primary.info_),
          allocator_(primary.allocator_),
          count_is_exact_(primary.count_is_exact_),
          cpu_decoder_(primary.cpu_decoder_),
          cuda_decoder_(primary.cuda_decoder_),
          sink_(primary.sink_) {
        options_.threads = threads;
        options_.sessions = 1;  // a worker decodes its chunks alone
        options_.await_decoder_choice = false;
        if (sink_) {
            std::string why;
            open_cuda(*sink_, why);
            if (!cuda_device_) throw runtime_error(why);
        }
        take_logged_error();
        container_ = open_container(probe);
        if (primary.stream_index_ >= int(container_.format->nb_streams))
            fail_open("opened again, it has fewer streams");
        use_stream(primary.stream_index_);
        open_decoder(parameters);  // check_frame holds its frames to the primary's format
    }

    const VideoFormat& format() const override { return format_; }
    const std::string& path() const override { return path_; }
    const StreamInfo& info() const override { return info_; }

    std::optional<Picture> next() override {
        return guarded([this]() -> std::optional<Picture> {
            if (awaiting_choice_) start_on_cpu();
            if (!chunking_decided_) decide_chunking();
            if (chunks_ && index_ >= chunked_from_) return take_chunked();
            std::optional<Picture> picture = decode_next();
            // Before the chunks, the frames must follow the timestamps too, or the chunks would
            // not follow on from them: without that, this decoder decodes alone.
            if (picture && chunks_ && last_pts_ != chunk_times_->presentation[index_ - 1])
                chunks_.reset();
            return picture;
        });
    }

    // The timestamp of the frame next() gave last.
    std::int64_t last_pts() const { return last_pts_; }

    // Makes frame plan.target the next frame by seeking (ffmpeg_seek.hpp); false, the decoder
    // then anywhere in the stream, when the container or the decoder does not follow the plan.
    bool seek_to(const SeekPlan& plan) {
        return (plan.keyframe_pts != plan.seek_timestamp && seek_to(plan, plan.keyframe_pts)) ||
               seek_to(plan, plan.seek_timestamp);
    }

    // seek_to(plan) by one timestamp.
    bool seek_to(const SeekPlan& plan, std::int64_t timestamp) {
        try {
            if (av_seek_frame(container_.format.get(), stream_index_, timestamp,
                              AVSEEK_FLAG_BACKWARD) < 0)
                return false;
            avcodec_flush_buffers(codec_.get());
            av_frame_unref(frame_.get());
            have_frame_ = draining_ = ended_ = false;
            std::size_t between = 0;
            while (decode()) {
                const std::int64_t pts = frame_->pts;
                if (pts == plan.target_pts && between == plan.frames_between) {
                    index_ = plan.target;
                    have_frame_ = true;
                    return true;
                }
                if (pts == AV_NOPTS_VALUE || pts >= plan.target_pts) break;
                if (pts >= plan.keyframe_pts) ++between;
                av_frame_unref(frame_.get());
            }
        } catch (const Error&) {
            // Damage found while decoding up to the target: decoding from the start finds it
            // again, at its own frame, or it came from the seek itself.
        }
        return false;
    }

    // A compressed frame can only be stepped over by decoding it, and then it is checked as a
    // frame read is, so that read_ahead's readers, which read every frame, find what this finds.
    bool skip() override { return next().has_value(); }

    // A long step from the first frame seeks (ffmpeg_seek.hpp) where the codec and the stream's
    // timestamps allow it; the frames stepped over are then not decoded, nor checked. A step past
    // the end seeks to the last frame and steps over it: counting a long title's frames reads its
    // packets, not its pictures.
    std::size_t skip_frames(std::size_t count) override {
        if (awaiting_choice_) guarded([this] { start_on_cpu(); });
        if (count >= seek_from_frames && index_ == 0 && have_frame_ && !failure_ &&
            one_frame_per_packet(codec_->codec_id))
            if (const std::optional<std::size_t> reached = seek_toward(count))
                return *reached == count ? count : *reached + (skip() ? 1 : 0);
        return FfmpegSource::skip_frames(count);
    }

    void set_allocator(BufferAllocator allocator) override {
        allocator_ = allocator ? std::move(allocator) : recycling_allocator();
    }

    // The GPU's decoder is tried from the start of the file: its first frame must decode, into a
    // surface that holds the input's picture format; otherwise the CPU decoder starts over. An
    // input opened to await this choice starts its chosen decoder here, so that a frame it cannot
    // decode fails here as it would have on opening.
    DecoderChoice choose_decoder(const std::shared_ptr<DeviceSurfaceSink>& sink,
                                 const std::string& cpu_reason) override {
        if (index_ != 0 || !(have_frame_ || awaiting_choice_) || failure_ || sink_)
            throw std::logic_error("choose_decoder() after the first frame was taken");
        // A decoder that cannot start fails the source, as on opening.
        return guarded([&] { return choose_and_start(sink, cpu_reason); });
    }

private:
    // choose_decoder(): the GPU's decoder where it decodes the first frame, else the CPU's.
    DecoderChoice choose_and_start(const std::shared_ptr<DeviceSurfaceSink>& sink,
                                   const std::string& cpu_reason) {
        const bool fresh = std::exchange(awaiting_choice_, false);  // nothing decoded yet
        const std::string codec = avcodec_get_name(stream_->codecpar->codec_id);
        const auto on_cpu = [&](const std::string& why) {
            return DecoderChoice{false, fmt::format("{} (CPU, {})", codec, why)};
        };
        const auto stay_on_cpu = [&](const std::string& why) {
            if (fresh) start_on_cpu();
            return on_cpu(why);
        };
        if (!sink) return stay_on_cpu(cpu_reason);
        std::string why;
        cuda_decoder_ = ffmpeg::cuda_decoder(stream_->codecpar->codec_id, why);
        try {
            if (cuda_decoder_) open_cuda(*sink, why);
        } catch (const Error& error) {
            why = error.what();
        }
        if (!cuda_device_) {
            cuda_decoder_ = nullptr;
            cuda_stream_.reset();
            return stay_on_cpu(why);
        }
        try {
            if (fresh) {
                start_decoding();
                adopt_first_frame();
            } else {
                restart_decoder();
            }
            cuda_surface(*frame_, format_, why);
        } catch (const Error& error) {
            why = error.what();
        }
        if (!why.empty()) {
            cuda_decoder_ = nullptr;
            cuda_device_.reset();
            restart_decoder();     // the container too: the GPU's decoder has read from it
            cuda_stream_.reset();  // after the codec context that used it
            return on_cpu("NVDEC does not decode it: " + why);
        }
        sink_ = sink;
        return {true, fmt::format("{} via NVDEC (cuda)", codec)};
    }

    // FFmpeg's CUDA device for this decoder, copying into its surfaces on a stream of its own.
    void open_cuda(const DeviceSurfaceSink& sink, std::string& why) {
        cuda_stream_ = sink.make_stream();
        cuda_device_ = open_cuda_device(sink.context(), cuda_stream_.get(), why);
    }

    // --- seeking -------------------------------------------------------------------------------

    // Makes frame `target`, or the last frame if there are fewer, the next frame by seeking to the
    // keyframe before it, from the plan of a second, demux-only reading of the file; returns the
    // frame's index. Nullopt, with the source back at its first frame, when the plan cannot be
    // made or a decoded frame does not match it.
    std::optional<std::size_t> seek_toward(std::size_t target) {
        const std::optional<StreamTimes> times = stream_times();
        const std::optional<SeekPlan> plan = times ? plan_seek(*times, target) : std::nullopt;
        if (!plan) return std::nullopt;
        if (seek_to(*plan)) return plan->target;
        restart();
        return std::nullopt;
    }

    // The stream's timestamps, from a second, demux-only reading of the file.
    std::optional<StreamTimes> stream_times() {
        std::optional<StreamTimes> times;
        {
            Container packets = open_container(streams_need_probing());
            times = read_stream_times(*packets.format, stream_index_);
        }
        // What reading the packets logged is about the whole file: the decoding reports it where
        // it finds it.
        if (std::string scanned = log_.take(); reports_truncation(scanned) && cut_short_.empty())
            cut_short_ = std::move(scanned);
        take_logged_error();
        return times;
    }

    // --- chunked decoding (ffmpeg_chunks.hpp) -------------------------------------------------

    // At the first frame taken: several decoders, one per chunk from each keyframe after it,
    // where sessions_wanted() is more than one and the stream's timestamps place every frame.
    void decide_chunking();

    // DecodeOptions::sessions, or by default one decoder, and on the GPU three for a stream long
    // enough to repay starting two more NVDEC sessions (the driver starts and ends them one at a
    // time, 60 to 85 ms each on an H100). Measured there on a 4K HEVC 10-bit pair with a keyframe
    // every 48 frames (README): three sessions per input took 1.41 s against one's 1.11 over 200
    // frames, 1.60 s against 2.10 over 600; the break-even is near 350 frames. On the CPU one
    // decoder with every thread is as fast as several with their share.
    unsigned sessions_wanted() const;
    static constexpr unsigned gpu_default_sessions = 3;
    static constexpr std::size_t gpu_chunking_from_frames = 400;

    std::optional<Picture> take_chunked() {
        ChunkedFrames::Item item = chunks_->take();
        if (auto* picture = std::get_if<Picture>(&item)) {
            ++index_;
            return std::move(*picture);
        }
        if (std::holds_alternative<ChunkedFrames::End>(item)) return std::nullopt;
        // A chunk did not decode as planned: from its first frame not given out (index_), this
        // decoder decodes alone, and meets whatever stopped the chunk where it is.
        const std::size_t frame = std::get<ChunkedFrames::Stopped>(item).frame;
        chunks_.reset();
        restart();
        if (skip_frames(frame) != frame)
            fail_frame("decoded again, the stream ends before this frame");
        return decode_next();
    }

    // Back to the state just after opening: the first frame decoded, nothing given out. The
    // picture format stays the first opening's: a decoder chosen since must give the same.
    void restart() {
        codec_.reset();
        av_frame_unref(frame_.get());
        index_ = 0;
        have_frame_ = draining_ = ended_ = false;
        take_logged_error();
        log_.take();
        open();
    }

    // restart() with the decoder chosen now, whose frames' pixel format (AV_PIX_FMT_CUDA for the
    // GPU's) the later frames must keep.
    void restart_decoder() {
        pixel_format_ = AV_PIX_FMT_NONE;
        restart();
        adopt_first_frame();
    }

    // The CPU's decoder for an input that awaited the choice of its decoder.
    void start_on_cpu() {
        awaiting_choice_ = false;
        start_decoding();
        adopt_first_frame();
    }

    // The first frame of a decoder started after the input's format was fixed: on the CPU its
    // pictures must have that format (the GPU's surfaces are checked by cuda_surface); its pixel
    // format (AV_PIX_FMT_CUDA for the GPU's) is the one the later frames must keep.
    void adopt_first_frame() {
        pixel_format_ = frame_->format;
        if (pixel_format_ == AV_PIX_FMT_CUDA) return;
        if (const VideoFormat first = first_frame_format(); first != format_)
            fail_open(fmt::format("its first frame is {}, but its stream announces {}",
                                  describe(first), describe(format_)));
    }

    // --- opening -------------------------------------------------------------------------------

    [[noreturn]] void fail_open(const std::string& problem, int code = 0) const {
        std::string message = fmt::format("cannot read '{}': {}", path_, problem);
        if (code) message += ": " + error_text(code);
        if (const std::string logged = take_logged_error(); !logged.empty())
            message += " (" + logged + ")";
        throw runtime_error(message);
    }

    // The container, its decoder and its first frame (frame_), from the start of the file.
    void open() {
        open_stream();
        start_decoding();
    }

    // The container, probed, and its video stream.
    void open_stream() {
        container_ = open_container(true);
        select_stream();
    }

    // The decoder (the GPU's once chosen) and its first frame, from the start of the stream.
    void start_decoding() {
        open_decoder(*stream_->codecpar);
        // What opening logged (probing other streams, say) is not damage to a frame, unless it
        // says that the file stops short: the end of the stream then reports it.
        if (std::string opening = log_.take(); reports_truncation(opening))
            cut_short_ = std::move(opening);
        have_frame_ = decode();  // its errors name frame 0
        if (!have_frame_) fail_open("no frame could be decoded");
    }

    // The format of pictures of this pixel format and size where vq can take them exactly;
    // otherwise nullopt, and `why`.
    static std::optional<VideoFormat> takeable_format(int pixel_format, int width, int height,
                                                      std::string& why) {
        std::optional<VideoFormat> format =
            picture_format(AVPixelFormat(pixel_format), width, height, why);
        try {
            if (format) validate(*format);
        } catch (const Error& error) {
            why = error.what();
            return std::nullopt;
        }
        return format;
    }

    // The format of the first frame decoded (frame_); fail_open where vq cannot take it.
    VideoFormat first_frame_format() const {
        std::string why;
        const auto format = takeable_format(frame_->format, frame_->width, frame_->height, why);
        if (!format) fail_open(why);
        return *format;
    }

    // The format the stream's parameters announce where vq can take it; otherwise nullopt, and
    // the first frame decides (and explains).
    std::optional<VideoFormat> announced_format() const {
        const AVCodecParameters& parameters = *stream_->codecpar;
        std::string why;
        return takeable_format(parameters.format, parameters.width, parameters.height, why);
    }

    // `probe`: avformat_find_stream_info, which reads and decodes the first packets to find what
    // the header does not say; a decoder of a stream already probed needs none where the header
    // lists the streams.
    Container open_container(bool probe) {
        Container container;
        AVFormatContext* context = avformat_alloc_context();
        if (!context) throw std::bad_alloc();
        // From the start: what the demuxer says while reading the header counts too (NUT's
        // missing index, which is all a file cut short may show).
        context->opaque = &log_;
        Dictionary options;
        if (bytes_) {
            container.memory = std::make_unique<MemoryInput>(MemoryInput{*bytes_, 0});
            constexpr int buffer_bytes = 64 * 1024;
            auto* buffer = static_cast<unsigned char*>(av_malloc(buffer_bytes));
            if (!buffer) {
                avformat_free_context(context);
                throw std::bad_alloc();
            }
            container.io.reset(avio_alloc_context(buffer, buffer_bytes, 0, container.memory.get(),
                                                  read_memory, nullptr, seek_memory));
            if (!container.io) {
                av_free(buffer);
                avformat_free_context(context);
                throw std::bad_alloc();
            }
            context->pb = container.io.get();
            context->flags |= AVFMT_FLAG_CUSTOM_IO;
            // Bytes in memory may name no other resource (playlists, concat lists).
            options.set("protocol_whitelist", "none");
        } else {
            // A local file and nothing it might refer to elsewhere.
            options.set("protocol_whitelist", "file");
        }
        // The "file:" prefix keeps a path with a colon from being taken for a URL.
        const std::string url = bytes_ ? std::string() : "file:" + path_;
        const int opened = avformat_open_input(&context, bytes_ ? nullptr : url.c_str(), nullptr,
                                               options.address());
        if (opened < 0) {  // avformat_open_input has freed the context
            if (opened == AVERROR(ENOENT) || opened == AVERROR(EACCES) || opened == AVERROR(EISDIR))
                throw runtime_error(fmt::format("cannot open '{}': {}", path_, error_text(opened)));
            fail_open("not a video file FFmpeg can read", opened);
        }
        container.format.reset(context);
        if (probe)
            if (const int found = avformat_find_stream_info(context, nullptr); found < 0)
                fail_open("cannot find its streams", found);
        return container;
    }

    // Whether another opening of this container must probe it to find the streams this one has.
    bool streams_need_probing() const { return container_.format->ctx_flags & AVFMTCTX_NOHEADER; }

    // The input's video stream and its CPU decoder, chosen as FFmpeg's tools do.
    void select_stream() {
        AVFormatContext* context = container_.format.get();
        const AVCodec* decoder = nullptr;  // the stream's CPU decoder
        const int best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
        if (best == AVERROR_STREAM_NOT_FOUND) fail_open("it has no video stream");
        if (best == AVERROR_DECODER_NOT_FOUND) {
            const char* codec = "unknown";
            for (unsigned i = 0; i < context->nb_streams; ++i)
                if (context->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO)
                    codec = avcodec_get_name(context->streams[i]->codecpar->codec_id);
            fail_open(fmt::format("this FFmpeg has no decoder for its video codec ({})", codec));
        }
        if (best < 0) fail_open("cannot choose a video stream", best);
        use_stream(best);
        if (stream_->disposition & AV_DISPOSITION_ATTACHED_PIC)
            fail_open("it has no video stream (only a cover picture)");
        cpu_decoder_ = decoder;
    }

    void use_stream(int index) {
        AVFormatContext* context = container_.format.get();
        stream_index_ = index;
        stream_ = context->streams[index];
        // Packets of the other streams are then not even read.
        for (unsigned i = 0; i < context->nb_streams; ++i)
            if (int(i) != index) context->streams[i]->discard = AVDISCARD_ALL;
    }

    // The chosen decoder (the GPU's or the CPU's) for a stream with these parameters.
    void open_decoder(const AVCodecParameters& parameters) {
        const AVCodec* decoder = cuda_decoder_ ? cuda_decoder_ : cpu_decoder_;
        codec_.reset(avcodec_alloc_context3(decoder));
        if (!codec_) throw std::bad_alloc();
        if (const int copied = avcodec_parameters_to_context(codec_.get(), &parameters); copied < 0)
            fail_open("cannot set up the decoder", copied);
        codec_->pkt_timebase = stream_->time_base;
        codec_->opaque = &log_;
        codec_->thread_count = int(options_.threads);
        if (options_.max_pixels > 0) codec_->max_pixels = options_.max_pixels;
        codec_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
        // Checksums, where the codec has them (FFV1's slice CRCs), catch damaged frames.
        codec_->err_recognition |= AV_EF_CRCCHECK;
        if (cuda_device_) decode_through_cuda(*codec_, *cuda_device_);
        if (const int opened = avcodec_open2(codec_.get(), decoder, nullptr); opened < 0)
            fail_open(fmt::format("cannot open the {} decoder", decoder->name), opened);
    }

    // info_, with the pixel format of the first frame or of the stream's announcement.
    void describe_stream(int pixel_format) {
        const AVRational rate = av_guess_frame_rate(container_.format.get(), stream_, nullptr);
        if (rate.num > 0 && rate.den > 0) {
            info_.rate_num = rate.num;
            info_.rate_den = rate.den;
        }
        if (stream_->nb_frames > 0) {
            info_.frame_count = std::size_t(stream_->nb_frames);
            count_is_exact_ = true;
        } else {
            // The average rate, where known, holds for variable-rate video too.
            AVRational average = stream_->avg_frame_rate;
            if (average.num <= 0 || average.den <= 0) average = rate;
            double seconds = -1;
            if (stream_->duration > 0)
                seconds = double(stream_->duration) * av_q2d(stream_->time_base);
            else if (container_.format->duration > 0)
                seconds = double(container_.format->duration) / AV_TIME_BASE;
            if (seconds > 0 && average.num > 0 && average.den > 0)
                info_.frame_count = std::size_t(std::llround(seconds * av_q2d(average)));
        }
        info_.stream_bit_rate = std::max<long long>(0, stream_->codecpar->bit_rate);
        info_.container_bit_rate = std::max<long long>(0, container_.format->bit_rate);
        // The decoder's profile where it has decoded a frame (it reads the stream's own headers).
        const AVCodecID codec = stream_->codecpar->codec_id;
        const char* profile =
            avcodec_profile_name(codec, codec_ ? codec_->profile : stream_->codecpar->profile);
        info_.description = fmt::format("{}{}, {}", avcodec_get_name(codec),
                                        profile ? fmt::format(" ({})", profile) : std::string(),
                                        pixel_format_name(pixel_format));
    }

    // --- decoding ------------------------------------------------------------------------------

    template <typename Step>
    std::invoke_result_t<Step> guarded(Step step) {
        if (failure_) std::rethrow_exception(failure_);
        try {
            return step();
        } catch (...) {
            failure_ = std::current_exception();
            throw;
        }
    }

    [[noreturn]] void fail_frame(const std::string& problem, int code = 0) {
        std::string message = fmt::format("'{}': frame {}: {}", path_, index_, problem);
        if (code) message += ": " + error_text(code);
        std::string logged = log_.take();
        if (logged.empty()) logged = take_logged_error();
        if (!logged.empty()) message += " (" + logged + ")";
        throw runtime_error(message);
    }

    // The next frame, decoded by this decoder.
    std::optional<Picture> decode_next() {
        if (!advance()) return std::nullopt;
        if (sink_) {
            std::string why;
            const std::optional<DeviceSurface> surface = cuda_surface(*frame_, format_, why);
            if (!surface) fail_frame(why);
            Picture picture = sink_->convert(format_, *surface);
            release_frame();  // the surface goes back to the decoder's pool
            return picture;
        }
        FrameBuffer buffer = allocator_(format_.frame_bytes());
        if (!buffer) throw std::bad_alloc();
        Picture picture(format_, std::move(buffer));
        copy_frame(*frame_, picture);
        check_sample_range(format_, picture.data(), path_, index_);
        release_frame();
        return picture;
    }

    // Makes frame_ hold the next frame; false at the end of the stream.
    bool advance() {
        if (have_frame_) return true;
        if (ended_) return false;
        have_frame_ = decode();
        ended_ = !have_frame_;
        if (ended_) check_complete();
        return have_frame_;
    }

    // Some demuxers (Matroska's) end a truncated file quietly at the last whole packet: compare
    // the frames decoded with what the container announced. A stored count is exact; one derived
    // from the duration may be off by rounding, so it is given a frame and a percent of slack.
    void check_complete() const {
        if (!info_.frame_count) return;
        const std::size_t announced = *info_.frame_count;
        const std::size_t slack = count_is_exact_ ? 0 : 1 + announced / 100;
        if (index_ + slack < announced)
            throw runtime_error(
                fmt::format("'{}': the video ends after {} frames, but the container announces {}: "
                            "the file is truncated or damaged",
                            path_, index_, announced));
    }

    void release_frame() {
        last_pts_ = frame_->pts;
        av_frame_unref(frame_.get());
        have_frame_ = false;
        ++index_;
    }

    bool decode() {
        take_logged_error();  // what FFmpeg says from here on is about this frame
        for (;;) {
            const int received = avcodec_receive_frame(codec_.get(), frame_.get());
            if (received >= 0) {
                check_frame();
                // Damage the decoder concealed (or found in a frame it dropped) is still damage.
                if (std::string damage = log_.take(); !damage.empty())
                    fail_frame("the file is damaged: FFmpeg reports '" + damage + "'");
                return true;
            }
            if (received == AVERROR_EOF) {
                // The demuxer's word that the file stops short comes with the end of its packets,
                // or came when it was opened.
                std::string damage = log_.take();
                if (damage.empty()) damage = cut_short_;
                if (!damage.empty()) {
                    take_logged_error();  // the same message
                    fail_frame("the file is truncated: FFmpeg reports '" + damage + "'");
                }
                return false;
            }
            if (received != AVERROR(EAGAIN)) fail_frame("decoding failed", received);
            if (draining_) fail_frame("the decoder stopped without finishing the stream");
            feed();
        }
    }

    // Sends the decoder the next packet of the stream, or the end of the stream.
    void feed() {
        for (;;) {
            const int read = av_read_frame(container_.format.get(), packet_.get());
            if (read == AVERROR_EOF) {
                if (container_.format->pb && container_.format->pb->error < 0)
                    fail_frame("read error", container_.format->pb->error);
                draining_ = true;
                if (const int sent = avcodec_send_packet(codec_.get(), nullptr); sent < 0)
                    fail_frame("decoding failed", sent);
                return;
            }
            if (read < 0) fail_frame("cannot read the next packet", read);
            PacketUnref unref(packet_.get());
            if (packet_->stream_index != stream_index_) continue;
            // A short read at the end of a truncated MP4, for one, comes flagged so.
            if (packet_->flags & AV_PKT_FLAG_CORRUPT)
                fail_frame(
                    "the file is truncated or damaged (the container marks this data incomplete)");
            if (const int sent = avcodec_send_packet(codec_.get(), packet_.get()); sent < 0)
                fail_frame("decoding failed", sent);
            return;
        }
    }

    void check_frame() {
        // The first frame fixes the input's format (format_ is not set yet while it is checked).
        if (pixel_format_ != AV_PIX_FMT_NONE &&
            (frame_->width != format_.width || frame_->height != format_.height ||
             frame_->format != pixel_format_))
            fail_frame(
                fmt::format("the picture changes from {}x{} {} to {}x{} {}; vq needs one size and "
                            "pixel format per input",
                            format_.width, format_.height, pixel_format_name(pixel_format_),
                            frame_->width, frame_->height, pixel_format_name(frame_->format)));
        if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags)
            fail_frame("the decoder reports it corrupt (damaged or missing data)");
    }

    // A step of fewer frames decodes them: cheaper than reading the whole file's packets to plan a
    // seek, and a chunk's context frames are a few frames at most.
    static constexpr std::size_t seek_from_frames = 48;
    // The memory chunked CPU decoding may hold in decoded frames ahead of the one given out.
    static constexpr std::size_t host_chunk_bytes = std::size_t(1) << 30;

    std::string path_;
    std::optional<std::span<const std::byte>> bytes_;  // the input, when it is in memory
    DecodeOptions options_;
    // The stream FFmpeg copies decoded surfaces on (open_cuda): it outlives every FFmpeg context
    // that uses it. Null on the CPU.
    std::shared_ptr<void> cuda_stream_;
    LogSink log_;  // outlives the contexts that log into it
    Container container_;
    CodecContextPtr codec_;
    PacketPtr packet_;
    FramePtr frame_;
    AVStream* stream_ = nullptr;  // owned by container_.format
    int stream_index_ = -1;
    VideoFormat format_;
    int pixel_format_ = AV_PIX_FMT_NONE;
    StreamInfo info_;
    BufferAllocator allocator_;
    std::size_t index_ = 0;    // of the frame frame_ holds or will hold, counted from 0
    bool have_frame_ = false;  // frame_ holds frame index_, decoded and not yet given out
    bool draining_ = false;    // the demuxer is done; the decoder is giving out what it holds
    bool ended_ = false;
    bool count_is_exact_ = false;  // info_.frame_count is stored in the container, not estimated
    std::string cut_short_;        // what FFmpeg said on opening about the file stopping short
    std::exception_ptr failure_;
    std::int64_t last_pts_ = AV_NOPTS_VALUE;  // of the frame given out last

    // Opened to await choose_decoder() (DecodeOptions::await_decoder_choice): the stream is
    // found and format_ is its announcement; no decoder is open and nothing is decoded yet.
    bool awaiting_choice_ = false;
    const AVCodec* cpu_decoder_ = nullptr;
    // Decoding on the GPU (choose_decoder): the decoder, FFmpeg's device (on cuda_stream_) and
    // where the surfaces go; all null on the CPU.
    const AVCodec* cuda_decoder_ = nullptr;
    BufferRefPtr cuda_device_;
    std::shared_ptr<DeviceSurfaceSink> sink_;
    // Chunked decoding: from frame chunked_from_ on, the frames come from chunks_, decoded by
    // other decoders of this input; this one decodes the frames before it. Last: the workers
    // stop before the settings they copy go.
    bool chunking_decided_ = false;
    std::shared_ptr<const StreamTimes> chunk_times_;
    std::size_t chunked_from_ = 0;
    std::unique_ptr<ChunkedFrames> chunks_;
};

// What every chunk worker of an input starts from: the stream's timestamps, its codec parameters
// as the primary's probing found them, and whether its container must be probed again.
struct ChunkBasis {
    std::shared_ptr<const StreamTimes> times;
    std::shared_ptr<const AVCodecParameters> parameters;
    bool probe = true;
};

// A chunk worker's decoder: another Decoder of the same input.
class ChunkWorker final : public ChunkDecoder {
public:
    ChunkWorker(const Decoder& primary, unsigned threads, const ChunkBasis& basis)
        : decoder_(primary, threads, *basis.parameters, basis.probe), times_(basis.times) {}

    bool seek(std::size_t first) override {
        const std::optional<SeekPlan> plan = plan_seek(*times_, first);
        return plan && plan->target == first && decoder_.seek_to(*plan);
    }

    std::optional<Picture> next(std::int64_t& pts) override {
        std::optional<Picture> picture = decoder_.next();
        pts = decoder_.last_pts();
        return picture;
    }

private:
    Decoder decoder_;
    std::shared_ptr<const StreamTimes> times_;
};

unsigned Decoder::sessions_wanted() const {
    if (options_.sessions > 0) return options_.sessions;
    std::size_t frames = info_.frame_count.value_or(0);
    if (options_.frames_read) frames = std::min(frames, options_.frames_read);
    return sink_ && frames >= gpu_chunking_from_frames ? gpu_default_sessions : 1;
}

void Decoder::decide_chunking() {
    chunking_decided_ = true;
    const unsigned sessions = sessions_wanted();
    if (sessions < 2 || !have_frame_ || !one_frame_per_packet(codec_->codec_id)) return;
    std::optional<StreamTimes> times;
    try {
        times = stream_times();
    } catch (const Error&) {
        return;  // the file cannot be opened again: this decoder, which has it open, reads on
    }
    if (!times) return;
    std::vector<std::size_t> starts = keyframe_starts(*times, index_);
    if (options_.frames_read)  // no chunk the caller will not read from
        std::erase_if(starts, [&](std::size_t start) { return start >= options_.frames_read; });
    if (starts.empty()) return;
    CodecParametersPtr parameters(avcodec_parameters_alloc());
    if (!parameters) throw std::bad_alloc();
    if (avcodec_parameters_copy(parameters.get(), stream_->codecpar) < 0) return;
    chunk_times_ = std::make_shared<const StreamTimes>(std::move(*times));
    const ChunkBasis basis{chunk_times_, std::move(parameters), streams_need_probing()};
    chunked_from_ = starts.front();
    const std::size_t budget = sink_ ? sink_->buffer_bytes() : host_chunk_bytes;
    const std::size_t queued = budget / sessions / format_.frame_bytes();
    unsigned threads = options_.threads ? options_.threads : std::thread::hardware_concurrency();
    threads = std::max(1u, threads / sessions);
    chunks_ = std::make_unique<ChunkedFrames>(
        chunk_times_, std::move(starts),
        [this, threads, basis] { return std::make_unique<ChunkWorker>(*this, threads, basis); },
        sessions, queued);
}

}  // namespace

std::unique_ptr<FfmpegSource> open_ffmpeg(const std::string& path, const DecodeOptions& options) {
    return std::make_unique<Decoder>(path, std::nullopt, options);
}

std::unique_ptr<FfmpegSource> open_ffmpeg_memory(std::span<const std::byte> bytes,
                                                 const std::string& name,
                                                 const DecodeOptions& options) {
    return std::make_unique<Decoder>(name, bytes, options);
}

}  // namespace vq
