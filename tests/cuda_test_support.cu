#include "cuda_test_support.hpp"

#include <random>

#include "engine/executor.hpp"

namespace vq::test {

Picture content_picture(const VideoFormat& format, Content content, std::uint32_t seed) {
    Picture picture = Picture::allocate(format);
    std::mt19937 rng(seed);
    const int maximum = (1 << format.bit_depth) - 1;
    std::uniform_int_distribution<int> noise(0, maximum);
    for (int p = 0; p < format.plane_count(); ++p) {
        const int width = format.plane_width(p);
        for (int r = 0; r < format.plane_height(p); ++r)
            for (int c = 0; c < width; ++c) {
                int code = 0;
                switch (content) {
                case Content::noise: code = noise(rng); break;
                case Content::zeros: code = 0; break;
                case Content::maxima: code = maximum; break;
                case Content::ramp: code = int((std::int64_t(r) * 7 + std::int64_t(c) * 13 + p * 31) % (maximum + 1)); break;
                }
                const std::size_t at = std::size_t(r) * std::size_t(width) + std::size_t(c);
                if (format.bit_depth > 8)
                    picture.plane_data<std::uint16_t>(p)[at] = std::uint16_t(code);
                else
                    picture.plane_data<std::uint8_t>(p)[at] = std::uint8_t(code);
            }
    }
    return picture;
}

std::vector<FramePair> adversarial_frames(const VideoFormat& format, int count, std::uint32_t seed) {
    std::vector<FramePair> frames;
    for (int i = 0; i < count; ++i) {
        const std::uint32_t s = seed * 1000u + std::uint32_t(i) * 2u;
        switch (i % 4) {
        case 0: frames.push_back({content_picture(format, Content::noise, s), content_picture(format, Content::noise, s + 1)}); break;
        case 1: {
            const Picture same = content_picture(format, Content::noise, s);
            frames.push_back({same, same});
            break;
        }
        case 2: frames.push_back({content_picture(format, Content::maxima, s), content_picture(format, Content::zeros, s)}); break;
        case 3: frames.push_back({content_picture(format, Content::ramp, s), content_picture(format, Content::noise, s)}); break;
        }
    }
    return frames;
}

std::vector<std::vector<double>> run_twin(Feature& feature, const std::vector<FramePair>& frames) {
    std::unique_ptr<Executor> executor;
    if (feature.backend() == Backend::cpu)
        executor = make_cpu_executor({static_cast<CpuFeature*>(&feature)}, 0);
    else
        executor = cuda::make_executor({&feature}, 0, frames.at(0).distorted.format(), feature.uses_reference());
    const std::size_t block_bytes[] = {feature.block_bytes()};
    const BlockLayout layout(block_bytes);

    std::vector<std::vector<double>> scores;
    const auto finish_oldest = [&] {
        const std::size_t index = scores.size();
        scores.emplace_back(feature.outputs().size());
        feature.finish(layout.block(executor->collect(index), 0), scores.back());
    };
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (i - scores.size() >= executor->depth()) finish_oldest();
        executor->submit(i, frames[i], {true});
    }
    while (scores.size() < frames.size()) finish_oldest();
    return scores;
}

std::string describe_case(const VideoFormat& format, const std::string& request) {
    return describe(format) + " " + request;
}

}  // namespace vq::test
