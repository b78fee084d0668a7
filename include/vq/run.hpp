// A whole run in one call: read two videos, score them, return the table. What `vq -r REF -d DIST`
// does, for any program (and, through plain data and one observer, for a C or Python binding):
//
//   vq::Job job;
//   job.reference.path = "ref.y4m";
//   job.distorted.path = "dist.mp4";
//   job.models = {"version=vmaf_v0.6.1"};
//   job.features = {{"psnr"}};
//   vq::RunObserver quiet;
//   vq::ScoreTable scores = vq::run(job, quiet);
//   vq::write_report(std::cout, scores, vq::OutputFormat::json, {}, {VQ_VERSION});
//
// A caller with pictures in its own memory uses vq::Session directly (vq/session.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "vq/error.hpp"
#include "vq/input.hpp"
#include "vq/scores.hpp"
#include "vq/session.hpp"

namespace vq {

// One feature request of a job, in libvmaf's syntax ("cambi=window_size=33"), and what to do when
// an earlier request writes the same outputs (Session::OnCollision).
struct JobFeature {
    std::string request;
    Session::OnCollision on_collision = Session::OnCollision::refuse;
};

struct Job {
    // The reference may be left empty (no path) when every feature is no-reference.
    InputSpec reference;
    InputSpec distorted;
    std::optional<ScaleSpec> scale;  // scale the distorted pictures to this size
    HardwareDecoding hwdec = HardwareDecoding::automatic;
    FrameRange frames;
    // Requested in libvmaf's order: the models' features first, then `features` in order.
    std::vector<std::string> models;  // --model strings (Session::add_model)
    bool predict_models = true;       // false: the models' features only (--no_prediction)
    std::vector<JobFeature> features;
    SessionConfig session;
};

// One distorted input's state during a many-input run (run_many), for a progress display.
struct InputProgress {
    enum class State { running, done, failed };
    State state = State::running;
    // running: the frames whose every score is final so far (Session::frames_ready()); done: every
    // frame it scored; failed: the frames handed to its session before it failed.
    std::size_t frames = 0;
};

// What a run tells its caller while it goes. Every function has a default that does nothing, so a
// caller overrides only what it shows; all are called on the thread that called run().
class RunObserver {
public:
    virtual ~RunObserver() = default;

    // The session has started: which backend runs each feature, and the distorted input's length
    // when the container says it (an estimate, for a progress display).
    virtual void started(const std::vector<FeatureReceipt>& receipts,
                         std::optional<std::size_t> expected_frames) {
        (void)receipts;
        (void)expected_frames;
    }

    // A one-line note worth showing the user: inputs of different lengths or frame rates, bytes
    // left over after a raw YUV file's last whole frame. No newline; "warning: " starts a warning.
    virtual void note(const std::string& line) { (void)line; }

    // After each frame pair is handed to the session, with the pairs so far. Returning false stops
    // the run: run() then throws vq::Error (runtime) saying how many frames were read.
    virtual bool progress(std::size_t frames) {
        (void)frames;
        return true;
    }

    // run_many()'s progress, in place of progress(): the frames so far (those handed to at least
    // one input's session) and every distorted input's state, in the inputs' order. Returning false
    // stops the run as progress()'s false does. The default passes the frames on to progress().
    virtual bool inputs_progress(std::size_t frames, const std::vector<InputProgress>& inputs) {
        (void)inputs;
        return progress(frames);
    }
};

// Opens the inputs, scores every frame pair the range selects and returns the scores. Throws
// vq::Error: usage for a bad request or option, runtime for an input that cannot be read or
// compared (sizes, bit depths or chroma formats that differ) or a backend failure.
ScoreTable run(const Job& job, RunObserver& observer);

// One distorted input of a many-input run: the video and its own scale (else the job's).
struct DistortedInput {
    InputSpec video;
    std::optional<ScaleSpec> scale;
};

// What became of one input of a many-input run: its scores, or the error that stopped it.
struct InputOutcome {
    std::optional<ScoreTable> scores;
    std::optional<Error> error;
};

// Scores several distorted videos against one reference in one pass (a bitrate ladder, a codec
// comparison): the reference is opened and decoded once and each of its pictures is shared by
// every input's session. `inputs` take the place of job.distorted; each input's scores are bit for
// bit those of run() with it as job.distorted (and its scale, else job.scale). An input that
// cannot be opened, compared or read, or has no frame to score, fails alone: its outcome holds
// the error, and the others go on. job.session.threads (0: one per core) are shared out among the
// inputs' sessions, at least one each. The observer's notes name the inputs they are about;
// inputs_progress() gives the frames at least one input was handed and each input's state.
// Every input is decoded on the CPU whatever job.hwdec says (HardwareDecoding::cuda is a usage
// error). Throws vq::Error for what fails every input: a bad request, no inputs, a reference that
// cannot be read.
std::vector<InputOutcome> run_many(const Job& job, const std::vector<DistortedInput>& inputs,
                                   RunObserver& observer);

// A long run in pieces (vq.dask scores them on different machines): run_chunk scores frames
// [first, first + count) of run(job)'s frames, and merge_chunks joins the pieces into the table
// run(job) returns, every per-frame value bit for bit (pooling is computed again from them, by
// the same code in the same order, so it matches too).
//
// The frames a chunk's features need around it are read and scored but not returned
// (Session::chunk_context: motion's previous frames and the next one); a chunk starts reading
// at a multiple of job.session.subsample, so that it selects the frames the whole run selects.
// Inputs are positioned as job.frames' skips are: Y4M and raw YUV by seeking, containers by
// decoding and discarding the frames before.

// How many frame pairs run(job) scores: the shorter input after its skip, at most
// job.frames.frame_count. Reads the inputs through (Y4M and raw YUV seek). Throws as run() does.
std::size_t count_frames(const Job& job);

// The chunk's table: frame i of it is frame first + i of the run, for the chunk's frames
// [first, end), where end = first + count, or the run's end when it comes first; its subsample()
// is the run's (frame first + i is selected when (first + i) % subsample() is 0). Throws vq::Error
// (usage) for count 0 and for a feature that cannot be scored in chunks (a whole-run aggregate:
// PSNR's enable_apsnr), and (runtime) for a chunk that starts past the run's end ("no frames to
// score in '...' after skipping" when it reads nothing at all).
ScoreTable run_chunk(const Job& job, std::size_t first, std::size_t count, RunObserver& observer);

// What a table says about its run beside its scores, as plain data, for a table rebuilt from its
// values in another process (the Python package moves chunks so).
struct RunDescription {
    std::vector<FeatureReceipt> receipts;
    std::string backend_used;
    double fps = 0;
    int width = 0;
    int height = 0;
};

// One chunk's scores: its table (as run_chunk returns it: frame i is frame first + i) and run.
struct Chunk {
    std::size_t first = 0;
    ScoreTable scores;
    RunDescription run;
};

// The whole run's table from its chunks, in any order. They must cover frames [0, N) once each,
// with the same columns and subsample; the receipts are the first chunk's with the notes' counts
// summed, backend_used lists every backend the chunks used, fps is the frames over the summed
// time. Throws vq::Error (usage) for a gap, an overlap or chunks that disagree.
ScoreTable merge_chunks(const std::vector<Chunk>& chunks);

}  // namespace vq
