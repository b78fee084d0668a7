#include "io/file_frame_source.hpp"

#include <new>
#include <utility>

#include <fmt/format.h>

#include "io/recycling_allocator.hpp"
#include "io/sample_range.hpp"
#include "vq/error.hpp"

namespace vq {

FileFrameSource::FileFrameSource(InputFile file, const VideoFormat& format, std::string_view marker,
                                 std::size_t ignored_bytes)
    : file_(std::move(file)),
      format_(format),
      marker_(marker),
      ignored_bytes_(ignored_bytes),
      allocator_(recycling_allocator()) {}

void FileFrameSource::set_allocator(BufferAllocator allocator) {
    allocator_ = allocator ? std::move(allocator) : recycling_allocator();
}

template <typename Step>
auto FileFrameSource::guarded(Step step) {
    if (failure_) std::rethrow_exception(failure_);
    try {
        return step();
    } catch (...) {
        failure_ = std::current_exception();
        throw;
    }
}

std::optional<Picture> FileFrameSource::next() {
    return guarded([this]() -> std::optional<Picture> {
        std::optional<Picture> picture = read_next();
        if (picture) check_samples(*picture, index_ - 1);
        return picture;
    });
}

std::optional<Picture> FileFrameSource::next_unchecked() {
    return guarded([this] { return read_next(); });
}

void FileFrameSource::check_samples(const Picture& picture, std::size_t index) const {
    check_sample_range(format_, picture.data(), path(), index, planes_);
}

std::optional<Picture> FileFrameSource::read_next() {
    if (!begin_frame(index_)) return std::nullopt;
    FrameBuffer buffer = allocate();
    if (!read_samples(buffer.get())) return std::nullopt;
    ++index_;
    return Picture(format_, std::move(buffer));
}

bool FileFrameSource::skip() {
    return guarded([this] {
        if (const std::optional<FrameLayout> here = layout();
            here && is_regular_frame(file_, *here, 0)) {
            file_.seek(here->record_offset(1));
            ++index_;
            return true;
        }
        if (!begin_frame(index_) || !discard_samples()) return false;
        ++index_;
        return true;
    });
}

std::optional<FrameLayout> FileFrameSource::layout() const {
    if (failure_ || !file_.is_regular()) return std::nullopt;
    return FrameLayout{file_.offset(), marker_, format_.frame_bytes(), ignored_bytes_,
                       plane_bytes(planes_, format_)};
}

std::optional<Picture> FileFrameSource::read_frame_at(const FrameLayout& layout,
                                                      std::size_t n) const {
    try {
        FrameBuffer buffer = allocate();
        if (!read_regular_frame(file_, layout, n, buffer.get())) return std::nullopt;
        return Picture(format_, std::move(buffer));
    } catch (...) {
        return std::nullopt;  // the sequential reader meets the same failure and reports it
    }
}

void FileFrameSource::resume_after(const FrameLayout& layout, std::size_t n) noexcept {
    try {
        file_.seek(layout.record_offset(n));
        index_ += n;
    } catch (...) {
        failure_ = std::current_exception();
    }
}

FrameBuffer FileFrameSource::allocate() const {
    std::lock_guard lock(allocator_mutex_);
    try {
        if (FrameBuffer buffer = allocator_(format_.frame_bytes())) return buffer;
    } catch (const std::bad_alloc&) {
        // reported below, with the file and the frame
    }
    throw runtime_error(fmt::format("'{}': frame {}: cannot allocate {} bytes", path(), index_,
                                    format_.frame_bytes()));
}

bool FileFrameSource::ends_at_partial_frame(std::size_t) { return false; }

bool FileFrameSource::read_samples(std::byte* dest) {
    const std::size_t wanted = plane_bytes(planes_, format_);
    std::size_t got = file_.read(dest, wanted);
    if (got == wanted) got += step_over(format_.frame_bytes() - wanted);
    if (got < format_.frame_bytes()) {
        if (ends_at_partial_frame(got)) return false;
        throw_truncated(got);
    }
    const std::size_t ignored = step_over(ignored_bytes_);
    if (ignored < ignored_bytes_) throw_truncated(got + ignored);
    return true;
}

std::size_t FileFrameSource::step_over(std::size_t count) {
    if (count == 0) return 0;  // a seek would drop the buffered bytes
    if (const std::optional<std::size_t> left = file_.bytes_left(); left && *left >= count) {
        file_.seek(file_.offset() + count);
        return count;
    }
    return file_.discard(count);
}

bool FileFrameSource::discard_samples() {
    const std::size_t wanted = format_.frame_bytes() + ignored_bytes_;
    const std::size_t got = file_.discard(wanted);
    if (got < wanted) {
        if (got < format_.frame_bytes() && ends_at_partial_frame(got)) return false;
        throw_truncated(got);
    }
    return true;
}

void FileFrameSource::throw_truncated(std::size_t got) const {
    throw runtime_error(fmt::format("'{}': frame {} is truncated (got {} of {} bytes)", path(),
                                    index_, got, format_.frame_bytes() + ignored_bytes_));
}

}  // namespace vq
