#include "cuda/graph.hpp"

#include "cuda/check.hpp"

namespace vq::cuda {
namespace {

// The captured graph, freed once it has been instantiated (the instance does not need it).
struct Graph {
    cudaGraph_t handle = nullptr;
    ~Graph() {
        if (handle) cudaGraphDestroy(handle);
    }
};

}  // namespace

GraphExec::~GraphExec() {
    if (handle_) cudaGraphExecDestroy(handle_);
}

GraphExec GraphExec::capture(cudaStream_t stream, const std::function<void()>& enqueue) {
    VQ_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    Graph graph;
    try {
        enqueue();
    } catch (...) {
        cudaStreamEndCapture(stream, &graph.handle);
        throw;
    }
    VQ_CUDA_CHECK(cudaStreamEndCapture(stream, &graph.handle));
    cudaGraphExec_t executable = nullptr;
    VQ_CUDA_CHECK(cudaGraphInstantiate(&executable, graph.handle, 0));
    return GraphExec(executable);
}

void GraphExec::launch(cudaStream_t stream) const {
    VQ_CUDA_CHECK(cudaGraphLaunch(handle_, stream));
}

}  // namespace vq::cuda
