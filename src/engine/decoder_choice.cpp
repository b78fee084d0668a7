#include "engine/decoder_choice.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "engine/session_internals.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

// Why the session's features cannot all take device pictures, or empty when they can.
std::string why_not_on_device(const std::vector<FeatureReceipt>& receipts) {
    const auto on_cpu = [](const FeatureReceipt& receipt) { return receipt.backend != "cuda"; };
    if (std::all_of(receipts.begin(), receipts.end(), on_cpu)) return "the backend is cpu";
    const auto first = std::find_if(receipts.begin(), receipts.end(), on_cpu);
    return first == receipts.end() ? std::string()
                                   : fmt::format("{} runs on the CPU", first->feature);
}

}  // namespace

DecoderChooser::DecoderChooser(const Session& session, HardwareDecoding mode) : mode_(mode) {
    if (mode == HardwareDecoding::none) {
        unavailable_ = "--hwdec none";
        return;
    }
    unavailable_ = why_not_on_device(session.receipts());
    if (!unavailable_.empty()) return;
    sink_ = SessionInternals::surface_sink(session);
    if (!sink_) unavailable_ = "this vq's CUDA backend takes no decoded pictures";
}

std::string DecoderChooser::choose(FrameSource& source, const std::string& role,
                                   const std::string& cpu_reason) {
    return record(source, role, decide(source, cpu_reason));
}

DecoderChoice DecoderChooser::decide(FrameSource& source, const std::string& cpu_reason) const {
    // The session's reason first: --scale's matters only where the GPU could decode.
    const bool kept = !sink_ || !cpu_reason.empty();
    return source.choose_decoder(kept ? nullptr : sink_, sink_ ? cpu_reason : unavailable_);
}

std::string DecoderChooser::record(const FrameSource& source, const std::string& role,
                                   const DecoderChoice& choice) {
    if (choice.description.empty()) return {};
    if (mode_ == HardwareDecoding::cuda && !choice.on_device)
        throw runtime_error(
            fmt::format("--hwdec cuda: the {} input '{}' cannot be decoded on the "
                        "GPU: {}",
                        role, source.path(), choice.description));
    decoders_.emplace_back(role, choice.description);
    return fmt::format("decode: {}: {}", role, choice.description);
}

}  // namespace vq
