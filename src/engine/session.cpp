// Session: the façade over its parts. It keeps the requests and binds each to a twin; the
// scheduler (frame_scheduler.hpp) runs the frames, the table assembly (table_assembly.hpp) turns
// their blocks into the ScoreTable, and the model prediction (model_prediction.hpp) adds the
// models' scores to each frame once every feature has settled it.
#include "vq/session.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "engine/bound_feature.hpp"
#include "engine/frame_scheduler.hpp"
#include "engine/model_prediction.hpp"
#include "engine/session_internals.hpp"
#include "engine/table_assembly.hpp"
#include "feature/registry.hpp"
#include "model/model.hpp"
#include "vq/error.hpp"
#if VQ_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace vq {

namespace {

int cuda_devices() {
#if VQ_WITH_CUDA
    return cuda::usable_device_count();
#else
    return 0;
#endif
}

struct Request {
    const FeatureDefinition* definition;
    OptionValues options;
    bool cuda_twin_required;
};

}  // namespace

Backend resolve(Backend requested) {
    if (requested != Backend::automatic) return requested;
    return cuda_devices() > 0 ? Backend::cuda : Backend::cpu;
}

struct Session::Impl {
    SessionConfig config;
    std::vector<Request> requests;
    std::vector<BoundFeature> features;
    ModelPrediction models;
    std::optional<FrameScheduler> scheduler;
    std::optional<TableAssembly> assembly;
    VideoFormat format;
    bool started = false;
    bool finished = false;
    bool needs_reference = false;
    Planes planes = Planes::luma;  // of each picture, that the features read
    std::size_t pushed = 0;
    std::size_t committed = 0;
    std::size_t settled = 0;           // frames whose every score is final: [0, settled)
    std::size_t history_depth = 0;     // earlier reference pictures any feature reads
    SharedReference shared_reference;  // a many-input run's (SessionInternals)
    std::chrono::steady_clock::time_point first_push;
    std::future<void> driver_start;  // cuda::start_driver, begun when the session was made

    void bind(Backend backend);
    void choose_twins(Backend backend);
    void check_cuda_device() const;
    void init_features();
    void commit_oldest();
    void settle(std::size_t end, bool end_of_run);
    bool add_request(const FeatureRequest& request, OnCollision on_collision);
    model::ModelSet add_model_extractors(std::string_view text);
};

Session::Session(SessionConfig config) : impl_(std::make_unique<Impl>()) {
    impl_->config = config;
    if (impl_->config.subsample == 0) impl_->config.subsample = 1;
#if VQ_WITH_CUDA
    // The driver starts while the caller opens its inputs (vq::run decodes their first frames
    // meanwhile); start() then finds the device ready. The CUDA runtime serialises its own start,
    // so nothing waits for this but the session's end.
    if (config.backend != Backend::cpu) try {
            impl_->driver_start =
                std::async(std::launch::async, [gpu = config.gpu] { cuda::start_driver(gpu); });
        } catch (const std::system_error&) {
            // No thread to be had: the driver starts when start() needs it.
        }
#endif
}

Session::~Session() = default;

bool Session::add_feature(std::string_view text, OnCollision on_collision) {
    if (impl_->started) throw usage_error("features must be added before the session starts");
    return impl_->add_request(parse_feature_request(text), on_collision);
}

bool Session::Impl::add_request(const FeatureRequest& request, OnCollision on_collision) {
    const FeatureLookup lookup = find_feature(request.name);
    if (!lookup.definition)
        throw usage_error(
            fmt::format("unknown feature '{}' (vq --list-features lists them)", request.name));
    OptionValues options = bind_options(request.name, lookup.definition->options, request.options);
    for (const Request& existing : requests) {
        if (existing.definition != lookup.definition ||
            existing.cuda_twin_required != lookup.cuda_twin_required)
            continue;
        // The same request twice, or (when asked) one whose outputs the first already writes:
        // libvmaf keeps the first.
        if (existing.options.canonical() == options.canonical()) return false;
        if (on_collision == OnCollision::keep_first &&
            existing.options.output_suffix() == options.output_suffix())
            return false;
    }
    requests.push_back({lookup.definition, std::move(options), lookup.cuda_twin_required});
    return true;
}

void Session::add_model(std::string_view text) {
    if (impl_->started) throw usage_error("models must be added before the session starts");
    impl_->models.add(impl_->add_model_extractors(text));
}

void Session::add_model_features(std::string_view text) {
    if (impl_->started) throw usage_error("models must be added before the session starts");
    impl_->add_model_extractors(text);
}

// One extractor per distinct (feature, options), shared with --feature requests and other models
// (spec/vmaf.md §1).
model::ModelSet Session::Impl::add_model_extractors(std::string_view text) {
    model::ModelSet set = model::load(model::parse_model_request(text));
    for (const FeatureRequest& extractor : set.extractors)
        add_request(extractor, OnCollision::refuse);
    return set;
}

bool Session::needs_reference() const {
    if (impl_->started) return impl_->needs_reference;
    // Decided by the options alone, so that a caller can skip opening the reference.
    for (const Request& request : impl_->requests) {
        const auto feature = request.definition->make_cpu(request.options);
        if (feature->uses_reference()) return true;
    }
    return false;
}

ChunkContext Session::chunk_context() const {
    ChunkContext widest;
    for (const Request& request : impl_->requests) {
        const ChunkContext context = request.definition->make_cpu(request.options)->chunk_context();
        widest.before = std::max(widest.before, context.before);
        widest.after = std::max(widest.after, context.after);
    }
    return widest;
}

// bind()'s steps, in order. Each leaves the Impl ready for the next.
void Session::Impl::bind(Backend backend) {
    choose_twins(backend);
    check_cuda_device();
    init_features();
    scheduler.emplace(features, config, format, needs_reference, history_depth, shared_reference);
    assembly.emplace(format, config.subsample);
    assembly->write_receipts(features);
    assembly->add_columns(features);
    models.add_columns(assembly->table());
}

// One twin per request: CUDA where the backend or a "NAME_cuda" request asks for it and the
// feature has one, the CPU twin otherwise.
void Session::Impl::choose_twins(Backend backend) {
    for (const Request& request : requests) {
        const FeatureDefinition& def = *request.definition;
        const bool want_cuda = request.cuda_twin_required || backend == Backend::cuda;
        BoundFeature bound;
        bound.name = def.name;
        if (want_cuda && def.make_cuda) {
            bound.feature = def.make_cuda(request.options);
        } else if (request.cuda_twin_required) {
            throw usage_error(
                VQ_WITH_CUDA
                    ? fmt::format("feature '{}' has no CUDA twin", def.name)
                    : fmt::format("feature '{}_cuda' needs CUDA, but this vq was built without it",
                                  def.name));
        } else {
            auto cpu = def.make_cpu(request.options);
            bound.cpu = cpu.get();
            bound.feature = std::move(cpu);
        }
        features.push_back(std::move(bound));
    }
}

void Session::Impl::check_cuda_device() const {
    const auto first_on_cuda =
        std::find_if(features.begin(), features.end(),
                     [](const BoundFeature& bound) { return bound.on_cuda(); });
    if (first_on_cuda != features.end() && cuda_devices() == 0)
        throw usage_error(fmt::format("feature '{}' needs a CUDA device, and none is usable",
                                      first_on_cuda->name));
}

// Initialises every twin for the format, then asks what the run as a whole needs of the input.
void Session::Impl::init_features() {
    for (BoundFeature& bound : features) {
        bound.feature->init(format);
        needs_reference = needs_reference || bound.feature->uses_reference();
        planes = planes_for_both(planes, bound.feature->planes());
        history_depth = std::max(history_depth, std::size_t(bound.feature->history()));
    }
    if (history_depth > std::size_t(max_reference_history))
        throw std::logic_error("a feature asks for more reference history than FramePair carries");
}

void Session::start(const VideoFormat& format) {
    if (impl_->started) throw usage_error("session already started");
    if (impl_->requests.empty()) throw usage_error("no feature requested");
    validate(format);
    const Backend backend = resolve(impl_->config.backend);
    if (backend == Backend::cuda && cuda_devices() == 0)
        throw usage_error(VQ_WITH_CUDA ? "--backend cuda: no usable CUDA device found"
                                       : "--backend cuda: this vq was built without CUDA");
    impl_->format = format;
    impl_->bind(backend);
    impl_->started = true;
}

BufferAllocator Session::buffer_allocator() const {
    return impl_->scheduler ? impl_->scheduler->buffer_allocator() : BufferAllocator();
}

ReadAheadPlan Session::read_ahead_plan() const {
    return impl_->scheduler ? impl_->scheduler->read_ahead_plan() : ReadAheadPlan();
}

void Session::Impl::commit_oldest() {
    assembly->commit(features, scheduler->collect_oldest());
    ++committed;
    std::size_t end = committed;
    for (const BoundFeature& bound : features)
        end = std::min(end, bound.feature->frames_settled(committed));
    if (end > settled) settle(end, false);
}

// Frames [settled, end) get their flushed outputs, then their models' scores.
void Session::Impl::settle(std::size_t end, bool end_of_run) {
    assembly->flush(features, settled, end, end_of_run);
    models.predict(assembly->table(), settled, end);
    settled = end;
}

void Session::push(FramePair pair) {
    Impl& s = *impl_;
    if (!s.started || s.finished) throw usage_error("push() needs a started, unfinished session");
    if (pair.distorted.empty() || pair.distorted.format() != s.format)
        throw usage_error(
            fmt::format("frame {}: distorted picture is not {}", s.pushed, describe(s.format)));
    if (s.needs_reference && (pair.reference.empty() || pair.reference.format() != s.format))
        throw usage_error(
            fmt::format("frame {}: reference picture is not {}", s.pushed, describe(s.format)));
    if (s.pushed == 0) s.first_push = std::chrono::steady_clock::now();

    pair.index = s.pushed;
    const bool selected = pair.index % s.config.subsample == 0;
    std::vector<bool> run;
    for (const BoundFeature& bound : s.features)
        run.push_back(selected || bound.feature->every_frame() || bound.feature->history() > 0);
    s.scheduler->submit(std::move(pair), std::move(run));
    ++s.pushed;
    // Committed here rather than before the next frame is submitted: the caller then waits with
    // no frame in hand, so the frames alive are the executors' and the read-ahead's alone.
    if (s.scheduler->full()) s.commit_oldest();
}

ScoreTable Session::finish() {
    Impl& s = *impl_;
    if (!s.started || s.finished) throw usage_error("finish() needs a started, unfinished session");
    while (!s.scheduler->empty()) s.commit_oldest();
    s.scheduler->drop_history();
    s.finished = true;
    s.settle(s.pushed, true);
    s.assembly->add_run_results(s.features);
    return s.assembly->finish(s.pushed, s.first_push);
}

void SessionInternals::share_reference(Session& session, SharedReference shared) {
    if (session.impl_->started)
        throw std::logic_error("share_reference() needs a session not yet started");
    session.impl_->shared_reference = std::move(shared);
}

Planes SessionInternals::planes_read(const Session& session) {
    if (!session.impl_->started) throw std::logic_error("planes_read() needs a started session");
    return session.impl_->planes;
}

std::shared_ptr<DeviceSurfaceSink> SessionInternals::surface_sink(const Session& session) {
    return session.impl_->scheduler ? session.impl_->scheduler->surface_sink() : nullptr;
}

std::size_t Session::frames_ready() const { return impl_->settled; }

const ScoreTable& Session::scores() const {
    if (!impl_->assembly || impl_->finished)
        throw usage_error("scores() needs a started, unfinished session");
    return impl_->assembly->table();
}

const std::vector<FeatureReceipt>& Session::receipts() const {
    static const std::vector<FeatureReceipt> none;
    return impl_->assembly ? impl_->assembly->receipts() : none;
}

}  // namespace vq
