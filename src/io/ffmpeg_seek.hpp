// Seeking to a frame by its number, exactly: a chunk of a long title (vq::run_chunk) starts at
// frame N without decoding the N frames before it. Containers seek by timestamp to a keyframe, and
// a frame's number is its rank in presentation order, so the plan comes from the stream's packet
// timestamps, read (not decoded) from the start of the file; the decoder then checks each frame
// it outputs against the plan (ffmpeg_source.cpp), and any surprise falls back to decoding from
// the start.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

extern "C" {
#include <libavcodec/codec_id.h>
#include <libavformat/avformat.h>
}

namespace vq::ffmpeg {

// How to reach frame `target` (counted from 0 in presentation order): seek the stream to
// `seek_timestamp` with AVSEEK_FLAG_BACKWARD (a keyframe at or before the planned one), decode,
// drop the frames presented before `keyframe_pts`, and the target is the frame with
// `target_pts`, after exactly `frames_between` frames with keyframe_pts <= pts < target_pts.
struct SeekPlan {
    std::size_t target = 0;
    std::int64_t seek_timestamp = 0;
    std::int64_t keyframe_pts = 0;
    std::int64_t target_pts = 0;
    std::size_t frames_between = 0;
};

// Whether every packet of the codec's streams is exactly one output frame, as the plan assumes
// (not so for VP8's hidden alternate-reference frames, for one).
bool one_frame_per_packet(AVCodecID codec);

// Reads every packet of stream `stream_index` of a freshly opened `container` (demuxing only)
// and plans the way to frame `target`, or to the last frame when the stream has no more; nullopt
// when the timestamps cannot place it: a packet without a presentation timestamp or marked
// corrupt, two frames with one timestamp, a read error, no packet, or no keyframe before it.
std::optional<SeekPlan> plan_seek(AVFormatContext& container, int stream_index, std::size_t target);

}  // namespace vq::ffmpeg
