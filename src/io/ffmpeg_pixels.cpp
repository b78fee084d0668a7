#include "io/ffmpeg_pixels.hpp"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>

extern "C" {
#include <libavutil/pixdesc.h>
}

#include "io/ffmpeg_util.hpp"

namespace vq::ffmpeg {
namespace {

// The luma and chroma components a Picture takes (alpha, component 1 or 3, is not among them).
int colour_components(const AVPixFmtDescriptor& desc) { return desc.nb_components >= 3 ? 3 : 1; }

// Bytes one stored sample of the component occupies: its bits (depth above shift) fit in one
// byte or in a 16-bit word.
int stored_bytes(const AVComponentDescriptor& comp) { return comp.depth + comp.shift > 8 ? 2 : 1; }

std::optional<std::string> unsupported_reason(const AVPixFmtDescriptor& desc) {
    const std::string name = desc.name;
    if (desc.flags & AV_PIX_FMT_FLAG_HWACCEL) return "is a hardware surface";
    if (desc.flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL))
        return "is RGB or paletted (converting it to YCbCr would not be lossless; convert it "
               "yourself, for example ffmpeg -pix_fmt yuv444p)";
    if (desc.flags & AV_PIX_FMT_FLAG_FLOAT) return "holds floating-point samples";
    if (desc.flags & AV_PIX_FMT_FLAG_BAYER) return "is a Bayer mosaic";
    if (desc.flags & AV_PIX_FMT_FLAG_BITSTREAM) return "is bit-packed";
    if (name.starts_with("xyz")) return "is CIE XYZ";
    const int components = colour_components(desc);
    const int depth = desc.comp[0].depth;
    if (depth < 8 || depth > 16) return fmt::format("has {}-bit samples (vq reads 8 to 16)", depth);
    for (int c = 0; c < components; ++c) {
        const AVComponentDescriptor& comp = desc.comp[c];
        if (comp.depth != depth) return "has components of different bit depths";
        // A 16-bit read at the component's offset must stay within its own pixel group.
        if (comp.depth + comp.shift > 16 || (stored_bytes(comp) == 2 && comp.step < 2))
            return "packs samples across byte boundaries";
    }
    if (components == 3) {
        const int w = desc.log2_chroma_w, h = desc.log2_chroma_h;
        if (!((w == 1 && h == 1) || (w == 1 && h == 0) || (w == 0 && h == 0)))
            return fmt::format("has chroma subsampled by {}x{} (vq reads 4:2:0, 4:2:2 and 4:4:4)",
                               1 << w, 1 << h);
    }
    return std::nullopt;
}

template <typename Sample>
void gather(const AVFrame& frame, const AVPixFmtDescriptor& desc, int c, Sample* dest, int width,
            int height) {
    const AVComponentDescriptor& comp = desc.comp[c];
    const std::uint8_t* base = frame.data[comp.plane] + comp.offset;
    const std::ptrdiff_t stride = frame.linesize[comp.plane];
    const int step = comp.step, shift = comp.shift;
    const unsigned mask = (1u << comp.depth) - 1;
    const bool wide = stored_bytes(comp) == 2;
    const bool big_endian = desc.flags & AV_PIX_FMT_FLAG_BE;

    // Planar samples stored as the Picture stores them: whole rows at once.
    if (step == int(sizeof(Sample)) && shift == 0 && wide == (sizeof(Sample) == 2) && !big_endian) {
        for (int y = 0; y < height; ++y)
            std::memcpy(dest + std::size_t(y) * width, base + y * stride,
                        std::size_t(width) * sizeof(Sample));
        return;
    }
    for (int y = 0; y < height; ++y) {
        const std::uint8_t* in = base + y * stride;
        Sample* out = dest + std::size_t(y) * width;
        if (!wide) {
            for (int x = 0; x < width; ++x)
                out[x] = Sample((in[std::ptrdiff_t(x) * step] >> shift) & mask);
        } else if (!big_endian) {
            for (int x = 0; x < width; ++x) {
                const std::uint8_t* p = in + std::ptrdiff_t(x) * step;
                out[x] = Sample(((unsigned(p[0]) | unsigned(p[1]) << 8) >> shift) & mask);
            }
        } else {
            for (int x = 0; x < width; ++x) {
                const std::uint8_t* p = in + std::ptrdiff_t(x) * step;
                out[x] = Sample(((unsigned(p[0]) << 8 | unsigned(p[1])) >> shift) & mask);
            }
        }
    }
}

}  // namespace

std::optional<VideoFormat> picture_format(AVPixelFormat format, int width, int height,
                                          std::string& why) {
    const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(format);
    if (!desc) {
        why = fmt::format("{} is unknown to FFmpeg", pixel_format_name(format));
        return std::nullopt;
    }
    if (auto reason = unsupported_reason(*desc)) {
        why = fmt::format("pixel format {} {}", desc->name, *reason);
        return std::nullopt;
    }
    VideoFormat result{width, height, desc->comp[0].depth, ChromaFormat::yuv400};
    if (colour_components(*desc) == 3)
        result.chroma = desc->log2_chroma_w == 0   ? ChromaFormat::yuv444
                        : desc->log2_chroma_h == 0 ? ChromaFormat::yuv422
                                                   : ChromaFormat::yuv420;
    return result;
}

void copy_frame(const AVFrame& frame, Picture& picture) {
    const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(frame.format));
    const VideoFormat& format = picture.format();
    // Picture planes are Y, Cb, Cr; FFmpeg's components 0, 1, 2 are Y, U (Cb), V (Cr) whatever
    // their order in memory (nv21, yvyu422 ...), which the descriptor's offsets express.
    for (int c = 0; c < format.plane_count(); ++c) {
        const int width = format.plane_width(c), height = format.plane_height(c);
        if (format.bytes_per_sample() == 1)
            gather(frame, *desc, c, picture.plane_data<std::uint8_t>(c), width, height);
        else
            gather(frame, *desc, c, picture.plane_data<std::uint16_t>(c), width, height);
    }
}

AVPixelFormat planar_pixel_format(const VideoFormat& format) {
    std::string name;
    switch (format.chroma) {
    case ChromaFormat::yuv420: name = "yuv420p"; break;
    case ChromaFormat::yuv422: name = "yuv422p"; break;
    case ChromaFormat::yuv444: name = "yuv444p"; break;
    case ChromaFormat::yuv400: name = "gray"; break;
    }
    if (format.bit_depth > 8) name += fmt::format("{}le", format.bit_depth);
    return av_get_pix_fmt(name.c_str());
}

}  // namespace vq::ffmpeg
