#include "vq/session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <stdexcept>

#include <fmt/format.h>

#include "core/score_table_filler.hpp"
#include "engine/executor.hpp"
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

// A feature bound to a backend, and where its scores go.
struct Bound {
    std::unique_ptr<Feature> feature;
    CpuFeature* cpu = nullptr;  // the same feature when it is a CPU twin, null for a CUDA twin
    std::string name;
    std::vector<std::size_t> columns;
    std::vector<std::size_t> flushed_columns;
    std::size_t executor = 0;  // index into Impl::executors
    std::size_t slot = 0;      // index among that executor's features
};

bool on_cuda(const Bound& bound) { return bound.cpu == nullptr; }

// A VMAF model of the run and where its inputs and outputs are in the table.
struct ModelRun {
    model::ModelSet set;
    std::vector<std::size_t> feature_columns;  // set.main.features' columns, in order
    std::vector<std::size_t> output_columns;   // model::output_names(set)' columns
};

}  // namespace

struct Session::Impl {
    SessionConfig config;
    std::vector<Request> requests;
    std::vector<Bound> features;
    std::vector<ModelRun> models;
    std::vector<std::unique_ptr<Executor>> executors;
    std::vector<BlockLayout> layouts;
    std::vector<FeatureReceipt> receipts;
    VideoFormat format;
    bool started = false;
    bool finished = false;
    bool needs_reference = false;
    std::size_t pushed = 0;
    std::size_t committed = 0;
    std::size_t depth = 1;
    std::size_t history_depth = 0;            // earlier reference pictures any feature reads
    std::deque<Picture> recent_references;    // newest first, at most history_depth
    std::deque<Picture> recent_distorted;     // the same frames' distorted pictures
    std::deque<std::vector<bool>> in_flight;  // run masks of submitted, uncommitted frames
    ScoreTable table;
    std::chrono::steady_clock::time_point first_push;

    void bind(Backend backend);
    void choose_twins(Backend backend);
    void check_cuda_device() const;
    void init_features();
    void make_executors();
    void write_receipts();
    void add_columns();
    void commit_oldest();
    void flush_features();
    bool add_request(const FeatureRequest& request, OnCollision on_collision);
    model::ModelSet add_model_extractors(std::string_view text);
    void predict_models();
};

Session::Session(SessionConfig config) : impl_(std::make_unique<Impl>()) {
    impl_->config = config;
    if (impl_->config.subsample == 0) impl_->config.subsample = 1;
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
    impl_->models.push_back({impl_->add_model_extractors(text), {}, {}});
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

// bind()'s steps, in order. Each leaves the Impl ready for the next.
void Session::Impl::bind(Backend backend) {
    choose_twins(backend);
    check_cuda_device();
    init_features();
    make_executors();
    write_receipts();
    add_columns();
}

// One twin per request: CUDA where the backend or a "NAME_cuda" request asks for it and the
// feature has one, the CPU twin otherwise.
void Session::Impl::choose_twins(Backend backend) {
    for (const Request& request : requests) {
        const FeatureDefinition& def = *request.definition;
        const bool want_cuda = request.cuda_twin_required || backend == Backend::cuda;
        Bound bound;
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
    const auto first_on_cuda = std::find_if(features.begin(), features.end(), on_cuda);
    if (first_on_cuda != features.end() && cuda_devices() == 0)
        throw usage_error(fmt::format("feature '{}' needs a CUDA device, and none is usable",
                                      first_on_cuda->name));
}

// Initialises every twin for the format, then asks what the run as a whole needs of the input.
void Session::Impl::init_features() {
    for (Bound& bound : features) {
        bound.feature->init(format);
        needs_reference = needs_reference || bound.feature->uses_reference();
        history_depth = std::max(history_depth, std::size_t(bound.feature->history()));
    }
    if (history_depth > std::size_t(max_reference_history))
        throw std::logic_error("a feature asks for more reference history than FramePair carries");
}

// One executor per backend in use (CUDA first), each with its features in request order; a
// feature's slot is its place among its executor's features.
void Session::Impl::make_executors() {
    std::vector<CpuFeature*> cpu_features;
    std::vector<Feature*> cuda_features;
    for (Bound& bound : features) {
        if (on_cuda(bound)) {
            bound.slot = cuda_features.size();
            cuda_features.push_back(bound.feature.get());
        } else {
            bound.slot = cpu_features.size();
            cpu_features.push_back(bound.cpu);
        }
    }
    if (!cuda_features.empty()) {
#if VQ_WITH_CUDA
        executors.push_back(
            cuda::make_executor(cuda_features, config.gpu, format, needs_reference));
        layouts.push_back(BlockLayout::of(cuda_features));
#endif
    }
    if (!cpu_features.empty()) {
        executors.push_back(make_cpu_executor(cpu_features, config.threads));
        layouts.push_back(BlockLayout::of(cpu_features));
    }
    const std::size_t cpu_executor = executors.size() - 1;
    for (Bound& bound : features) bound.executor = on_cuda(bound) ? 0 : cpu_executor;
    depth = executors.empty() ? 1 : executors.front()->depth();
    for (const auto& executor : executors) depth = std::min(depth, executor->depth());
}

// One receipt per feature, and the backends used in the order they first appear.
void Session::Impl::write_receipts() {
    std::vector<std::string> backends_used;
    for (const Bound& bound : features) {
        std::vector<std::string> outputs = bound.feature->outputs();
        for (std::string& output : bound.feature->flushed_outputs())
            outputs.push_back(std::move(output));
        receipts.push_back({bound.name, to_string(bound.feature->backend()), std::move(outputs)});
        if (std::find(backends_used.begin(), backends_used.end(), receipts.back().backend) ==
            backends_used.end())
            backends_used.push_back(receipts.back().backend);
    }
    detail::ScoreTableFiller::set_backend_used(table,
                                               fmt::format("{}", fmt::join(backends_used, "+")));
    detail::ScoreTableFiller::set_receipts(table, receipts);
}

// Every feature's per-frame outputs (those listed first before the others), then the outputs
// completed after the last frame, as libvmaf's collector appends those at flush.
void Session::Impl::add_columns() {
    const auto add = [&](const Bound& bound, const std::string& output) {
        if (table.find(output))
            throw usage_error(
                fmt::format("feature '{}' would write '{}' a second time; request it once",
                            bound.name, output));
        return table.add_column(output);
    };
    for (const bool first : {true, false})
        for (Bound& bound : features)
            if (bound.feature->outputs_listed_first() == first)
                for (const std::string& output : bound.feature->outputs())
                    bound.columns.push_back(add(bound, output));
    for (Bound& bound : features)
        for (const std::string& output : bound.feature->flushed_outputs())
            bound.flushed_columns.push_back(add(bound, output));
    // Model scores last: libvmaf predicts after the features are flushed.
    for (ModelRun& run : models) {
        for (const model::ModelFeature& feature : run.set.main.features) {
            const auto column = table.find(feature.column);
            if (!column)
                throw std::logic_error(fmt::format("model feature '{}' has no column '{}'",
                                                   feature.name, feature.column));
            run.feature_columns.push_back(*column);
        }
        for (const std::string& output : model::output_names(run.set)) {
            if (table.find(output))
                throw usage_error(
                    fmt::format("model '{}' would write '{}' a second time; give it another name= "
                                "or request it once",
                                run.set.main.name, output));
            run.output_columns.push_back(table.add_column(output));
        }
    }
}

void Session::start(const VideoFormat& format) {
    if (impl_->started) throw usage_error("session already started");
    if (impl_->requests.empty()) throw usage_error("no feature requested");
    validate(format);
    Backend backend = impl_->config.backend;
    if (backend == Backend::automatic) backend = cuda_devices() > 0 ? Backend::cuda : Backend::cpu;
    if (backend == Backend::cuda && cuda_devices() == 0)
        throw usage_error(VQ_WITH_CUDA ? "--backend cuda: no usable CUDA device found"
                                       : "--backend cuda: this vq was built without CUDA");
    impl_->format = format;
    detail::ScoreTableFiller::set_size(impl_->table, format.width, format.height);
    impl_->table.set_subsample(impl_->config.subsample);
    impl_->bind(backend);
    impl_->started = true;
}

BufferAllocator Session::buffer_allocator() const {
    for (const auto& executor : impl_->executors)
        if (auto allocator = executor->allocator()) return allocator;
    return {};
}

ReadAheadPlan Session::read_ahead_plan() const {
    ReadAheadPlan plan;
    for (const auto& executor : impl_->executors) {
        const ReadAheadPlan wanted = executor->read_ahead_plan();
        plan.frames = std::max(plan.frames, wanted.frames);
        plan.threads = std::max(plan.threads, wanted.threads);
    }
    return plan;
}

void Session::Impl::commit_oldest() {
    const std::size_t index = committed;
    const std::vector<bool> run = std::move(in_flight.front());
    in_flight.pop_front();
    std::vector<std::span<const std::byte>> areas;
    for (const auto& executor : executors) areas.push_back(executor->collect(index));
    std::vector<double> scores;
    for (std::size_t k = 0; k < features.size(); ++k) {
        if (!run[k]) continue;
        Bound& bound = features[k];
        scores.assign(bound.columns.size(), 0.0);
        bound.feature->finish(layouts[bound.executor].block(areas[bound.executor], bound.slot),
                              scores);
        for (std::size_t c = 0; c < bound.columns.size(); ++c)
            table.set(bound.columns[c], index, scores[c]);
    }
    ++committed;
}

void Session::Impl::flush_features() {
    for (Bound& bound : features) {
        if (bound.flushed_columns.empty()) continue;
        std::vector<std::vector<double>> columns(bound.flushed_columns.size(),
                                                 std::vector<double>(pushed, std::nan("")));
        bound.feature->flush(columns);
        for (std::size_t c = 0; c < columns.size(); ++c)
            for (std::size_t frame = 0; frame < pushed; ++frame)
                if (!std::isnan(columns[c][frame]))
                    table.set(bound.flushed_columns[c], frame, columns[c][frame]);
    }
}

// Every scored frame whose model features all exist gets its model scores (spec/vmaf.md §5, §8).
void Session::Impl::predict_models() {
    std::vector<double> inputs, outputs;
    for (const ModelRun& run : models) {
        inputs.resize(run.feature_columns.size());
        outputs.resize(run.output_columns.size());
        for (std::size_t frame = 0; frame < pushed; ++frame) {
            if (!table.frame_selected(frame)) continue;
            bool complete = true;
            for (std::size_t k = 0; k < inputs.size() && complete; ++k) {
                const auto value = table.value(run.feature_columns[k], frame);
                complete = value.has_value();
                if (complete) inputs[k] = *value;
            }
            if (!complete) continue;
            model::predict_frame(run.set, inputs, outputs);
            for (std::size_t c = 0; c < outputs.size(); ++c)
                table.set(run.output_columns[c], frame, outputs[c]);
        }
    }
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

    const std::size_t index = s.pushed;
    pair.index = index;
    const bool selected = index % s.config.subsample == 0;
    std::vector<bool> run;
    for (const Bound& bound : s.features)
        run.push_back(selected || bound.feature->every_frame() || bound.feature->history() > 0);
    for (std::size_t k = 0; k < s.recent_references.size(); ++k)
        pair.previous_references[k] = s.recent_references[k];
    for (std::size_t k = 0; k < s.recent_distorted.size(); ++k)
        pair.previous_distorted[k] = s.recent_distorted[k];
    for (std::size_t e = 0; e < s.executors.size(); ++e) {
        std::vector<bool> mask;
        for (std::size_t k = 0; k < s.features.size(); ++k)
            if (s.features[k].executor == e) mask.push_back(run[k]);
        s.executors[e]->submit(index, pair, mask);
    }
    s.in_flight.push_back(std::move(run));
    ++s.pushed;
    if (s.history_depth > 0) {
        s.recent_references.push_front(std::move(pair.reference));
        if (s.recent_references.size() > s.history_depth) s.recent_references.pop_back();
        s.recent_distorted.push_front(std::move(pair.distorted));
        if (s.recent_distorted.size() > s.history_depth) s.recent_distorted.pop_back();
    }
    // Committed here rather than before the next frame is submitted: the caller then waits with
    // no frame in hand, so the frames alive are the executors' and the read-ahead's alone.
    if (s.in_flight.size() >= s.depth) s.commit_oldest();
}

ScoreTable Session::finish() {
    Impl& s = *impl_;
    if (!s.started || s.finished) throw usage_error("finish() needs a started, unfinished session");
    while (!s.in_flight.empty()) s.commit_oldest();
    s.recent_references.clear();
    s.recent_distorted.clear();
    s.finished = true;
    s.table.set_frame_count(s.pushed);
    s.flush_features();
    s.predict_models();
    for (const Bound& bound : s.features)
        for (const auto& [name, value] : bound.feature->aggregates())
            s.table.add_aggregate(name, value);
    for (std::size_t k = 0; k < s.features.size(); ++k)  // one receipt per feature, in order
        s.receipts[k].notes = detail::ScoreTableFiller::receipts(s.table)[k].notes =
            s.features[k].feature->receipt_notes();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - s.first_push).count();
    detail::ScoreTableFiller::set_fps(s.table,
                                      s.pushed && seconds > 0 ? double(s.pushed) / seconds : 0.0);
    return std::move(s.table);
}

const std::vector<FeatureReceipt>& Session::receipts() const { return impl_->receipts; }

}  // namespace vq
