// Model files (spec/vmaf.md §4.1) and collections (§8) from JSON text, with the model string's
// name, flags and feature overrides applied.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/diagnostics.hpp"
#include "model/libsvm_text.hpp"
#include "model/model.hpp"
#include "model/model_features.hpp"
#include "vq/error.hpp"

namespace vq::model {
namespace {

// Collections are walked in file order (§8), which std::map-backed objects would lose.
using Json = nlohmann::ordered_json;
using detail::printable;
using detail::Where;

const Json* find(const Json& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

// spec/vmaf-v1.md §2: libvmaf reads a model's option numbers with strtof and prints them back with
// %g, so an option keeps at most 6 significant digits of its float. (Rounding the parsed double
// rather than the text to float differs from strtof only for text within one double rounding of
// the midpoint between two floats.)
std::string format_option_number(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(value));
    return text;
}

// Model files nest 4 levels deep; a valid JSON text nested 100,000 deep would be parsed (the
// parser keeps its own stack), then overflow the thread's stack in anything that walks or frees
// it recursively. The parser's callback sees the depth of every value and stops it here.
constexpr int max_json_depth = 64;
struct TooDeep {};

bool refuse_deep_nesting(int depth, Json::parse_event_t, Json&) {
    if (depth > max_json_depth) throw TooDeep{};
    return true;
}

// The option-string syntax (key=value:key=value) cannot carry these.
bool is_option_text(std::string_view text) {
    return !text.empty() && text.find_first_of(":=") == std::string_view::npos;
}

class ModelReader {
public:
    ModelReader(const Where& where, std::size_t& budget) : where_(where), budget_(budget) {}

    Model read(const Json& top) const {
        if (!top.is_object()) where_.fail("(top level)", "expected a JSON object");
        const Json* dict = find(top, "model_dict");
        if (!dict || !dict->is_object()) where_.fail("model_dict", "missing or not an object");
        const Json& d = *dict;

        const std::string type = text(d, "model_type");
        if (type != "LIBSVMNUSVR" && type != "BOOTSTRAP_LIBSVMNUSVR" &&
            type != "RESIDUEBOOTSTRAP_LIBSVMNUSVR")
            fail("model_type",
                 fmt::format("unsupported '{}' (expected LIBSVMNUSVR or a bootstrap variant)",
                             printable(type)));
        Model model;
        model.features = features(d);
        const std::size_t n = model.features.size();

        const std::string norm = text(d, "norm_type");
        if (norm == "linear_rescale") {
            model.norm = Norm::linear_rescale;
            model.slopes = numbers(d, "slopes", n + 1);
            model.intercepts = numbers(d, "intercepts", n + 1);
        } else if (norm == "none") {
            model.norm = Norm::none;
        } else {
            fail("norm_type", fmt::format("unsupported '{}' (expected linear_rescale or none)",
                                          printable(norm)));
        }

        if (find(d, "score_clip")) {
            const std::vector<double> clip = numbers(d, "score_clip", 2);
            if (clip[0] > clip[1]) fail("score_clip", "min is above max");
            model.clip = true;
            model.clip_min = clip[0];
            model.clip_max = clip[1];
        }
        if (const Json* transform = find(d, "score_transform")) {
            if (!transform->is_object()) fail("score_transform", "not an object");
            read_transform(*transform, model);
        }

        if (const Json* p = find(d, "chroma_correction_parameter"))
            model.chroma_correction = chroma_correction(*p, model);

        const Json* svm = find(d, "model");
        if (!svm || !svm->is_string()) fail("model", "missing or not a string");
        model.svm = detail::parse_libsvm(svm->get_ref<const std::string&>(), n, budget_, where_);
        return model;
    }

private:
    [[noreturn]] void fail(std::string_view field, std::string_view what) const {
        where_.fail(fmt::format("model_dict.{}", field), what);
    }

    std::string text(const Json& d, std::string_view key) const {
        const Json* value = find(d, key);
        if (!value || !value->is_string()) fail(key, "missing or not a string");
        return value->get<std::string>();
    }

    double finite(const Json& value, std::string_view field) const {
        if (!value.is_number()) fail(field, "not a number");
        const double number = value.get<double>();
        if (!std::isfinite(number)) fail(field, "not a finite number");
        return number;
    }

    float float_option(const Json& value, std::string_view field) const {
        const double number = finite(value, field);
        if (std::fabs(number) > double(std::numeric_limits<float>::max()))
            fail(field, "out of the float range");
        return float(number);
    }

    std::vector<double> numbers(const Json& d, std::string_view key, std::size_t count) const {
        const Json* list = find(d, key);
        if (!list || !list->is_array()) fail(key, "missing or not a list");
        if (list->size() != count)
            fail(key, fmt::format("has {} numbers, expected {}", list->size(), count));
        std::vector<double> values;
        for (std::size_t i = 0; i < count; ++i)
            values.push_back(finite((*list)[i], fmt::format("{}[{}]", key, i)));
        return values;
    }

    std::vector<ModelFeature> features(const Json& d) const {
        const Json* names = find(d, "feature_names");
        if (!names || !names->is_array()) fail("feature_names", "missing or not a list");
        if (names->empty() || names->size() > max_features)
            fail("feature_names",
                 fmt::format("has {} names, expected 1..{}", names->size(), max_features));
        const Json* opts = find(d, "feature_opts_dicts");
        if (opts && (!opts->is_array() || opts->size() != names->size()))
            fail("feature_opts_dicts",
                 fmt::format("must be a list of {} objects, one per feature", names->size()));

        std::vector<ModelFeature> features;
        for (std::size_t k = 0; k < names->size(); ++k) {
            const Json& name = (*names)[k];
            const std::string field = fmt::format("feature_names[{}]", k);
            if (!name.is_string()) fail(field, "not a string");
            const auto* binding = detail::find_binding(name.get_ref<const std::string&>());
            if (!binding)
                fail(field, fmt::format("unknown feature '{}' (known: {})",
                                        printable(name.get_ref<const std::string&>()),
                                        detail::known_feature_names()));
            ModelFeature feature;
            feature.name = binding->name;
            feature.extractor = binding->extractor;
            if (opts)
                feature.options = options((*opts)[k], fmt::format("feature_opts_dicts[{}]", k));
            features.push_back(std::move(feature));
        }
        return features;
    }

    std::vector<std::pair<std::string, std::string>> options(const Json& dict,
                                                             const std::string& field) const {
        if (!dict.is_object()) fail(field, "not an object");
        std::vector<std::pair<std::string, std::string>> options;
        for (const auto& [key, value] : dict.items()) {
            const std::string where = fmt::format("{}.{}", field, printable(key));
            if (!is_option_text(key)) fail(where, "not a usable option name");
            std::string text;
            if (value.is_boolean())
                text = value.get<bool>() ? "true" : "false";
            else if (value.is_number())
                text = format_option_number(float_option(value, where));
            else if (value.is_string())
                text = value.get<std::string>();
            else
                fail(where, "must be a number, a boolean or a string");
            if (!is_option_text(text))
                fail(where, fmt::format("unusable value '{}'", printable(text)));
            options.emplace_back(key, std::move(text));
        }
        return options;
    }

    // spec/vmaf-v1.md §4.2: the corrected feature is the first whose name contains "speed_chroma",
    // its guide the first containing "adm3". libvmaf scores no frame at all when the parameter is
    // 0, so such a file is refused rather than run.
    ChromaCorrection chroma_correction(const Json& value, const Model& model) const {
        const std::string_view field = "chroma_correction_parameter";
        ChromaCorrection correction;
        correction.parameter = finite(value, field);
        if (correction.parameter == 0)
            fail(field, "is 0 (libvmaf would score no frame; leave the key out instead)");
        if (model.norm != Norm::linear_rescale)
            fail(field, "needs norm_type linear_rescale (it de-normalises the features)");
        const auto index_of = [&](std::string_view part) {
            for (std::size_t k = 0; k < model.features.size(); ++k)
                if (model.features[k].name.find(part) != std::string::npos) return k;
            fail(field, fmt::format("needs a feature whose name contains '{}'", part));
        };
        correction.speed = index_of("speed_chroma");
        correction.adm3 = index_of("adm3");
        return correction;
    }

    // out_lte_in / out_gte_in are the strings "true"/"false" in the shipped files.
    bool flag(const Json& t, std::string_view key) const {
        const Json* value = find(t, key);
        if (!value) return false;
        if (value->is_boolean()) return value->get<bool>();
        if (value->is_string() && value->get_ref<const std::string&>() == "true") return true;
        if (value->is_string() && value->get_ref<const std::string&>() == "false") return false;
        fail(fmt::format("score_transform.{}", key), "must be \"true\" or \"false\"");
    }

    void read_transform(const Json& t, Model& model) const {
        if (const Json* enabled = find(t, "enabled")) {
            if (!enabled->is_boolean()) fail("score_transform.enabled", "not a boolean");
            model.transform_enabled = enabled->get<bool>();
        }
        Transform& transform = model.transform;
        for (auto [key, slot] : {std::pair{"p0", &transform.p0}, std::pair{"p1", &transform.p1},
                                 std::pair{"p2", &transform.p2}})
            if (const Json* p = find(t, key))
                *slot = finite(*p, fmt::format("score_transform.{}", key));
        if (const Json* knots = find(t, "knots")) {
            if (!knots->is_array() || knots->size() < 2)
                fail("score_transform.knots", "must be a list of 2 or more [x, y]");
            for (std::size_t i = 0; i < knots->size(); ++i) {
                const Json& knot = (*knots)[i];
                const std::string field = fmt::format("score_transform.knots[{}]", i);
                if (!knot.is_array() || knot.size() != 2) fail(field, "must be [x, y]");
                const std::pair point{finite(knot[0], field), finite(knot[1], field)};
                if (!transform.knots.empty() && point.first <= transform.knots.back().first)
                    fail(field, "x must increase from knot to knot");
                transform.knots.push_back(point);
            }
        }
        transform.out_lte_in = flag(t, "out_lte_in");
        transform.out_gte_in = flag(t, "out_gte_in");
    }

    const Where& where_;
    std::size_t& budget_;
};

void set_option(ModelFeature& feature, const FeatureOverride& o) {
    for (auto& [key, value] : feature.options)
        if (key == o.option) {
            value = o.value;
            return;
        }
    feature.options.emplace_back(o.option, o.value);
}

bool same_features(const Model& a, const Model& b) {
    if (a.features.size() != b.features.size()) return false;
    for (std::size_t k = 0; k < a.features.size(); ++k)
        if (a.features[k].name != b.features[k].name ||
            a.features[k].options != b.features[k].options)
            return false;
    return true;
}

void apply(const ModelRequest& request, std::string_view source, ModelSet& set) {
    const auto settle = [&](Model& model, std::string name) {
        model.name = std::move(name);
        model.transform_enabled = model.transform_enabled || request.enable_transform;
        model.clip = model.clip && !request.disable_clip;
    };
    settle(set.main, request.name);
    for (std::size_t k = 0; k < set.collection.size(); ++k)
        settle(set.collection[k], fmt::format("{}_{:04d}", request.name, k + 1));

    for (const FeatureOverride& o : request.overrides) {
        bool used = false;
        const auto override_in = [&](Model& model) {
            for (ModelFeature& feature : model.features)
                if (feature.extractor == o.extractor) {
                    set_option(feature, o);
                    used = true;
                }
        };
        override_in(set.main);
        for (Model& member : set.collection) override_in(member);
        if (!used)
            throw usage_error(
                fmt::format("model '{}': '{}.{}={}': no feature of this model comes from '{}'",
                            printable(source, 4096), o.extractor, o.option, o.value, o.extractor));
    }
}

}  // namespace

ModelSet parse_models(std::string_view json, std::string_view source, const ModelRequest& request) {
    const Where file{source, ""};
    if (json.size() > max_file_bytes)
        file.fail("(file)", fmt::format("larger than {} bytes", max_file_bytes));
    Json top;
    try {
        top = Json::parse(json, refuse_deep_nesting);
    } catch (const TooDeep&) {
        file.fail("(JSON)", fmt::format("nested more than {} levels deep", max_json_depth));
    } catch (const Json::parse_error& e) {
        file.fail("(JSON)", fmt::format("not valid JSON (at byte {})", e.byte));
    } catch (const Json::out_of_range&) {
        file.fail("(JSON)", "a number out of the double range");
    }
    std::size_t budget = max_support_vector_values;
    ModelSet set;
    if (!top.is_object() || top.contains("model_dict")) {
        set.main = ModelReader(file, budget).read(top);
    } else {
        // §8: members keyed "0", "1", ... in file order; anything else is skipped unread.
        std::size_t count = 0;
        for (const auto& [key, value] : top.items()) {
            if (key != std::to_string(count)) continue;
            if (count > max_collection)
                file.fail(fmt::format("[\"{}\"]", key),
                          fmt::format("a collection holds at most {} models", max_collection));
            const Where member{source, fmt::format("[\"{}\"].", key)};
            Model model = ModelReader(member, budget).read(value);
            if (count > 0 && !same_features(model, set.main))
                member.fail("model_dict.feature_names",
                            "features or their options differ from model \"0\" (a collection's "
                            "models read the same features)");
            if (count == 0)
                set.main = std::move(model);
            else
                set.collection.push_back(std::move(model));
            ++count;
        }
        if (count == 0) file.fail("model_dict", "missing (and no collection member \"0\")");
        if (count == 1) file.fail("[\"1\"]", "missing: a collection needs a member besides \"0\"");
    }
    apply(request, source, set);
    return set;
}

}  // namespace vq::model
