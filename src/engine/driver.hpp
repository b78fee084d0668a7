// Drives a session over two frame sources with libvmaf's frame loop (spec/cli-and-output.md §8).
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>

#include "io/frame_source.hpp"
#include "vq/scores.hpp"
#include "vq/session.hpp"

namespace vq {

struct FrameLoop {
    std::size_t frame_count = 0;  // 0 = all
    std::size_t skip_reference = 0;
    std::size_t skip_distorted = 0;
};

// Checks that two inputs can be compared (size, bit depth, chroma format). Throws vq::Error
// (runtime) listing every mismatch.
void check_compatible(const FrameSource& reference, const FrameSource& distorted);

// Runs the loop: skips, then pushes pairs until either input ends or frame_count is reached.
// `reference` may be null when the session needs no reference. When one input ends before the
// other, a note goes to `notes` and the common frames are scored. Throws vq::Error (runtime)
// when no frame at all was scored or an input fails; `progress` is called after each push.
ScoreTable run_frame_loop(Session& session, FrameSource* reference, FrameSource& distorted,
                          const FrameLoop& loop, std::ostream& notes,
                          const std::function<void(std::size_t frames)>& progress = {});

}  // namespace vq
