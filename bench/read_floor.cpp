// vq-read-floor: reads inputs through vq's readers (read-ahead threads included) and scores
// nothing: the floor under any end-to-end timing of the CLI.
//
//   vq-read-floor [options] REF DIST [W H]   both inputs, as the CLI reads them
//   vq-read-floor [options] DIST [W H]       one input (a no-reference run, CAMBI alone)
// With W H the inputs are raw 8-bit 4:2:0, otherwise Y4M. Options:
//   --threads N       reading threads per input (default: as the CLI, min(4, hardware threads))
//   --depth N         frames read ahead per input (default 4, as the CLI)
//   --passes N        read the inputs N times over, for a longer measurement (default 1)
// Prints the frames read and the time per frame (per pair with two inputs), from the first
// frame's request to the end, opening excluded.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "io/frame_source.hpp"
#include "vq/error.hpp"

namespace {

struct Options {
    std::vector<std::string> inputs;
    int width = 0;  // 0: Y4M
    int height = 0;
    unsigned threads = vq::default_read_threads();
    std::size_t depth = 4;
    int passes = 1;
};

[[noreturn]] void usage() {
    std::cerr << "usage: vq-read-floor [--threads N] [--depth N] [--passes N] [REF] DIST [W H]\n";
    std::exit(2);
}

int positive(const char* text) {
    const int value = std::atoi(text);
    if (value <= 0) usage();
    return value;
}

Options parse(int argc, char** argv) {
    Options options;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--threads" && has_value) {
            options.threads = unsigned(positive(argv[++i]));
        } else if (arg == "--depth" && has_value) {
            options.depth = std::size_t(positive(argv[++i]));
        } else if (arg == "--passes" && has_value) {
            options.passes = positive(argv[++i]);
        } else if (arg.starts_with("--")) {
            usage();
        } else {
            positional.emplace_back(arg);
        }
    }
    // One or two files, then W H for raw video: 1 and 2 positionals are Y4M, 3 and 4 raw.
    if (positional.empty() || positional.size() > 4) usage();
    if (positional.size() >= 3) {
        options.height = positive(positional.back().c_str());
        positional.pop_back();
        options.width = positive(positional.back().c_str());
        positional.pop_back();
    }
    options.inputs = positional;
    return options;
}

std::unique_ptr<vq::FrameSource> open(const Options& options, const std::string& path) {
    if (options.width == 0) return vq::open_y4m(path);
    return vq::open_yuv(path, {options.width, options.height, 8, vq::ChromaFormat::yuv420});
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    try {
        std::size_t frames = 0;
        std::size_t bytes = 0;
        std::chrono::steady_clock::duration elapsed{};
        for (int pass = 0; pass < options.passes; ++pass) {
            std::vector<std::unique_ptr<vq::FrameSource>> sources;
            for (const std::string& path : options.inputs)
                sources.push_back(
                    vq::read_ahead(open(options, path), options.depth, options.threads));
            const auto start = std::chrono::steady_clock::now();
            for (;; ++frames) {
                bool complete = true;
                for (const auto& source : sources) {
                    const std::optional<vq::Picture> picture = source->next();
                    complete = complete && picture.has_value();
                    if (picture) bytes += picture->size_bytes();
                }
                if (!complete) break;
            }
            elapsed += std::chrono::steady_clock::now() - start;
        }
        const double seconds = std::chrono::duration<double>(elapsed).count();
        const char* unit = options.inputs.size() == 2 ? "frame pairs" : "frames";
        std::cout << fmt::format(
            "{} {} read in {:.3f} s: {:.2f} ms each, {:.0f}/s, {:.2f} GB/s "
            "({} threads, depth {})\n",
            frames, unit, seconds, seconds * 1e3 / double(frames), double(frames) / seconds,
            double(bytes) / seconds / 1e9, options.threads, options.depth);
    } catch (const vq::Error& e) {
        std::cerr << "vq-read-floor: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
