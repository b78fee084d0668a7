// The public entry point: a Session scores frame pairs with a set of features.
//
//   vq::Session session({.threads = 4});
//   session.add_feature("psnr=enable_mse=true");
//   session.add_feature("cambi");
//   session.start(format);
//   for (...) session.push({ref_picture, dist_picture});
//   vq::ScoreTable scores = session.finish();
//
// push() hands a frame to the backends and returns without waiting for its scores; frames are
// computed in parallel (CPU) or pipelined (CUDA) and committed in order. Scores never depend on
// the thread count or the backend's scheduling. To score two video files in one call (what the vq
// command does), use vq::run (vq/run.hpp), which drives a Session.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vq/backend.hpp"
#include "vq/picture.hpp"
#include "vq/scores.hpp"

namespace vq {

// How a caller should read the inputs ahead of the scoring: frames held per input and threads
// reading each input.
struct ReadAheadPlan {
    std::size_t frames = 1;
    unsigned threads = 1;
};

// The frames a piece of a run must read around it so that its own frames get exactly the whole
// run's values (vq::run_chunk): `before` frames before its first and `after` past its last.
struct ChunkContext {
    std::size_t before = 0;
    std::size_t after = 0;
};

struct SessionConfig {
    unsigned threads = 0;       // CPU worker threads; 0 = every core, and at most one per core
    std::size_t subsample = 1;  // score only frames whose index is a multiple of this
    Backend backend = Backend::cpu;
    int gpu = 0;  // CUDA device ordinal
};

class Session {
public:
    explicit Session(SessionConfig config = {});
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // What add_feature does when an earlier request of the same feature would write the same
    // outputs with other options (`--feature psnr --feature psnr=enable_mse=true`): libvmaf keeps
    // the first silently; vq refuses at start() unless the caller asks for libvmaf's rule, as the
    // CTC presets do for the features they add.
    enum class OnCollision { refuse, keep_first };

    // Requests a feature in libvmaf's syntax ("cambi=window_size=33"). Throws vq::Error (usage)
    // for an unknown feature, option or value. Requesting the same feature with the same options
    // twice is a no-op. Returns false when the request was dropped (OnCollision::keep_first).
    bool add_feature(std::string_view request, OnCollision on_collision = OnCollision::refuse);

    // Requests a VMAF model in libvmaf's --model syntax ("version=vmaf_v0.6.1",
    // "path=model.json:name=my_vmaf", "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.2") and the
    // features it needs, with the model's options. Its scores are predicted per frame at finish()
    // and written after every feature's. Throws vq::Error (usage) for a bad string or model file.
    void add_model(std::string_view request);

    // Requests the features a model needs, with the model's options, without predicting its
    // scores (libvmaf's --no_prediction beside a preset that names models).
    void add_model_features(std::string_view request);

    // True unless every requested feature is no-reference: then FramePair::reference may be empty.
    bool needs_reference() const;

    // What a chunk of this session's run must read around its frames (the largest context of
    // any requested feature), decided by the options alone. Throws vq::Error (usage) naming a
    // feature whose values no bounded context reproduces (PSNR's enable_apsnr).
    ChunkContext chunk_context() const;
    // Binds the features to the backends and initialises them for this format. Throws vq::Error.
    void start(const VideoFormat& format);

    // Allocator for input frames (valid after start()): pinned staging memory on the CUDA
    // backend, ordinary memory otherwise.
    BufferAllocator buffer_allocator() const;

    // How far to read each input ahead (valid after start()): enough to keep this run's backends
    // busy and no more, since every frame held costs its size in memory.
    ReadAheadPlan read_ahead_plan() const;

    // Submits the next frame pair (indices count from 0). Throws vq::Error on a mismatched
    // picture or a backend failure.
    void push(FramePair pair);

    // Frames [0, frames_ready()) have every score final, the models' included. It grows as push()
    // commits frames (a frame is committed once the backends are done with it and every earlier
    // frame is); a feature that completes a frame late (motion2 takes the next frame's SAD) holds
    // the newest committed frame back until the next one. After finish(): every frame pushed.
    std::size_t frames_ready() const;

    // The scores so far (after start(), before finish()): the columns finish() returns, final for
    // the frames below frames_ready(). Valid until the next push() or finish().
    const ScoreTable& scores() const;

    // Waits for every pushed frame and returns the scores. The session cannot be used afterwards.
    ScoreTable finish();

    // One line per feature saying which backend runs it (valid after start()).
    const std::vector<FeatureReceipt>& receipts() const;

private:
    friend struct SessionInternals;  // the library's own hooks (src/engine/session_internals.hpp)
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Prints every feature, its twins and its options (what `vq --list-features` shows).
std::string describe_features();

// Prints every built-in VMAF model (for add_model's version=NAME), each with its intended display,
// viewing distance and frame rate (what `vq --list-models` shows).
std::string describe_models();

}  // namespace vq
