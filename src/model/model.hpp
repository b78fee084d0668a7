// VMAF models (spec/vmaf.md §4, §5, §8; spec/vmaf-v1.md): loading model files and bootstrap
// collections, and the per-frame nu-SVR prediction with its chroma correction, transform and clip.
//
// Typical use:
//   const vq::model::ModelSet set =
//   vq::model::load(vq::model::parse_model_request("version=vmaf_v0.6.1")); run every request in
//   set.extractors; per frame, read set.main.features[k].column into f[k];
//   vq::model::predict_frame(set, f, out);  // out[i] is written under output_names(set)[i]
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "feature/options.hpp"

namespace vq::model {

// Bounds that keep hostile files from exhausting memory or the stack; the shipped models are far
// below them (6 features, 262 support vectors, 20 collection models).
inline constexpr std::size_t max_features = 64;
inline constexpr std::size_t max_collection = 1000;
inline constexpr std::size_t max_support_vector_values = std::size_t(1) << 22;  // per file
inline constexpr std::size_t max_file_bytes = std::size_t(64) << 20;

// One `FEATURE.OPTION=VALUE` item of a model string: sets OPTION for every model feature that
// extractor FEATURE provides.
struct FeatureOverride {
    std::string extractor;
    std::string option;
    std::string value;
};

// libvmaf's --model string: `version=NAME` or `path=FILE`, then any of `name=NAME`,
// `enable_transform`, `disable_clip` (bare or `=true`/`=false`) and FEATURE.OPTION=VALUE, joined by
// ':'.
struct ModelRequest {
    std::string version;  // a built-in model (builtin_names()); empty when `path` is used
    std::string path;     // a model JSON file
    std::string name = "vmaf";
    bool enable_transform = false;
    bool disable_clip = false;
    std::vector<FeatureOverride> overrides;  // in the order given
};

// Throws vq::Error (usage) naming the offending item.
ModelRequest parse_model_request(std::string_view text);

enum class Norm { none, linear_rescale };

// §5 step 5. Absent polynomial terms are simply not added; no terms and no knots is the identity
// before the rectification.
struct Transform {
    std::optional<double> p0, p1, p2;
    std::vector<std::pair<double, double>> knots;  // (x, y) with increasing x; empty: none
    bool out_lte_in = false;
    bool out_gte_in = false;
};

// The libsvm nu-SVR with an RBF kernel. Support vectors are stored dense, omitted entries as 0:
// x − 0 is exactly x, so the §5 loop gives the same bits as skipping them.
struct Svm {
    double gamma = 0;
    double rho = 0;
    std::vector<double> coefficients;  // α_j, in file order
    std::vector<double> vectors;  // SV j's value of index t (1-based) at [j·dimension + t − 1]
};

struct ModelFeature {
    std::string name;       // as the file names it, e.g. VMAF_integer_feature_adm2_score
    std::string extractor;  // the registry feature that provides it: "adm", "cambi", "motion" ...
    // Options for that extractor (the file's feature_opts_dicts, then the request's overrides), as
    // text bind_options accepts: numbers %g, booleans true/false, strings verbatim.
    std::vector<std::pair<std::string, std::string>> options;
    // The output name its value is found under: the §6 alias plus the options suffix, e.g.
    // integer_vif_scale0_egl_1. Filled by load() from the feature registry; empty after
    // parse_models().
    std::string column;

    // "vif=vif_enhn_gain_limit=1": the same extractor run as a --feature string.
    std::string request_text() const;
};

// spec/vmaf-v1.md §4.2: a frame whose speed_chroma feature de-normalises to exactly 0 (no usable
// chroma) gets parameter·(1 − adm3) in its place before the SVM.
struct ChromaCorrection {
    double parameter = 0;   // chroma_correction_parameter, never 0
    std::size_t speed = 0;  // index in Model::features of the corrected feature ("speed_chroma")
    std::size_t adm3 = 0;   // index of the feature that guides it ("adm3")
};

struct Model {
    std::string name;  // the output name: "vmaf", "vmaf_0001", ...
    std::vector<ModelFeature> features;
    Norm norm = Norm::linear_rescale;
    std::vector<double> slopes;      // features + 1; [0] is the output's (empty when norm is none)
    std::vector<double> intercepts;  // likewise
    bool clip = false;               // score_clip present and not disabled by the request
    double clip_min = 0;
    double clip_max = 0;
    bool transform_enabled = false;  // score_transform.enabled, or enable_transform requested
    Transform transform;
    std::optional<ChromaCorrection> chroma_correction;  // needs norm linear_rescale
    Svm svm;
};

// A single model, or a bootstrap collection (§8): `main` is member "0", `collection` holds
// "1".."N" (empty for a single model). Every member reads the same features as `main`.
struct ModelSet {
    Model main;
    std::vector<Model> collection;
    // The distinct extractor runs the features need, each once per distinct options (§1).
    // Filled by load().
    std::vector<FeatureRequest> extractors;
};

// Parses a model or collection file's text and applies the request's name, flags and overrides
// (its version/path are not used). `source` names the file in messages. Malformed or hostile text
// throws vq::Error (usage) with one line naming the source and the field. Needs no registry.
ModelSet parse_models(std::string_view json, std::string_view source, const ModelRequest& request);

// Reads the built-in model or the file, parses it, then checks each feature's options against the
// feature registry and fills the columns and extractors. Throws vq::Error (usage).
ModelSet load(const ModelRequest& request);

// The text of a built-in model file ("vmaf_v0.6.1", ...); throws vq::Error (usage) listing the
// names for an unknown one.
std::string_view builtin(std::string_view version);
std::vector<std::string_view> builtin_names();  // sorted

// One line on what a built-in model is for (display, viewing distance, frame rate); empty for a
// name that is not built in.
std::string_view builtin_use(std::string_view version);

// Every built-in model, one per line: its name and its use (vq --list-models).
std::string describe_models();

// §5: one frame's score from its features (in model.features order). Allocation-free.
double predict(const Model& model, std::span<const double> features);

// Steps 2-4 of §5 only (no transform, no clip): what a collection member contributes as u_k.
double predict_unfinished(const Model& model, std::span<const double> features);

// Steps 5-6 of §5 (transform if enabled, then clip if enabled) applied to a denormalised score.
double finish(const Model& model, double score);

// The names predict_frame writes, in order: <name>; for a collection also <name>_0001 ...
// <name>_%04d, <name>_bagging, <name>_stddev, <name>_ci_p95_lo, <name>_ci_p95_hi.
std::vector<std::string> output_names(const ModelSet& set);

// One frame's outputs (§5, §8), features in set.main.features order; out.size() must equal
// output_names(set).size(). Allocation-free.
void predict_frame(const ModelSet& set, std::span<const double> features, std::span<double> out);

}  // namespace vq::model
