// The native session behind vq.Session (python/vq/_session.py): a vq::Session fed with numpy
// frames. Safe to call from several Python threads: one call at a time holds it, and none holds
// the GIL while the session computes (so the workers that release borrowed arrays, which need
// the GIL, never wait on a caller that waits on them).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "vq/session.hpp"

namespace vq::python {

Backend parse_backend(const std::string& name);
VideoFormat make_format(int width, int height, int bit_depth, const std::string& chroma);

class SessionObject {
public:
    SessionObject(const std::vector<std::string>& features, const std::vector<std::string>& models,
                  const std::string& backend, unsigned threads, std::size_t subsample, int gpu);
    ~SessionObject();
    SessionObject(const SessionObject&) = delete;
    SessionObject& operator=(const SessionObject&) = delete;

    bool needs_reference();
    bool started();
    void start(int width, int height, int bit_depth, const std::string& chroma);
    // (width, height, bit_depth, chroma) once started, else None.
    pybind11::object format();
    void push(pybind11::handle reference, pybind11::handle distorted);
    // Frames whose every score is final (Session::frames_ready()).
    std::size_t frames_ready();
    // The final scores of frames [first, frames_ready()) as frame_array() makes them.
    pybind11::object ready_scores(std::size_t first);
    pybind11::dict finish();
    pybind11::list receipts();
    std::size_t frames_pushed();

private:
    // Takes the lock with the GIL released, then calls `work` with the lock held and the GIL
    // held again.
    template <typename Work>
    auto locked(Work&& work);

    // The session, until finish() ends it; throws vq::Error (usage) after.
    Session& session();

    std::mutex mutex_;
    std::unique_ptr<Session> session_;
    VideoFormat format_;
    bool started_ = false;
    std::size_t pushed_ = 0;
};

}  // namespace vq::python
