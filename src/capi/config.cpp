#include "config.hpp"

namespace vq::capi {

SessionConfig session_config(const vq_config* config, const Call& call) {
    const vq_config c = config ? *config : vq_config_default();
    call.require(c.backend == VQ_BACKEND_CPU || c.backend == VQ_BACKEND_CUDA ||
                     c.backend == VQ_BACKEND_AUTO,
                 "config->backend is " + std::to_string(c.backend) + ", not a vq_backend");
    static constexpr Backend backends[] = {Backend::cpu, Backend::cuda, Backend::automatic};
    return {.threads = c.threads,
            .subsample = c.subsample == 0 ? 1 : c.subsample,
            .backend = backends[c.backend],
            .gpu = c.gpu};
}

VideoFormat video_format(const vq_format& format, const Call& call) {
    call.require(format.chroma >= VQ_CHROMA_420 && format.chroma <= VQ_CHROMA_400,
                 "format->chroma is " + std::to_string(format.chroma) + ", not a vq_chroma");
    static constexpr ChromaFormat chromas[] = {ChromaFormat::yuv420, ChromaFormat::yuv422,
                                               ChromaFormat::yuv444, ChromaFormat::yuv400};
    return {.width = format.width,
            .height = format.height,
            .bit_depth = format.bit_depth,
            .chroma = chromas[format.chroma]};
}

}  // namespace vq::capi
