// vq::run: a Job's inputs opened, its session built and driven by the frame loop (driver.cpp).
#include "vq/run.hpp"

#include <future>
#include <system_error>
#include <memory>
#include <utility>

#include "core/score_table_filler.hpp"
#include "engine/decoder_choice.hpp"
#include "engine/driver.hpp"
#include "engine/session_internals.hpp"
#include "io/frame_source.hpp"
#include "io/open_video.hpp"
#include "io/scale.hpp"
#include "vq/error.hpp"

namespace vq {

ScoreTable run(const Job& job, RunObserver& observer) {
    const auto note = [&observer](std::string line) { observer.note(line); };
    Session session(job.session);
    add_requests(session, job);
    const bool needs_reference = session.needs_reference();
    if (needs_reference && job.reference.path.empty())
        throw usage_error("-r/--reference is required by the requested features");

    // A run that may decode on the GPU leaves its containers' decoders to the choice below, and
    // a run that stops early says where; both inputs open at once (probing a 4K stream and
    // decoding its first frame take a good part of a second). The distorted input's error, if
    // any, is the one reported.
    const bool await_decoder_choice =
        job.hwdec != HardwareDecoding::none && job.session.backend != Backend::cpu;
    const auto use = [&job, await_decoder_choice](std::size_t skipped) {
        InputUse use;
        use.await_decoder_choice = await_decoder_choice;
        if (job.frames.frame_count) use.frames_read = skipped + job.frames.frame_count;
        return use;
    };
    std::future<OpenedInput> reference_opening;
    if (needs_reference)
        reference_opening = std::async(std::launch::async, [&] {
            return open_input(job.reference, note, use(job.frames.skip_reference));
        });
    OpenedInput distorted_input = open_input(job.distorted, note, use(job.frames.skip_distorted));
    std::unique_ptr<FrameSource> distorted = std::move(distorted_input.source);
    FrameSource& decoded_distorted = *distorted;  // under --scale's wrapper, which owns it
    if (job.scale) distorted = scale_frames(std::move(distorted), *job.scale);
    std::unique_ptr<FrameSource> reference;
    if (needs_reference) {
        OpenedInput reference_input = reference_opening.get();
        reference = std::move(reference_input.source);
        check_compatible(*reference, *distorted);
        if (const std::string warning = frame_rate_warning(reference_input, distorted_input);
            !warning.empty())
            observer.note(warning);
    }
    session.start(distorted->format());
    const Planes planes = SessionInternals::planes_read(session);
    distorted->read_planes(planes);  // --scale's wrapper reads every plane, to scale them all
    if (reference) reference->read_planes(planes);
    if (const auto allocator = session.buffer_allocator()) {
        distorted->set_allocator(allocator);
        if (reference) reference->set_allocator(allocator);
    }
    // Inputs that await the choice start their decoders here: both at once where a thread can be
    // had. The distorted input's error, if any, is the one reported.
    DecoderChooser decoders(session, job.hwdec);
    std::future<DecoderChoice> reference_choice;
    if (reference && await_decoder_choice) try {
            reference_choice =
                std::async(std::launch::async, [&] { return decoders.decide(*reference); });
        } catch (const std::system_error&) {
            // None to be had: the reference's decoder starts after the distorted's.
        }
    const DecoderChoice distorted_choice =
        decoders.decide(decoded_distorted, job.scale ? "--scale scales pictures on the CPU" : "");
    const auto reference_line = [&] {
        if (!reference) return std::string();
        return decoders.record(
            *reference, "reference",
            reference_choice.valid() ? reference_choice.get() : decoders.decide(*reference));
    };
    for (const std::string& line :
         {decoders.record(decoded_distorted, "distorted", distorted_choice), reference_line()})
        if (!line.empty() && decoders.worth_noting()) observer.note(line);
    observer.started(session.receipts(), distorted_input.frame_count);
    // As many frames ahead as the backends need to stay busy, no more: each costs its size.
    const ReadAheadPlan plan = session.read_ahead_plan();
    distorted = read_ahead_as_planned(std::move(distorted), plan);
    if (reference) reference = read_ahead_as_planned(std::move(reference), plan);
    ScoreTable table = run_frame_loop(session, reference.get(), *distorted, job.frames, observer);
    detail::ScoreTableFiller::set_decoders(table, decoders.decoders());
    return table;
}

}  // namespace vq
