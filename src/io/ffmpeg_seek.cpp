#include "io/ffmpeg_seek.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "io/ffmpeg_util.hpp"

namespace vq::ffmpeg {

bool one_frame_per_packet(AVCodecID codec) {
    switch (codec) {
    case AV_CODEC_ID_H264:
    case AV_CODEC_ID_HEVC:
    case AV_CODEC_ID_AV1:  // a temporal unit shows exactly one frame
    case AV_CODEC_ID_VP9:  // hidden frames travel in superframes with a shown one
    case AV_CODEC_ID_MPEG2VIDEO:
    case AV_CODEC_ID_MPEG4:
    case AV_CODEC_ID_FFV1:
    case AV_CODEC_ID_PRORES:
    case AV_CODEC_ID_DNXHD:
    case AV_CODEC_ID_RAWVIDEO: return true;
    default: return false;
    }
}

std::optional<StreamTimes> read_stream_times(AVFormatContext& container, int stream_index) {
    for (unsigned i = 0; i < container.nb_streams; ++i)
        if (int(i) != stream_index) container.streams[i]->discard = AVDISCARD_ALL;
    StreamTimes times;
    PacketPtr packet = make_packet();
    for (;;) {
        const int read = av_read_frame(&container, packet.get());
        if (read == AVERROR_EOF) break;
        if (read < 0) return std::nullopt;
        PacketUnref unref(packet.get());
        // A packet the container marks for discarding (outside an MP4 edit list) is decoded for
        // reference only and never output.
        if (packet->stream_index != stream_index || (packet->flags & AV_PKT_FLAG_DISCARD)) continue;
        if (packet->pts == AV_NOPTS_VALUE || (packet->flags & AV_PKT_FLAG_CORRUPT))
            return std::nullopt;
        times.presentation.push_back(packet->pts);
        if (packet->flags & AV_PKT_FLAG_KEY) times.keyframes.push_back({packet->pts, packet->dts});
    }
    if (times.presentation.empty()) return std::nullopt;
    std::sort(times.presentation.begin(), times.presentation.end());
    if (std::adjacent_find(times.presentation.begin(), times.presentation.end()) !=
        times.presentation.end())
        return std::nullopt;
    return times;
}

std::optional<SeekPlan> plan_seek(const StreamTimes& times, std::size_t target) {
    const std::vector<std::int64_t>& presentation = times.presentation;
    target = std::min(target, presentation.size() - 1);
    const std::int64_t target_pts = presentation[target];

    // The last keyframe in decoding order presented no later than the target. Frames presented
    // between the two but decoded before the keyframe would not come out after the seek: the
    // decoder's count of the frames between (frames_between) catches that.
    const StreamTimes::Keyframe* keyframe = nullptr;
    for (const StreamTimes::Keyframe& candidate : times.keyframes)
        if (candidate.pts <= target_pts) keyframe = &candidate;
    if (!keyframe) return std::nullopt;
    const auto first_kept =
        std::lower_bound(presentation.begin(), presentation.end(), keyframe->pts);
    const std::int64_t seek_timestamp =
        keyframe->dts == AV_NOPTS_VALUE ? keyframe->pts : std::min(keyframe->pts, keyframe->dts);
    return SeekPlan{target, seek_timestamp, keyframe->pts, target_pts,
                    std::size_t(presentation.begin() + std::ptrdiff_t(target) - first_kept)};
}

std::vector<std::size_t> keyframe_starts(const StreamTimes& times, std::size_t first) {
    // plan_seek() seeks to a keyframe's own frame (frames_between 0) unless a keyframe decoded
    // after it is presented before it: keep those whose pts is below every later keyframe's.
    std::vector<std::size_t> starts;
    std::int64_t later_minimum = std::numeric_limits<std::int64_t>::max();
    for (auto keyframe = times.keyframes.rbegin(); keyframe != times.keyframes.rend(); ++keyframe) {
        if (keyframe->pts < later_minimum) {
            const auto frame =
                std::size_t(std::lower_bound(times.presentation.begin(), times.presentation.end(),
                                             keyframe->pts) -
                            times.presentation.begin());
            if (frame > first) starts.push_back(frame);
        }
        later_minimum = std::min(later_minimum, keyframe->pts);
    }
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    return starts;
}

}  // namespace vq::ffmpeg
