// The readers' default frame memory: ordinary memory that is used again. A frame's buffer comes
// back when its last Picture is dropped, and a later frame is read into it.
//
// Fresh memory costs a page fault for every 4 KiB on first touch, 3000 for a 4K frame, and
// freeing it unmaps it again; with several threads reading, those faults and unmaps contend in
// the kernel, and reading into fresh memory with two threads was slower than with one. Reused
// memory is faulted in once. (CUDA runs read into the backend's pinned pool instead, which
// recycles the same way.)
#pragma once

#include "vq/picture.hpp"

namespace vq {

// Thread-safe. Idle buffers are kept until the allocator and every buffer from it are gone, so
// the memory held is the most frames ever alive at once, as with any allocator.
BufferAllocator recycling_allocator();

}  // namespace vq
