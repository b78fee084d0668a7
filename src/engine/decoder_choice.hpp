// --hwdec (vq/input.hpp HardwareDecoding): which decoder reads each input of a run, chosen once
// its session has started, since only then is it known whether every feature runs on CUDA.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/frame_source.hpp"
#include "vq/input.hpp"
#include "vq/session.hpp"

namespace vq {

class DecoderChooser {
public:
    // Decoding on the GPU needs --hwdec auto or cuda and a started session whose features all run
    // on CUDA; otherwise the chooser keeps the reason.
    DecoderChooser(const Session& session, HardwareDecoding mode);

    // Chooses `source`'s decoder, keeps it for the receipt (decoders()) and returns the line for
    // the log ("decode: distorted: hevc via NVDEC (cuda)", "decode: reference: h264 (CPU, the
    // backend is cpu)"), empty for a source that decodes nothing (Y4M, raw YUV). A non-empty
    // `cpu_reason` keeps this input on the CPU (--scale's input). Under --hwdec cuda a container
    // left on the CPU is an error: throws vq::Error (runtime) with the reason.
    std::string choose(FrameSource& source, const std::string& role,
                       const std::string& cpu_reason = {});

    // choose() in two steps, so that several inputs' decoders may start at once (a GPU decoder's
    // start, its session and first frame, takes ~80 ms): decide() starts `source`'s decoder and may
    // run on any thread, a source per call; record() keeps the choice, checks it against --hwdec
    // cuda and returns the log line, one call at a time, in the order the receipt should list.
    DecoderChoice decide(FrameSource& source, const std::string& cpu_reason = {}) const;
    std::string record(const FrameSource& source, const std::string& role,
                       const DecoderChoice& choice);

    // Every choice so far, {role, description}: ScoreTable::decoders().
    const std::vector<std::pair<std::string, std::string>>& decoders() const { return decoders_; }

    // Whether the log names each input's decoder: where the GPU's decoder was in play (--hwdec
    // cuda, or auto with every feature on CUDA), so that a GPU run says what decoded and why a
    // container stayed on the CPU; a run whose features run on the CPU decodes there as it always
    // did and stays quiet. The receipt names the decoders always.
    bool worth_noting() const { return mode_ == HardwareDecoding::cuda || sink_ != nullptr; }

private:
    HardwareDecoding mode_;
    std::shared_ptr<DeviceSurfaceSink> sink_;
    std::string unavailable_;  // why there is no sink
    std::vector<std::pair<std::string, std::string>> decoders_;
};

}  // namespace vq
