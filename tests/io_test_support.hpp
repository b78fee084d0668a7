// What the reader tests share: small input files with known, distinct samples.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "core/synthetic.hpp"
#include "vq/error.hpp"
#include "vq/picture.hpp"

namespace vq::test {

// A distinct, deterministic sample per (frame, plane, index) that uses all of the depth's bits,
// so that a swapped plane, a shifted frame or a wrong byte order shows.
unsigned sample_value(int frame, int plane, std::size_t index, int bit_depth);

// One frame's samples in file layout (planes back to back, 16-bit little-endian above 8 bits).
std::string frame_bytes(const VideoFormat& format, int frame);

// `header` and its '\n', then `frames` frames, each after a bare FRAME line.
std::string y4m_file(const std::string& header, const VideoFormat& format, int frames);

std::filesystem::path write_file(const std::filesystem::path& path, const std::string& bytes);

// A 4:2:0 Y4M file of frames 0..frames-1 of a synthetic scene's reference or distorted clip
// (core/synthetic.hpp): content the metrics score as they would real video.
std::filesystem::path write_synthetic_y4m(const std::filesystem::path& path,
                                          const VideoFormat& format, SyntheticScene scene,
                                          bool distorted, int frames);

// The message of the vq::Error of `kind` that `action` throws; fails the test otherwise.
std::string error_of(const std::function<void()>& action, ErrorKind kind = ErrorKind::runtime);

}  // namespace vq::test
