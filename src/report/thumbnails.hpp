// The report's worst frames: which frames, and small PNG pictures of them.
//
// Why the pictures are read again after the run rather than kept during it: a frame's rank is
// known only once every frame is scored (a VMAF model predicts its per-frame scores at the end of
// the run), so a run that kept pictures would have to keep one per frame, without bound. So the
// run keeps nothing; when it is done, the worst frames are chosen and both inputs are opened
// again and read (not decoded further than the last chosen frame) for just those frames. Memory
// stays bounded by the number of thumbnails. An input that cannot be read twice (standard input,
// a pipe) gets no thumbnails, and the report says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/frame_source.hpp"
#include "vq/picture.hpp"
#include "vq/scores.hpp"

namespace vq::report {

struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // R, G, B per pixel, rows top to bottom
};

// The picture shrunk by box averaging to at most `max_width` pixels wide (never enlarged), its
// aspect ratio kept, converted to 8-bit RGB with BT.709's limited-range matrix.
RgbImage thumbnail_of(const Picture& picture, int max_width);

// A black image of the size thumbnail_of gives a picture of `format`: at most max_width wide,
// the picture's aspect ratio kept.
RgbImage thumbnail_canvas(const VideoFormat& format, int max_width);

// The image as a PNG file's bytes. Throws vq::Error (runtime) if libpng fails.
std::string encode_png(const RgbImage& image);

// RFC 4648 base64, for data: URLs.
std::string base64(std::string_view bytes);

// The column the report ranks frames by: the first model's score (a column no feature wrote),
// else the first column. None for an empty table.
std::optional<std::size_t> ranking_column(const ScoreTable& table);

// Up to `count` printed frames with the worst values of `column`, worst first: the lowest, or
// the highest for a score where higher is worse (CAMBI's banding). Frames without a finite value
// are never chosen.
std::vector<std::size_t> worst_frames(const ScoreTable& table, std::size_t column,
                                      std::size_t count);

struct FrameThumbnails {
    std::size_t frame = 0;
    std::string reference_png;  // empty when the run had no reference
    std::string distorted_png;
    std::string banding_png;  // CAMBI's map of the distorted picture; empty where CAMBI did not run
};

class BandingMap;  // banding_map.hpp

// Reads the sources (positioned where the run's frame 0 is) up to the last of `frames` and makes
// thumbnails of those frames, in `frames`' order, with the distorted pictures' banding maps when
// `banding` is not null. Frames the sources do not reach are left out.
std::vector<FrameThumbnails> read_thumbnails(FrameSource* reference, FrameSource& distorted,
                                             const std::vector<std::size_t>& frames, int max_width,
                                             const BandingMap* banding = nullptr);

}  // namespace vq::report
