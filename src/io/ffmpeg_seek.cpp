#include "io/ffmpeg_seek.hpp"

#include <algorithm>
#include <vector>

#include "io/ffmpeg_util.hpp"

namespace vq::ffmpeg {

bool one_frame_per_packet(AVCodecID codec) {
    switch (codec) {
    case AV_CODEC_ID_H264:
    case AV_CODEC_ID_HEVC:
    case AV_CODEC_ID_AV1:         // a temporal unit shows exactly one frame
    case AV_CODEC_ID_VP9:         // hidden frames travel in superframes with a shown one
    case AV_CODEC_ID_MPEG2VIDEO:
    case AV_CODEC_ID_MPEG4:
    case AV_CODEC_ID_FFV1:
    case AV_CODEC_ID_PRORES:
    case AV_CODEC_ID_DNXHD:
    case AV_CODEC_ID_RAWVIDEO: return true;
    default: return false;
    }
}

namespace {

struct PacketTimes {
    std::int64_t pts, dts;
    bool keyframe;
};

// The stream's packets in decoding order; nullopt when one cannot be placed (see plan_seek).
std::optional<std::vector<PacketTimes>> read_packet_times(AVFormatContext& container,
                                                          int stream_index) {
    for (unsigned i = 0; i < container.nb_streams; ++i)
        if (int(i) != stream_index) container.streams[i]->discard = AVDISCARD_ALL;
    std::vector<PacketTimes> packets;
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
        packets.push_back({packet->pts, packet->dts, (packet->flags & AV_PKT_FLAG_KEY) != 0});
    }
    return packets;
}

}  // namespace

std::optional<SeekPlan> plan_seek(AVFormatContext& container, int stream_index,
                                  std::size_t target) {
    const auto packets = read_packet_times(container, stream_index);
    if (!packets || packets->empty()) return std::nullopt;
    target = std::min(target, packets->size() - 1);
    std::vector<std::int64_t> presentation;
    presentation.reserve(packets->size());
    for (const PacketTimes& packet : *packets) presentation.push_back(packet.pts);
    std::sort(presentation.begin(), presentation.end());
    if (std::adjacent_find(presentation.begin(), presentation.end()) != presentation.end())
        return std::nullopt;
    const std::int64_t target_pts = presentation[target];

    // The last keyframe in decoding order presented no later than the target. Frames presented
    // between the two but decoded before the keyframe would not come out after the seek: the
    // decoder's count of the frames between (frames_between) catches that.
    const PacketTimes* keyframe = nullptr;
    for (const PacketTimes& packet : *packets)
        if (packet.keyframe && packet.pts <= target_pts) keyframe = &packet;
    if (!keyframe) return std::nullopt;
    const auto first_kept =
        std::lower_bound(presentation.begin(), presentation.end(), keyframe->pts);
    const std::int64_t seek_timestamp =
        keyframe->dts == AV_NOPTS_VALUE ? keyframe->pts : std::min(keyframe->pts, keyframe->dts);
    return SeekPlan{target, seek_timestamp, keyframe->pts, target_pts,
                    std::size_t(presentation.begin() + std::ptrdiff_t(target) - first_kept)};
}

}  // namespace vq::ffmpeg
