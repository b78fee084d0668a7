// Drives a session over two frame sources with libvmaf's frame loop (spec/cli-and-output.md §8):
// the inside of vq::run (vq/run.hpp), which opens the sources.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "io/frame_source.hpp"
#include "vq/input.hpp"
#include "vq/run.hpp"
#include "vq/scores.hpp"
#include "vq/session.hpp"

namespace vq {

// Requests the job's models and features of `session`, in libvmaf's registration order: the
// models' features first, then the feature requests.
void add_requests(Session& session, const Job& job);

// The note when one input ends before the other: the common `frames` frames are scored.
std::string ended_first_note(const FrameSource& shorter, const FrameSource& longer,
                             std::size_t frames);

// Checks that two inputs can be compared (size, bit depth, chroma format). Throws vq::Error
// (runtime) listing every mismatch.
void check_compatible(const FrameSource& reference, const FrameSource& distorted);

// Wraps `source` to read ahead as `plan` says (read_ahead()), unless it is too small to be worth
// a reading thread (worth_reading_ahead()).
std::unique_ptr<FrameSource> read_ahead_as_planned(std::unique_ptr<FrameSource> source,
                                                   const ReadAheadPlan& plan);

// Runs the loop: skips, then pushes pairs until either input ends or range.frame_count is
// reached. `reference` may be null when the session needs no reference. When one input ends
// before the other, the observer gets a note and the common frames are scored. Throws vq::Error
// (runtime) when no frame at all was scored, an input fails or the observer stops the run;
// observer.progress() is called after each push.
ScoreTable run_frame_loop(Session& session, FrameSource* reference, FrameSource& distorted,
                          const FrameRange& range, RunObserver& observer);

}  // namespace vq
