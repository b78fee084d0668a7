// vq-synth: writes a synthetic reference/distorted pair (raw YUV or Y4M) for benchmarks and demos.
//   vq-synth --scene banded_gradient --size 3840x2160 --frames 40 --ref ref.yuv --dist dist.yuv
#include <cstdio>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "vq/error.hpp"
#include "core/synthetic.hpp"

namespace {

void write_clip(const std::string& path, const vq::VideoFormat& format, vq::SyntheticScene scene,
                int frames, bool distorted, bool y4m) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw vq::runtime_error(fmt::format("cannot write '{}'", path));
    if (y4m) {
        const char* tag = format.chroma == vq::ChromaFormat::yuv444   ? "444"
                          : format.chroma == vq::ChromaFormat::yuv422 ? "422"
                          : format.chroma == vq::ChromaFormat::yuv400 ? "mono"
                                                                      : "420";
        out << fmt::format("YUV4MPEG2 W{} H{} F25:1 Ip A1:1 C{}{}\n", format.width, format.height,
                           tag, format.bit_depth > 8 ? fmt::format("p{}", format.bit_depth) : "");
    }
    for (int i = 0; i < frames; ++i) {
        const vq::Picture picture = vq::make_synthetic_frame(format, scene, i, distorted);
        if (y4m) out << "FRAME\n";
        out.write(reinterpret_cast<const char*>(picture.data()),
                  std::streamsize(picture.size_bytes()));
    }
    if (!out) throw vq::runtime_error(fmt::format("cannot write '{}'", path));
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"vq-synth: synthetic reference/distorted clips", "vq-synth"};
    std::string scene_name = "banded_gradient", size = "1920x1080", chroma = "420", ref, dist;
    int frames = 10, bit_depth = 8;
    bool y4m = false;
    app.add_option("--scene", scene_name, "banded_gradient, textured or mixed")
        ->check(CLI::IsMember({"banded_gradient", "textured", "mixed"}));
    app.add_option("--size", size, "WxH");
    app.add_option("--bit-depth", bit_depth)->check(CLI::Range(8, 16));
    app.add_option("--chroma", chroma)->check(CLI::IsMember({"420", "422", "444", "400"}));
    app.add_option("--frames", frames)->check(CLI::PositiveNumber);
    app.add_option("--ref", ref, "reference output file")->required();
    app.add_option("--dist", dist, "distorted output file")->required();
    app.add_flag("--y4m", y4m, "write Y4M instead of raw YUV");
    CLI11_PARSE(app, argc, argv);
    try {
        vq::VideoFormat format;
        if (std::sscanf(size.c_str(), "%dx%d", &format.width, &format.height) != 2)
            throw vq::usage_error(fmt::format("--size: expected WxH, got '{}'", size));
        format.bit_depth = bit_depth;
        format.chroma = chroma == "444"   ? vq::ChromaFormat::yuv444
                        : chroma == "422" ? vq::ChromaFormat::yuv422
                        : chroma == "400" ? vq::ChromaFormat::yuv400
                                          : vq::ChromaFormat::yuv420;
        vq::validate(format);
        const auto scene = scene_name == "textured" ? vq::SyntheticScene::textured
                           : scene_name == "mixed"  ? vq::SyntheticScene::mixed
                                                    : vq::SyntheticScene::banded_gradient;
        write_clip(ref, format, scene, frames, false, y4m);
        write_clip(dist, format, scene, frames, true, y4m);
    } catch (const vq::Error& e) {
        std::cerr << "vq-synth: " << e.what() << "\n";
        return e.kind() == vq::ErrorKind::usage ? 2 : 1;
    }
    return 0;
}
