// The reference-side stage of a many-input run (vq::run_many): the per-frame blocks of the CPU
// twins that read the reference alone (Feature::uses_distorted() false: motion's blurred
// differences), computed once per frame and copied to every other input's session. Each session
// keeps its own twin and runs its finish()/flush() (cheap, run-long state) itself, so every table
// stays the one a separate run gives: such a compute() is a function of the frame's reference
// pictures, and every sharing session is handed the same ones under the same frame index.
//
// Sharing only saves work: a block nobody holds (not computed yet, or already let go) is
// computed by whoever asks, so correctness never depends on when entries are released.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

namespace vq {

class SharedReferenceBlocks {
public:
    // `sharers`: how many sessions ask for each block (one per running input).
    explicit SharedReferenceBlocks(std::size_t sharers) : sharers_(sharers) {}

    // Writes feature `slot`'s block of frame `frame` into `block`: `compute` writes it for the
    // first session that asks; the others wait while it is being computed, then copy it. A block
    // is let go once every sharer has taken it. If `compute` throws, nothing is kept and the
    // next asker computes it.
    void compute_once(std::size_t slot, std::size_t frame, std::span<std::byte> block,
                      const std::function<void(std::span<std::byte>)>& compute);

    // One session stopped (its input ended or failed): blocks already taken by all the others
    // are let go.
    void leave();

private:
    struct Entry {
        std::vector<std::byte> bytes;
        bool ready = false;
        std::size_t taken = 0;
    };
    using Key = std::pair<std::size_t, std::size_t>;  // (frame, slot)

    void take(std::map<Key, Entry>::iterator entry);

    std::mutex mutex_;
    std::condition_variable computed_;
    std::map<Key, Entry> entries_;
    std::size_t sharers_;
};

}  // namespace vq
