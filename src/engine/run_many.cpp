// vq::run_many: one reference read once, each of its pictures shared by a session per distorted
// input, with libvmaf's frame loop (driver.cpp's, per input).
#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/score_table_filler.hpp"
#include "engine/decoder_choice.hpp"
#include "engine/driver.hpp"
#include "engine/session_internals.hpp"
#include "io/frame_source.hpp"
#include "io/open_video.hpp"
#include "io/scale.hpp"
#include "vq/error.hpp"
#include "vq/run.hpp"

namespace vq {
namespace {

// One distorted input's part of the run. It stops running when it ends, fails or the reference
// ends; then its session and reader are let go at once (their frames and threads with them), and
// the reference-side blocks stop waiting for it.
struct InputRun {
    std::unique_ptr<Session> session;
    std::unique_ptr<FrameSource> source;
    std::shared_ptr<SharedReferenceBlocks> shared_blocks;
    std::size_t frames = 0;  // pairs pushed
    bool running = false;
    InputOutcome outcome;
    std::vector<std::pair<std::string, std::string>> decoders;  // ScoreTable::decoders()

    void stop() {
        running = false;
        source.reset();
        if (session && shared_blocks) shared_blocks->leave();
        session.reset();
    }
    void fail(const Error& error) {
        outcome.error = error;
        stop();
    }
    void finish(const FrameRange& range) {
        try {
            if (frames == 0)
                throw runtime_error(fmt::format(
                    "no frames to score in '{}'{}", source->path(),
                    range.skip_distorted || range.skip_reference ? " after skipping" : ""));
            outcome.scores = session->finish();
            detail::ScoreTableFiller::set_decoders(*outcome.scores, std::move(decoders));
            stop();
        } catch (const Error& error) {
            fail(error);
        }
    }
};

// Every input's state, for the observer's progress display.
std::vector<InputProgress> progress_of(const std::vector<InputRun>& runs) {
    std::vector<InputProgress> states;
    states.reserve(runs.size());
    for (const InputRun& run : runs) {
        if (run.running)
            states.push_back({InputProgress::State::running, run.session->frames_ready()});
        else
            states.push_back(
                {run.outcome.error ? InputProgress::State::failed : InputProgress::State::done,
                 run.frames});
    }
    return states;
}

// The job's threads shared out among the inputs' sessions, at least one each.
unsigned threads_per_input(unsigned threads, std::size_t inputs) {
    const unsigned total = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    return std::max(1u, unsigned((total + inputs - 1) / inputs));
}

}  // namespace

std::vector<InputOutcome> run_many(const Job& job, const std::vector<DistortedInput>& inputs,
                                   RunObserver& observer) {
    if (inputs.empty()) throw usage_error("no distorted input to score");
    // Their shared device reference takes host pictures: every input is decoded on the CPU.
    if (job.hwdec == HardwareDecoding::cuda)
        throw usage_error("--hwdec cuda: several distorted inputs are decoded on the CPU");
    // Each input's decoder, for its receipt (the log stays quiet: none of them is the GPU's).
    const auto choose_decoder = [&](const Session& session, FrameSource& source,
                                    const std::string& role) {
        DecoderChooser chooser(session, job.hwdec);
        chooser.choose(source, role,
                       "several distorted inputs share the reference's host pictures");
        return chooser.decoders();
    };
    const auto note = [&observer](std::string line) { observer.note(line); };
    SessionConfig config = job.session;
    config.threads = threads_per_input(job.session.threads, inputs.size());

    // The requests are checked once, by the first session: they are the same for every input.
    // The reference-side stage: what reads the reference alone is computed once per frame, and
    // on a GPU each reference frame is uploaded once.
    const SharedReference shared = SharedReference::for_sessions(inputs.size());
    std::vector<InputRun> runs(inputs.size());
    for (InputRun& run : runs) {
        run.session = std::make_unique<Session>(config);
        run.shared_blocks = shared.blocks;
        SessionInternals::share_reference(*run.session, shared);
        add_requests(*run.session, job);
    }
    const bool needs_reference = runs.front().session->needs_reference();
    if (needs_reference && job.reference.path.empty())
        throw usage_error("-r/--reference is required by the requested features");
    std::optional<OpenedInput> reference_input;
    std::unique_ptr<FrameSource> reference;
    if (needs_reference) {
        reference_input = open_input(job.reference, note);
        reference = std::move(reference_input->source);
    }

    // Each input opened and started as run() does; one that cannot be fails alone.
    std::optional<std::size_t> expected_frames;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        InputRun& run = runs[i];
        try {
            OpenedInput opened = open_input(inputs[i].video, note);
            run.source = std::move(opened.source);
            FrameSource& decoded = *run.source;  // under --scale's wrapper, which owns it
            if (const auto& scale = inputs[i].scale ? inputs[i].scale : job.scale)
                run.source = scale_frames(std::move(run.source), *scale);
            if (reference) {
                check_compatible(*reference, *run.source);
                if (const std::string warning = frame_rate_warning(*reference_input, opened);
                    !warning.empty())
                    observer.note(warning);
            }
            run.session->start(run.source->format());
            if (const auto allocator = run.session->buffer_allocator())
                run.source->set_allocator(allocator);
            run.decoders = choose_decoder(*run.session, decoded, "distorted");
            const ReadAheadPlan plan = run.session->read_ahead_plan();
            run.source = read_ahead_as_planned(std::move(run.source), plan);
            run.running = true;
            if (opened.frame_count)
                expected_frames = std::max(expected_frames.value_or(0), *opened.frame_count);
        } catch (const Error& error) {
            run.fail(error);
        }
    }
    const auto first_running =
        std::find_if(runs.begin(), runs.end(), [](const InputRun& run) { return run.running; });
    if (first_running == runs.end()) {
        std::vector<InputOutcome> outcomes;
        for (InputRun& run : runs) outcomes.push_back(std::move(run.outcome));
        return outcomes;
    }
    observer.started(first_running->session->receipts(), expected_frames);
    if (reference) {
        const auto chosen = choose_decoder(*first_running->session, *reference, "reference");
        for (InputRun& run : runs)
            run.decoders.insert(run.decoders.end(), chosen.begin(), chosen.end());
        // The reference's pictures go to every session: read into the first one's memory, ahead
        // by as much as it asks (every session asks the same of the same backend).
        if (const auto allocator = first_running->session->buffer_allocator())
            reference->set_allocator(allocator);
        const ReadAheadPlan plan = first_running->session->read_ahead_plan();
        reference = read_ahead_as_planned(std::move(reference), plan);
    }

    const FrameRange& range = job.frames;
    if (reference) reference->skip_frames(range.skip_reference);
    for (InputRun& run : runs)
        if (run.running) run.source->skip_frames(range.skip_distorted);

    const auto ended_first = [&](const FrameSource& shorter, const FrameSource& longer,
                                 std::size_t frames) {
        observer.note(ended_first_note(shorter, longer, frames));
    };
    std::size_t index = 0;
    while (range.frame_count == 0 || index < range.frame_count) {
        std::optional<Picture> ref;
        if (reference) ref = reference->next();
        bool pushed = false;
        for (InputRun& run : runs) {
            if (!run.running) continue;
            try {
                std::optional<Picture> dist = run.source->next();
                if (reference && !ref && dist) {
                    ended_first(*reference, *run.source, run.frames);
                } else if (!dist) {
                    if (reference && ref) ended_first(*run.source, *reference, run.frames);
                } else {
                    run.session->push({ref ? *ref : Picture(), std::move(*dist)});
                    ++run.frames;
                    pushed = true;
                    continue;
                }
                run.finish(range);
            } catch (const Error& error) {
                run.fail(error);
            }
        }
        if (!pushed) break;
        ++index;
        if (!observer.inputs_progress(index, progress_of(runs)))
            throw runtime_error(
                fmt::format("the run was stopped by its caller after {} frames", index));
    }

    std::vector<InputOutcome> outcomes;
    for (InputRun& run : runs) {
        if (run.running) run.finish(range);
        outcomes.push_back(std::move(run.outcome));
    }
    return outcomes;
}

}  // namespace vq
