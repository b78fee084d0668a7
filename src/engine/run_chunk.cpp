// A long run in pieces: count_frames, run_chunk and merge_chunks (vq/run.hpp). A chunk is an
// ordinary run over a wider frame range (the features' chunk context around it) whose table keeps
// only the chunk's own frames, numbered as in the whole run.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "core/score_table_filler.hpp"
#include "engine/driver.hpp"
#include "io/frame_source.hpp"
#include "io/open_video.hpp"
#include "vq/error.hpp"
#include "vq/run.hpp"

namespace vq {

namespace {

// Frames of `source` after the first `skip` (skip() seeks in Y4M and raw YUV).
std::size_t frames_after(FrameSource& source, std::size_t skip) {
    std::size_t frames = 0;
    while (source.skip()) ++frames;
    return frames > skip ? frames - skip : 0;
}

using Filler = detail::ScoreTableFiller;

}  // namespace

std::size_t count_frames(const Job& job) {
    Session session(job.session);
    add_requests(session, job);
    const auto ignore = [](const std::string&) {};
    std::size_t frames =
        frames_after(*open_input(job.distorted, ignore).source, job.frames.skip_distorted);
    if (session.needs_reference() && !job.reference.path.empty())
        frames = std::min(frames, frames_after(*open_input(job.reference, ignore).source,
                                               job.frames.skip_reference));
    return job.frames.frame_count ? std::min(frames, job.frames.frame_count) : frames;
}

ScoreTable run_chunk(const Job& job, std::size_t first, std::size_t count, RunObserver& observer) {
    if (count == 0) throw usage_error("a chunk needs at least one frame");
    Session probe(job.session);
    add_requests(probe, job);
    const ChunkContext context = probe.chunk_context();

    const std::size_t subsample = std::max<std::size_t>(job.session.subsample, 1);
    std::size_t read_first = first - std::min(first, context.before);
    read_first -= read_first % subsample;  // the chunk's run selects the whole run's frames
    std::size_t end = first + count;
    std::size_t read_end = end + context.after;
    if (job.frames.frame_count) {
        if (first >= job.frames.frame_count)
            throw runtime_error(fmt::format("the chunk at frame {} starts past the run's {} frames",
                                            first, job.frames.frame_count));
        end = std::min(end, job.frames.frame_count);
        read_end = std::min(read_end, job.frames.frame_count);
    }
    Job piece = job;
    piece.frames = {read_end - read_first, job.frames.skip_reference + read_first,
                    job.frames.skip_distorted + read_first};
    ScoreTable whole = run(piece, observer);
    end = std::min(end, read_first + whole.frame_count());
    if (end <= first)
        throw runtime_error(fmt::format("the chunk at frame {} starts past the run's {} frames",
                                        first, read_first + whole.frame_count()));

    ScoreTable chunk;
    chunk.set_subsample(whole.subsample());
    for (std::size_t c = 0; c < whole.column_count(); ++c) chunk.add_column(whole.name(c));
    chunk.set_frame_count(end - first);
    for (std::size_t frame = first; frame < end; ++frame)
        for (std::size_t c = 0; c < whole.column_count(); ++c)
            if (const auto value = whole.value(c, frame - read_first))
                chunk.set(c, frame - first, *value);
    Filler::set_receipts(chunk, whole.receipts());
    Filler::set_backend_used(chunk, whole.backend_used());
    Filler::set_fps(chunk, whole.fps());
    Filler::set_size(chunk, whole.width(), whole.height());
    return chunk;
}

namespace {

std::vector<std::string> column_names(const ScoreTable& table) {
    std::vector<std::string> names;
    for (std::size_t c = 0; c < table.column_count(); ++c) names.push_back(table.name(c));
    return names;
}

// "cuda+cpu" and "cpu" -> "cuda+cpu": every backend once, in the order they first appear.
std::string joined_backends(const std::vector<const Chunk*>& chunks) {
    std::vector<std::string> backends;
    for (const Chunk* chunk : chunks) {
        std::string_view rest = chunk->run.backend_used;
        while (!rest.empty()) {
            const std::size_t plus = rest.find('+');
            const std::string one(rest.substr(0, plus));
            if (std::find(backends.begin(), backends.end(), one) == backends.end())
                backends.push_back(one);
            rest = plus == std::string_view::npos ? std::string_view() : rest.substr(plus + 1);
        }
    }
    return fmt::format("{}", fmt::join(backends, "+"));
}

}  // namespace

ScoreTable merge_chunks(const std::vector<Chunk>& chunks) {
    if (chunks.empty()) throw usage_error("no chunks to merge");
    std::vector<const Chunk*> ordered;
    for (const Chunk& chunk : chunks) ordered.push_back(&chunk);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const Chunk* a, const Chunk* b) { return a->first < b->first; });

    const ScoreTable& model = ordered.front()->scores;
    const std::vector<std::string> names = column_names(model);
    ScoreTable merged;
    merged.set_subsample(model.subsample());
    for (const std::string& name : names) merged.add_column(name);
    double seconds = 0;
    for (const Chunk* chunk : ordered) {
        const ScoreTable& scores = chunk->scores;
        if (chunk->first != merged.frame_count())
            throw usage_error(
                fmt::format("chunks to merge {} at frame {}",
                            chunk->first < merged.frame_count() ? "overlap" : "leave a gap",
                            std::min(chunk->first, merged.frame_count())));
        if (scores.frame_count() == 0)
            throw usage_error(fmt::format("the chunk at frame {} has no frames", chunk->first));
        if (column_names(scores) != names || scores.subsample() != model.subsample())
            throw usage_error(
                fmt::format("the chunk at frame {} has other scores than the chunk at frame {}",
                            chunk->first, ordered.front()->first));
        for (std::size_t i = 0; i < scores.frame_count(); ++i)
            for (std::size_t c = 0; c < names.size(); ++c)
                if (const auto value = scores.value(c, i)) merged.set(c, chunk->first + i, *value);
        merged.set_frame_count(chunk->first + scores.frame_count());
        if (chunk->run.fps > 0) seconds += double(scores.frame_count()) / chunk->run.fps;
    }

    std::vector<FeatureReceipt> receipts = ordered.front()->run.receipts;
    for (const Chunk* chunk : ordered) {
        if (chunk == ordered.front()) continue;
        for (std::size_t r = 0; r < receipts.size() && r < chunk->run.receipts.size(); ++r)
            for (const ReceiptNote& note : chunk->run.receipts[r].notes) {
                auto& notes = receipts[r].notes;
                const auto same =
                    std::find_if(notes.begin(), notes.end(),
                                 [&](const ReceiptNote& n) { return n.name == note.name; });
                if (same == notes.end())
                    notes.push_back(note);
                else
                    same->count += note.count;
            }
    }
    Filler::set_receipts(merged, std::move(receipts));
    Filler::set_backend_used(merged, joined_backends(ordered));
    Filler::set_fps(merged, seconds > 0 ? double(merged.frame_count()) / seconds : 0.0);
    Filler::set_size(merged, ordered.front()->run.width, ordered.front()->run.height);
    return merged;
}

}  // namespace vq
