// Seeking to a frame by its number, exactly: a chunk of a long title (vq::run_chunk) starts at
// frame N without decoding the N frames before it, and several decoders share one input, each on
// chunks that start at keyframes (ffmpeg_chunks.hpp). Containers seek by timestamp to a keyframe,
// and a frame's number is its rank in presentation order, so the plan comes from the stream's
// packet timestamps, read (not decoded) from the start of the file; the decoder then checks each
// frame it outputs against the plan (ffmpeg_source.cpp), and any surprise falls back to decoding
// from the start.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

extern "C" {
#include <libavcodec/codec_id.h>
#include <libavformat/avformat.h>
}

namespace vq::ffmpeg {

// How to reach frame `target` (counted from 0 in presentation order): seek the stream with
// AVSEEK_FLAG_BACKWARD to `keyframe_pts`, the planned keyframe's own time, or, where that lands
// past the keyframe, to `seek_timestamp` (the lower of its pts and dts: a keyframe at or before
// it whatever a demuxer's seek takes, pts or dts); decode, drop the frames presented before
// keyframe_pts, and the target is the frame with `target_pts`, after exactly `frames_between`
// frames with keyframe_pts <= pts < target_pts. (MP4's and Matroska's demuxers seek by pts: the
// first lands on the keyframe there, where the second lands a whole GOP early when B-frames put
// its dts below its pts.)
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

// A stream's timestamps as its packets give them, read once for any number of plans.
struct StreamTimes {
    struct Keyframe {
        std::int64_t pts, dts;  // dts may be AV_NOPTS_VALUE
    };
    std::vector<std::int64_t> presentation;  // every frame's pts, in presentation order
    std::vector<Keyframe> keyframes;         // in decoding order
};

// Reads every packet of stream `stream_index` of a freshly opened `container` (demuxing only);
// nullopt when the timestamps cannot place every frame: a packet without a presentation timestamp
// or marked corrupt, two frames with one timestamp, a read error, or no packet.
std::optional<StreamTimes> read_stream_times(AVFormatContext& container, int stream_index);

// The way to frame `target`, or to the last frame when the stream has no more; nullopt when no
// keyframe is presented at or before it.
std::optional<SeekPlan> plan_seek(const StreamTimes& times, std::size_t target);

// The frames after `first` (in presentation order) that a keyframe shows: where a decoder that
// seeks there gives every later frame without decoding any earlier one, as the plan's check
// confirms.
std::vector<std::size_t> keyframe_starts(const StreamTimes& times, std::size_t first);

}  // namespace vq::ffmpeg
