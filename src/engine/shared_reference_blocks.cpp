#include "engine/shared_reference_blocks.hpp"

#include <algorithm>
#include <iterator>

namespace vq {

void SharedReferenceBlocks::compute_once(std::size_t slot, std::size_t frame,
                                         std::span<std::byte> block,
                                         const std::function<void(std::span<std::byte>)>& compute) {
    const Key key{frame, slot};
    std::unique_lock lock(mutex_);
    for (auto entry = entries_.find(key); entry != entries_.end(); entry = entries_.find(key)) {
        if (entry->second.ready) {
            std::copy(entry->second.bytes.begin(), entry->second.bytes.end(), block.begin());
            take(entry);
            return;
        }
        computed_.wait(lock);
    }
    entries_.emplace(key, Entry{});  // in progress: later askers wait for it
    lock.unlock();
    try {
        compute(block);
    } catch (...) {
        lock.lock();
        entries_.erase(key);
        computed_.notify_all();
        throw;
    }
    lock.lock();
    const auto entry = entries_.find(key);
    entry->second.bytes.assign(block.begin(), block.end());
    entry->second.ready = true;
    take(entry);
    computed_.notify_all();
}

void SharedReferenceBlocks::take(std::map<Key, Entry>::iterator entry) {
    if (++entry->second.taken >= sharers_) entries_.erase(entry);
}

void SharedReferenceBlocks::leave() {
    const std::lock_guard lock(mutex_);
    if (sharers_ > 0) --sharers_;
    std::erase_if(entries_, [this](const auto& entry) {
        return entry.second.ready && entry.second.taken >= sharers_;
    });
}

}  // namespace vq
