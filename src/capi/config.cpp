#include "config.hpp"

#include <iterator>
#include <string>

namespace vq::capi {

SessionConfig session_config(const vq_config* config, const Call& call) {
    const vq_config defaults = vq_config_default();
    const vq_config& c = config ? *config : defaults;
    static constexpr Backend backends[] = {Backend::cpu, Backend::cuda, Backend::automatic};
    const auto backend = raw_value(c.backend);
    call.require(backend < std::size(backends),
                 "config->backend is " + std::to_string(backend) + ", not a vq_backend");
    return {.threads = c.threads,
            .subsample = c.subsample == 0 ? 1 : c.subsample,
            .backend = backends[backend],
            .gpu = c.gpu};
}

VideoFormat video_format(const vq_format& format, const Call& call) {
    static constexpr ChromaFormat chromas[] = {ChromaFormat::yuv420, ChromaFormat::yuv422,
                                               ChromaFormat::yuv444, ChromaFormat::yuv400};
    const auto chroma = raw_value(format.chroma);
    call.require(chroma < std::size(chromas),
                 "format->chroma is " + std::to_string(chroma) + ", not a vq_chroma");
    return {.width = format.width,
            .height = format.height,
            .bit_depth = format.bit_depth,
            .chroma = chromas[chroma]};
}

}  // namespace vq::capi
