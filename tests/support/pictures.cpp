#include "pictures.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace vq::test {
namespace {

// A 32-bit integer hash (the finaliser of MurmurHash3's 32-bit mix, shortened).
std::uint32_t mix(std::uint32_t h) {
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 13;
    return h;
}

std::uint32_t hash2(std::uint32_t x, std::uint32_t y, std::uint32_t seed) {
    return mix(x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ seed);
}

// Value noise in [0, 1]: random values on lattices of 64-, 32-, ..., 2-sample cells, smoothly
// interpolated, each octave half the amplitude of the coarser one, so most energy sits at low
// frequencies as in a photograph, and contrast stretched back after the averaging.
double value_noise(int x, int y, std::uint32_t seed) {
    double sum = 0, weight = 0, amplitude = 1;
    for (int cell = 64; cell >= 2; cell /= 2, amplitude *= 0.5) {
        const int i = x / cell, j = y / cell;
        const auto smooth = [](double t) { return t * t * (3 - 2 * t); };
        const double fx = smooth((x % cell + 0.5) / cell), fy = smooth((y % cell + 0.5) / cell);
        const auto at = [&](int a, int b) {
            return hash2(std::uint32_t(a), std::uint32_t(b), seed + std::uint32_t(cell)) /
                   4294967296.0;
        };
        const double top = at(i, j) + (at(i + 1, j) - at(i, j)) * fx;
        const double bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * fx;
        sum += amplitude * (top + (bottom - top) * fy);
        weight += amplitude;
    }
    return std::clamp(0.5 + 2.5 * (sum / weight - 0.5), 0.0, 1.0);
}

}  // namespace

const char* to_string(Content content) {
    switch (content) {
    case Content::zeros: return "zeros";
    case Content::maxima: return "maxima";
    case Content::flat: return "flat";
    case Content::noise: return "noise";
    case Content::ramp: return "ramp";
    case Content::texture: return "texture";
    case Content::banded: return "banded";
    case Content::grainy: return "grainy";
    case Content::patchwork: return "patchwork";
    case Content::staircase: return "staircase";
    case Content::extremes: return "extremes";
    }
    return "?";
}

Picture make_picture(const VideoFormat& format, const std::function<int(int, int, int)>& code) {
    Picture picture = Picture::allocate(format);
    for (int p = 0; p < format.plane_count(); ++p) {
        const int width = format.plane_width(p);
        for (int r = 0; r < format.plane_height(p); ++r)
            for (int c = 0; c < width; ++c) {
                const std::size_t at = std::size_t(r) * std::size_t(width) + std::size_t(c);
                if (format.bit_depth > 8)
                    picture.plane_data<std::uint16_t>(p)[at] = std::uint16_t(code(p, r, c));
                else
                    picture.plane_data<std::uint8_t>(p)[at] = std::uint8_t(code(p, r, c));
            }
    }
    return picture;
}

Picture make_picture(const VideoFormat& format, Content content, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const int maximum = (1 << format.bit_depth) - 1;
    const int unit = 1 << (format.bit_depth - 8);  // one 8-bit code step
    std::uniform_int_distribution<int> any(0, maximum);
    switch (content) {
    case Content::zeros: return Picture::allocate(format);
    case Content::maxima: return make_picture(format, [&](int, int, int) { return maximum; });
    case Content::flat: {
        const int code = any(rng);
        return make_picture(format, [&](int, int, int) { return code; });
    }
    case Content::noise: return make_picture(format, [&](int, int, int) { return any(rng); });
    case Content::ramp:
        return make_picture(format, [&](int p, int r, int c) {
            return int((std::int64_t(r) * 7 + std::int64_t(c) * 13 + p * 31) % (maximum + 1));
        });
    case Content::texture:
        return make_picture(format, [&](int p, int r, int c) {
            const int grain =
                int(hash2(std::uint32_t(c), std::uint32_t(r), seed ^ 0x5bd1e995u) % 5) - 2;
            const double level = value_noise(c, r, seed * 3u + std::uint32_t(p));
            return std::clamp(int(std::lround(level * maximum)) + grain * unit, 0, maximum);
        });
    default: break;
    }
    // The scenes below draw their parameters first, then the samples in raster order.
    std::uniform_int_distribution<int> block_side(4, 19);
    const int block_w = block_side(rng), block_h = block_side(rng);
    const int bands = 40 + int(seed % 80);
    const std::uint32_t blocks_seed = rng();
    return make_picture(format, [&](int p, int y, int x) {
        const int band =
            (x + y / 2) * bands / (format.plane_width(p) + format.plane_height(p) / 2 + 1);
        const int ramp = (40 + 2 * band) * unit;
        int code = 0;
        switch (content) {
        case Content::banded: code = any(rng) % 256 == 0 ? ramp + unit : ramp; break;
        case Content::grainy:
            code = any(rng) % 8 == 0 ? ramp + (any(rng) % 3 - 1) * unit : ramp;
            break;
        case Content::patchwork:
            code = int(hash2(std::uint32_t(x / block_w), std::uint32_t(y / block_h), blocks_seed) %
                       std::uint32_t(maximum + 1));
            break;
        case Content::staircase: code = (x / 3 + y / 97) % (maximum + 1); break;
        case Content::extremes: code = (x / 16 + y / 16) % 5 == 0 ? 0 : maximum; break;
        default: break;
        }
        return std::clamp(code, 0, maximum);
    });
}

int sample_at(const Picture& picture, int plane, int row, int column) {
    if (picture.format().bit_depth > 8) return picture.plane<std::uint16_t>(plane).at(row, column);
    return picture.plane<std::uint8_t>(plane).at(row, column);
}

Picture perturbed(const Picture& picture, int spread, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> delta(-spread, spread);
    const int maximum = (1 << picture.format().bit_depth) - 1;
    return make_picture(picture.format(), [&](int p, int r, int c) {
        return std::clamp(sample_at(picture, p, r, c) + delta(rng), 0, maximum);
    });
}

std::vector<FramePair> adversarial_frames(const VideoFormat& format, int count,
                                          std::uint32_t seed) {
    std::vector<FramePair> frames;
    for (int i = 0; i < count; ++i) {
        const std::uint32_t s = seed * 1000u + std::uint32_t(i) * 2u;
        switch (i % 4) {
        case 0:
            frames.push_back({make_picture(format, Content::noise, s),
                              make_picture(format, Content::noise, s + 1)});
            break;
        case 1: {
            const Picture same = make_picture(format, Content::noise, s);
            frames.push_back({same, same});
            break;
        }
        case 2:
            frames.push_back({make_picture(format, Content::maxima, s),
                              make_picture(format, Content::zeros, s)});
            break;
        case 3:
            frames.push_back(
                {make_picture(format, Content::ramp, s), make_picture(format, Content::noise, s)});
            break;
        }
    }
    return frames;
}

}  // namespace vq::test
