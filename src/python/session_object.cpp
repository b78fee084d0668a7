#include "session_object.hpp"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "frame_arrays.hpp"
#include "score_objects.hpp"
#include "vq/error.hpp"

namespace vq::python {
namespace py = pybind11;

Backend parse_backend(const std::string& name) {
    if (name == "cpu") return Backend::cpu;
    if (name == "cuda") return Backend::cuda;
    if (name == "auto") return Backend::automatic;
    throw usage_error(fmt::format("backend: expected 'cpu', 'cuda' or 'auto', got '{}'", name));
}

VideoFormat make_format(int width, int height, int bit_depth, const std::string& chroma) {
    static const std::pair<const char*, ChromaFormat> names[] = {{"420", ChromaFormat::yuv420},
                                                                 {"422", ChromaFormat::yuv422},
                                                                 {"444", ChromaFormat::yuv444},
                                                                 {"400", ChromaFormat::yuv400}};
    for (const auto& [name, format] : names)
        if (chroma == name) {
            const VideoFormat video{width, height, bit_depth, format};
            validate(video);
            return video;
        }
    throw usage_error(
        fmt::format("chroma: expected '420', '422', '444' or '400', got '{}'", chroma));
}

SessionObject::SessionObject(const std::vector<std::string>& features,
                             const std::vector<std::string>& models, const std::string& backend,
                             unsigned threads, std::size_t subsample, int gpu)
    : session_(std::make_unique<Session>(
          SessionConfig{threads, subsample, parse_backend(backend), gpu})) {
    // libvmaf's order: the models' features first, then the feature requests.
    for (const std::string& model : models) session_->add_model(model);
    for (const std::string& feature : features) session_->add_feature(feature);
}

SessionObject::~SessionObject() {
    // Stopping the workers waits for them, and a worker may be releasing a borrowed array.
    py::gil_scoped_release release;
    session_.reset();
}

template <typename Work>
auto SessionObject::locked(Work&& work) {
    std::unique_lock<std::mutex> lock;
    {
        py::gil_scoped_release release;
        lock = std::unique_lock(mutex_);
    }
    return work();
}

Session& SessionObject::session() {
    if (!session_) throw usage_error("the session has finished; start a new one");
    return *session_;
}

bool SessionObject::needs_reference() {
    return locked([&] { return session().needs_reference(); });
}

bool SessionObject::started() {
    return locked([&] { return started_; });
}

void SessionObject::start(int width, int height, int bit_depth, const std::string& chroma) {
    const VideoFormat format = make_format(width, height, bit_depth, chroma);
    locked([&] {
        Session& session = this->session();
        py::gil_scoped_release release;
        session.start(format);
        format_ = format;
        started_ = true;
    });
}

py::object SessionObject::format() {
    return locked([&]() -> py::object {
        if (!started_) return py::none();
        static const char* const chroma[] = {"420", "422", "444", "400"};
        return py::make_tuple(format_.width, format_.height, format_.bit_depth,
                              chroma[int(format_.chroma)]);
    });
}

void SessionObject::push(py::handle reference, py::handle distorted) {
    locked([&] {
        Session& session = this->session();
        if (!started_) throw usage_error("push() needs a started session");
        const BufferAllocator allocator = session.buffer_allocator();
        FramePair pair;
        pair.distorted = picture_from(distorted, "dist", format_, allocator);
        if (!reference.is_none() && session.needs_reference())
            pair.reference = picture_from(reference, "ref", format_, allocator);
        else if (session.needs_reference())
            throw usage_error("ref: the requested features need a reference frame, got None");
        py::gil_scoped_release release;
        session.push(std::move(pair));
        ++pushed_;
    });
}

std::size_t SessionObject::frames_ready() {
    return locked([&]() -> std::size_t { return started_ ? session().frames_ready() : 0; });
}

py::object SessionObject::ready_scores(std::size_t first) {
    return locked([&] {
        Session& session = this->session();
        if (!started_) throw usage_error("scores() needs a started session");
        return frame_array(session.scores(), first, session.frames_ready());
    });
}

py::dict SessionObject::finish() {
    return locked([&] {
        Session& session = this->session();
        if (!started_) throw usage_error("finish() needs a started session");
        std::optional<ScoreTable> table;
        {
            py::gil_scoped_release release;
            table = session.finish();
            // Gone at once, and with it every frame it still held (the caller's arrays).
            session_.reset();
        }
        return result_dict(*table);
    });
}

py::list SessionObject::receipts() {
    return locked([&] { return receipt_list(session().receipts()); });
}

std::size_t SessionObject::frames_pushed() {
    return locked([&] { return pushed_; });
}

}  // namespace vq::python
