// PNG encoding for the HTML report's thumbnails and CAMBI's heatmap previews, through libpng,
// which is loaded on the first encoding: a run that writes no PNG (nearly every run) does not
// load libpng and zlib at start (issue #24, start-up).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace vq {

enum class PngColour { gray = 1, rgb = 3 };  // the value is the samples per pixel

// An 8-bit image, rows top to bottom without padding, as PNG bytes (libpng's default compression
// and filters); nullopt when libpng reports an error. Throws vq::Error (runtime), naming the
// library and the loader's reason, when libpng cannot be loaded; a later call tries again.
std::optional<std::string> encode_png(std::span<const std::uint8_t> pixels, int width, int height,
                                      PngColour colour);

}  // namespace vq
