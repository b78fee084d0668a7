// An independent, textbook-structured CIEDE2000 frame score for the ciede tests.
//
// It follows the standard's step order (Sharma, Wu & Dalal 2005) with the reference's quirks and
// roundings of spec/ciede.md §4 spelled out inline, and it picks chroma by its own rule: nearest
// neighbour by the subsampling factors on vq's ceil-size planes, or, for the reference's 4:2:2
// reading, by literally building the reference's zero-padded chroma buffer (§3.3). It shares no
// code with src/metrics/ciede, so the tests that compare the two catch mistakes in either.
#pragma once

#include <math.h>

#include <cstdint>
#include <vector>

#include "vq/picture.hpp"

namespace vq::test::ciede_model {

struct Colour {
    float L, a, b;
};

inline Colour to_lab(int Y, int Cb, int Cr, int bit_depth) {
    const double s = double(1 << (bit_depth - 8));
    const double y = (Y - 16 * s) * (1 / (219 * s));
    const double u = (Cb - 128 * s) * (1 / (224 * s));
    const double v = (Cr - 128 * s) * (1 / (224 * s));
    double rgb[3] = {y + 1.28033 * v, (y - 0.21482 * u) - 0.38059 * v, y + 2.12798 * u};
    for (double& c : rgb)
        c = c > 10.0 / 255.0 ? pow((c + 0.055) * (1 / 1.055), 2.4) : c * (1 / 12.92);
    const double X =
        rgb[0] * 0.4124564390896921 + rgb[1] * 0.357576077643909 + rgb[2] * 0.18043748326639894;
    const double Yl =
        rgb[0] * 0.21267285140562248 + rgb[1] * 0.715152155287818 + rgb[2] * 0.07217499330655958;
    const double Z =
        rgb[0] * 0.019333895582329317 + rgb[1] * 0.119192025881303 + rgb[2] * 0.9503040785363677;
    const double t[3] = {X * (1 / 0.95047), Yl, Z * (1 / 1.08883)};
    float f[3];
    for (int k = 0; k < 3; ++k)
        f[k] = t[k] > 216.0 / 24389.0 ? float(pow(t[k], 1.0 / 3.0))
                                      : float((24389.0 / 27.0 * t[k] + 16) * (1 / 116.0));
    return {float(116 * double(f[1]) - 16), float(500 * (double(f[0]) - double(f[1]))),
            float(200 * (double(f[1]) - double(f[2])))};
}

inline float delta_e(Colour ref, Colour dist) {
    const double pi = 3.14159265358979323846;
    const float kL = 0.65f, kC = 1.0f, kH = 4.0f;
    // Step 1: C'_i and h'_i.
    const float C1 = float(sqrt(double(ref.a) * ref.a + double(ref.b) * ref.b));
    const float C2 = float(sqrt(double(dist.a) * dist.a + double(dist.b) * dist.b));
    const float Cbar = (C1 + C2) / 2.0f;
    const double G = 1 - sqrt(pow(Cbar, 7.0) / (pow(Cbar, 7.0) + 6103515625.0));
    const float a1p = float(ref.a + double(ref.a / 2.0f) * G);
    const float a2p = float(dist.a + double(dist.a / 2.0f) * G);
    const float C1p = float(sqrt(double(a1p) * a1p + double(ref.b) * ref.b));
    const float C2p = float(sqrt(double(a2p) * a2p + double(dist.b) * dist.b));
    float h1p = 0, h2p = 0;
    if (ref.b != 0 || a1p != 0) {
        h1p = float(atan2(double(ref.b), double(a1p)));
        if (h1p < 0) h1p = float(h1p + 2 * pi);
    }
    if (dist.b != 0 || a2p != 0) {
        h2p = float(atan2(double(dist.b), double(a2p)));
        if (h2p < 0) h2p = float(h2p + 2 * pi);
    }
    // Step 2: ΔL', ΔC', ΔH'.
    const float dLp = dist.L - ref.L;
    const float dCp = C2p - C1p;
    float dhp = 0;
    if (C1 != 0 && C2 != 0) {
        dhp = h2p - h1p;
        if (fabsf(h1p - h2p) > pi) dhp = float(h2p <= h1p ? dhp + 2 * pi : dhp - 2 * pi);
    }
    const float dHp = float(2 * sqrt(double(C1p * C2p)) * sin(dhp / 2.0));
    // Step 3: means, weighting functions, rotation; the reference always adds 2π when wrapping.
    const float Lbarp = (ref.L + dist.L) / 2.0f;
    const float Cbarp = (C1p + C2p) / 2.0f;
    const float hsum = h1p + h2p;
    const float Hbarp = float(fabs(double(h1p - h2p)) > pi ? (hsum + 2 * pi) / 2.0 : hsum / 2.0);
    const float T =
        float(1 - 0.17 * cos(Hbarp - pi / 6) + 0.24 * cos(2.0 * Hbarp) +
              0.32 * cos(3.0 * Hbarp + pi / 30) - 0.20 * cos(4.0 * Hbarp - 7 * pi / 20));
    const float Lm50 = Lbarp - 50.0f;
    const float SL = float(1 + 0.015 * (double(Lm50) * Lm50) / sqrt(20 + double(Lm50) * Lm50));
    const float SC = float(1 + 0.045 * Cbarp);
    const float SH = float(1 + 0.015 * Cbarp * T);
    const float Hdeg = float(Hbarp * (180 / pi));
    const float x = float((Hdeg - 275.0) * (1 / 25.0));
    const float C7 = powf(Cbarp, 7.0f);
    const float ratio = C7 / (C7 + powf(25.0f, 7.0f));
    const float dtheta = float(60 * exp(double(-(x * x))));
    const float RT = float(-2 * sqrt(double(ratio)) * sin(double(float(dtheta * (pi / 180)))));
    const float l = dLp / (kL * SL), c = dCp / (kC * SC), h = dHp / (kH * SH);
    return float(sqrt(double(l) * l + double(c) * c + double(h) * h + double((RT * c) * h)));
}

// Samples of one plane as ints, whatever the storage type.
inline std::vector<int> plane_codes(const Picture& picture, int plane) {
    const VideoFormat& f = picture.format();
    std::vector<int> codes(std::size_t(f.plane_width(plane)) * f.plane_height(plane));
    for (std::size_t k = 0; k < codes.size(); ++k)
        codes[k] = f.bit_depth > 8 ? picture.plane<std::uint16_t>(plane).data[k]
                                   : picture.plane<std::uint8_t>(plane).data[k];
    return codes;
}

// The reference's chroma buffer for 4:2:2: Cb then Cr, each of width W/2 rows padded to a
// multiple of 32 samples with zeros, followed by zeros standing in for memory past the planes.
inline std::vector<int> reference_422_buffer(const Picture& picture, int pitch) {
    const VideoFormat& f = picture.format();
    const int cw = f.plane_width(1), ch = f.plane_height(1);
    std::vector<int> buffer(std::size_t(pitch) * ch * 3, 0);
    for (int p = 1; p <= 2; ++p) {
        const std::vector<int> codes = plane_codes(picture, p);
        for (int r = 0; r < ch; ++r)
            for (int c = 0; c < cw; ++c)
                buffer[std::size_t(p - 1) * pitch * ch + std::size_t(r) * pitch + c] =
                    codes[std::size_t(r) * cw + c];
    }
    return buffer;
}

// Frame score (§4.7). reference_422 selects the reference's 4:2:2 reading.
inline double frame_score(const Picture& ref, const Picture& dist, bool reference_422 = false) {
    const VideoFormat& f = ref.format();
    const int sx = f.chroma == ChromaFormat::yuv444 ? 1 : 2;
    const int sy = f.chroma == ChromaFormat::yuv420 ? 2 : 1;
    const int cw = f.plane_width(1), ch = f.plane_height(1);
    const int pitch = (cw + 31) / 32 * 32;
    const std::vector<int> codes[2][3] = {
        {plane_codes(ref, 0), plane_codes(ref, 1), plane_codes(ref, 2)},
        {plane_codes(dist, 0), plane_codes(dist, 1), plane_codes(dist, 2)}};
    const std::vector<int> padded[2] = {
        reference_422 ? reference_422_buffer(ref, pitch) : std::vector<int>{},
        reference_422 ? reference_422_buffer(dist, pitch) : std::vector<int>{}};
    double sum = 0;
    for (int i = 0; i < f.height; ++i)
        for (int j = 0; j < f.width; ++j) {
            Colour lab[2];
            for (int k = 0; k < 2; ++k) {
                int cb, cr;
                if (reference_422) {
                    const std::size_t at = std::size_t(i / 2) * pitch + j;
                    cb = padded[k][at];
                    cr = padded[k][std::size_t(pitch) * ch + at];
                } else {
                    const std::size_t at = std::size_t(i / sy) * cw + j / sx;
                    cb = codes[k][1][at];
                    cr = codes[k][2][at];
                }
                lab[k] = to_lab(codes[k][0][std::size_t(i) * f.width + j], cb, cr, f.bit_depth);
            }
            sum += delta_e(lab[0], lab[1]);
        }
    return 45 - 20 * log10(sum / (double(f.width) * f.height));
}

}  // namespace vq::test::ciede_model
