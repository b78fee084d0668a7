// The interface every metric implements, once per backend ("twins").
//
// A feature turns one frame pair into a small fixed-size result block (a trivially copyable
// struct declared in the metric's NAME.hpp and shared by its twins), then, on one thread and in
// frame order, turns that block into its output scores. The split is what lets the CPU compute
// frames in parallel and the GPU write a frame's results into one device block that the host
// reads back once: only finish() sees frames in order, so run-long state (APSNR sums) lives there.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/planes.hpp"
#include "vq/backend.hpp"
#include "vq/picture.hpp"
#include "vq/scores.hpp"
#include "vq/session.hpp"

namespace vq {

using Aggregate = std::pair<std::string, double>;

class Feature {
public:
    virtual ~Feature() = default;

    virtual Backend backend() const = 0;

    // Checks the format against the options and prepares per-run constants. Throws vq::Error.
    virtual void init(const VideoFormat& format) = 0;

    // Output names in emission order (valid after init()).
    virtual std::vector<std::string> outputs() const = 0;

    virtual std::size_t block_bytes() const = 0;

    // False for no-reference features: the reference picture is then not needed at all.
    virtual bool uses_reference() const { return true; }

    // The planes of its pictures compute()/enqueue() read (valid after init()). Luma alone lets
    // a run whose features all say so leave the chroma planes unread: their bytes are then
    // unspecified in the pictures the feature gets.
    virtual Planes planes() const { return Planes::all; }

    // True if the feature must see every frame even when --subsample skips it (libvmaf's
    // "temporal" extractors: PSNR accumulates APSNR over all frames).
    virtual bool every_frame() const { return false; }

    // True if the outputs come before every other feature's in the table and the outputs, as
    // libvmaf lists them: its "temporal" extractors (PSNR) run on the main thread before a frame
    // goes to the workers, so with --threads their names are appended first
    // (spec/cli-and-output.md §9.1; the goldens were made so).
    virtual bool outputs_listed_first() const { return false; }

    // The temporal contract (docs/architecture.md): how many earlier reference pictures a CPU
    // twin's compute() reads through FramePair::previous_references (0..max_reference_history),
    // with the same frames' distorted pictures in FramePair::previous_distorted.
    // The session keeps that many alive and hands them to every frame, so compute() stays const
    // and frames still run in any order; features with no history are never serialised. A CUDA
    // twin keeps what it needs of earlier frames on the device instead (frames reach it in order).
    // A feature with history sees every frame (it should also return true from every_frame()).
    virtual int history() const { return 0; }

    // What a chunk of the run (frames [first, end) scored on their own, vq::run_chunk) must read
    // around it so that its frames get exactly the whole run's values: `before` earlier frames
    // (history, and whatever finish()/flush() carry from frame to frame) and `after` later ones
    // (flushed outputs that take a later frame's value). The default suits a feature whose
    // finish() keeps no state between frames and that flushes nothing. Throws vq::Error (usage)
    // when no bounded context gives the whole run's values (a whole-run aggregate).
    virtual ChunkContext chunk_context() const { return {std::size_t(history()), 0}; }

    // In frame order, on one thread: block -> scores (scores.size() == outputs().size()).
    virtual void finish(std::span<const std::byte> block, std::span<double> scores) = 0;

    // Outputs a frame gets only once later frames are finished (motion2 of frame i needs frame
    // i+1's SAD). Their columns follow every feature's outputs() columns, in feature order.
    virtual std::vector<std::string> flushed_outputs() const { return {}; }

    // Of the first `finished` frames, how many have final flushed outputs while the run goes on
    // (the rest wait for later frames, or for the end of the run).
    virtual std::size_t frames_settled(std::size_t finished) const { return finished; }

    // Writes the flushed outputs of frames [first, first + columns[k].size()): columns[k][i] is
    // output k of frame first + i, NaN where it has none. During the run the frames are settled
    // ones (frames_settled()); with end_of_run, finish() has seen its last frame, and the range
    // ends there. Called with consecutive ranges, each frame once.
    virtual void flush(std::size_t /*first*/, bool /*end_of_run*/,
                       std::span<std::vector<double>> /*columns*/) {}

    // Whole-run values, after the last frame.
    virtual std::vector<Aggregate> aggregates() const { return {}; }

    // What the run's receipt should say about how this twin computed it, after the last frame
    // (counts of frames where it departs from the reference in some documented way).
    virtual std::vector<ReceiptNote> receipt_notes() const { return {}; }
};

class CpuFeature : public Feature {
public:
    Backend backend() const final { return Backend::cpu; }

    // Any thread, any order, concurrently for different frames: pair -> block.
    virtual void compute(const FramePair& pair, std::span<std::byte> block) const = 0;

    // The reference-side stage (docs/architecture.md, "Several distorted inputs, one
    // reference"): the bytes of the block that depend on the frame's reference pictures alone
    // (none by default; the whole block for motion, CAMBI's reference score with full_ref). They
    // are the same for every distorted input of one reference, so a many-input run
    // (vq::run_many) writes them once per frame with compute_reference_side() and copies them
    // to every input's block, whose other bytes compute_distorted_side() writes. Together the
    // two write what compute() writes.
    struct BlockPart {
        std::size_t offset = 0;
        std::size_t bytes = 0;
    };
    virtual BlockPart reference_side() const { return {}; }
    virtual void compute_reference_side(const FramePair& /*pair*/,
                                        std::span<std::byte> /*part*/) const {}
    virtual void compute_distorted_side(const FramePair& /*pair*/,
                                        std::span<std::byte> /*block*/) const {}
};

template <typename Block>
Block& block_as(std::span<std::byte> bytes) {
    assert(bytes.size() >= sizeof(Block));
    return *reinterpret_cast<Block*>(bytes.data());
}

template <typename Block>
const Block& block_as(std::span<const std::byte> bytes) {
    assert(bytes.size() >= sizeof(Block));
    return *reinterpret_cast<const Block*>(bytes.data());
}

// The shape of every twin: a metric's Scorer (options -> config, outputs, the common per-frame
// block -> scores, run-long state) wrapped for one backend. Everything but the per-frame work
// forwards to the Scorer, so a twin writes only compute() (CpuFeature) or prepare()/enqueue()
// (cuda::CudaFeature); it keeps the run's format for them (format()).
//
// Scorer must have init(format), outputs() and finish(const Scorer::Block&, scores); it may have
// uses_reference(), every_frame(), outputs_listed_first(), history(),
// flushed_outputs(), frames_settled(finished), flush(first, end_of_run, columns), aggregates().
// A twin whose raw per-frame result differs from Scorer::Block (fixed-point sums, a device block) names it as
// RawBlock and provides `Scorer::Block to_block(const RawBlock&)` beside it, found by
// argument-dependent lookup: the one place where that twin's result becomes the block. When the
// conversion needs the run's configuration, it is `Scorer::Block to_block(const RawBlock&, const
// Scorer&)` instead.
template <typename Base, typename Scorer, typename RawBlock = typename Scorer::Block>
class ScorerTwin : public Base {
public:
    using Block = typename Scorer::Block;

    explicit ScorerTwin(Scorer scorer) : scorer_(std::move(scorer)) {}

    void init(const VideoFormat& format) override {
        scorer_.init(format);
        format_ = format;
    }
    std::vector<std::string> outputs() const override { return scorer_.outputs(); }
    std::size_t block_bytes() const override { return sizeof(RawBlock); }

    bool uses_reference() const override {
        if constexpr (requires { scorer_.uses_reference(); })
            return scorer_.uses_reference();
        else
            return true;
    }
    Planes planes() const override {
        if constexpr (requires { scorer_.planes(); })
            return scorer_.planes();
        else
            return Planes::all;
    }
    bool every_frame() const override {
        if constexpr (requires { scorer_.every_frame(); })
            return scorer_.every_frame();
        else
            return false;
    }
    bool outputs_listed_first() const override {
        if constexpr (requires { scorer_.outputs_listed_first(); })
            return scorer_.outputs_listed_first();
        else
            return false;
    }
    int history() const override {
        if constexpr (requires { scorer_.history(); })
            return scorer_.history();
        else
            return 0;
    }
    ChunkContext chunk_context() const override {
        if constexpr (requires { scorer_.chunk_context(); })
            return scorer_.chunk_context();
        else
            return Base::chunk_context();
    }

    void finish(std::span<const std::byte> bytes, std::span<double> scores) override {
        if constexpr (std::is_same_v<RawBlock, Block>)
            scorer_.finish(block_as<Block>(bytes), scores);
        else if constexpr (requires { to_block(block_as<RawBlock>(bytes), scorer_); })
            scorer_.finish(to_block(block_as<RawBlock>(bytes), scorer_), scores);
        else
            scorer_.finish(to_block(block_as<RawBlock>(bytes)), scores);
    }

    std::vector<std::string> flushed_outputs() const override {
        if constexpr (requires { scorer_.flushed_outputs(); })
            return scorer_.flushed_outputs();
        else
            return {};
    }
    std::size_t frames_settled(std::size_t finished) const override {
        if constexpr (requires { scorer_.frames_settled(finished); })
            return scorer_.frames_settled(finished);
        else
            return finished;
    }
    void flush(std::size_t first, bool end_of_run,
               std::span<std::vector<double>> columns) override {
        if constexpr (requires { scorer_.flush(first, end_of_run, columns); })
            scorer_.flush(first, end_of_run, columns);
    }
    std::vector<Aggregate> aggregates() const override {
        if constexpr (requires { scorer_.aggregates(); })
            return scorer_.aggregates();
        else
            return {};
    }

    const Scorer& scorer() const { return scorer_; }

    // The run's format, after init(): what a CUDA twin sizes its scratch and launches by.
    const VideoFormat& format() const { return format_; }

protected:
    Scorer scorer_;

private:
    VideoFormat format_;
};

}  // namespace vq
