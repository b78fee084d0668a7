// vq-decode: reads inputs through vq's own readers (Y4M, raw YUV, FFmpeg) and the same read-ahead
// as vq, and reports frames per second; nothing is scored. scripts/bench_decode.sh sets it beside
// "ffmpeg -f null" to show what decoding costs a run.
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "io/frame_source.hpp"
#include "io/open_video.hpp"
#include "vq/error.hpp"

int main(int argc, char** argv) {
    CLI::App app{"vq-decode: decode inputs as vq reads them and report the throughput",
                 "vq-decode"};
    std::vector<std::string> paths;
    unsigned decode_threads = 0, decode_sessions = 0, read_ahead_frames = 8;
    app.add_option("inputs", paths, "videos to read (one after the other)")->required();
    app.add_option("--decode-threads", decode_threads,
                   "FFmpeg decoder threads (0: FFmpeg's choice)");
    app.add_option("--decode-sessions", decode_sessions,
                   "FFmpeg decoders at once, each on its own keyframe-to-keyframe chunks (0: one)");
    app.add_option("--read-ahead", read_ahead_frames,
                   "frames read ahead (vq's default: 8; 0: none)");
    CLI11_PARSE(app, argc, argv);
    try {
        for (const std::string& path : paths) {
            const auto start = std::chrono::steady_clock::now();
            vq::InputOptions options;
            options.decode.threads = decode_threads;
            options.decode.sessions = decode_sessions;
            vq::OpenedInput input = vq::open_video(path, options);
            auto source = vq::read_ahead(std::move(input.source), read_ahead_frames);
            std::size_t frames = 0;
            while (source->next()) ++frames;
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::cout << fmt::format("{}: {} frames of {} ({}) in {:.3f} s: {:.2f} frames/s\n",
                                     path, frames, vq::describe(source->format()), input.reader,
                                     seconds, frames / seconds);
        }
    } catch (const std::exception& e) {
        std::cerr << "vq-decode: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
