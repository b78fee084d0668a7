// Counts host<->device copies, to show that each frame pair is uploaded once and each frame's
// results come back in one readback; pictures decoded on the GPU (--hwdec) are read where they are,
// counted apart, with no upload. Printed at the end of a run when VQ_DEBUG_TRANSFERS=1.
#pragma once

#include <cstddef>
#include <string>

#include <fmt/format.h>

namespace vq::cuda {

struct TransferCounter {
    std::size_t frames = 0;  // frames with work on the device
    std::size_t uploads = 0;
    std::size_t upload_bytes = 0;
    std::size_t readbacks = 0;
    std::size_t readback_bytes = 0;
    std::size_t device_pictures = 0;

    void count_upload(std::size_t bytes) {
        ++uploads;
        upload_bytes += bytes;
    }
    void count_readback(std::size_t bytes) {
        ++readbacks;
        readback_bytes += bytes;
    }

    std::string summary(int gpu) const {
        return fmt::format(
            "vq: cuda transfers on GPU {}: {} frames, {} uploads ({} bytes), {} readbacks ({} "
            "bytes), {} device pictures read in place",
            gpu, frames, uploads, upload_bytes, readbacks, readback_bytes, device_pictures);
    }
};

}  // namespace vq::cuda
