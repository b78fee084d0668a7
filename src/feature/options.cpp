#include "feature/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {
namespace {

std::string format_g(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// libvmaf normalises every numeric-looking value by reading it as a float and reprinting it
// with %g before the extractor parses it; doing the same keeps `min_sse=0.1234567` meaning
// 0.123457 in both tools.
double normalise_like_libvmaf(double value) {
    return std::strtod(format_g(double(float(value))).c_str(), nullptr);
}

std::optional<double> parse_real(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::optional<std::int64_t> parse_integer(const std::string& text) {
    std::int64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') ++first;
    const auto [end, error] = std::from_chars(first, last, value);
    if (first == last || error != std::errc() || end != last) return std::nullopt;
    return value;
}

std::string range_text(const OptionSpec& spec) {
    if (spec.type == OptionType::integer)
        return fmt::format("an integer in {}..{}", std::int64_t(spec.min), std::int64_t(spec.max));
    return fmt::format("a number in {:g}..{:g}", spec.min, spec.max);
}

OptionValue parse_value(std::string_view feature, const OptionSpec& spec, const std::string& text) {
    const auto bad = [&](const std::string& expected) {
        return usage_error(fmt::format("feature '{}': option '{}' must be {}, got '{}'", feature,
                                       spec.key, expected, text));
    };
    switch (spec.type) {
    case OptionType::boolean:
        if (text == "true") return true;
        if (text == "false") return false;
        throw bad("true or false");
    case OptionType::integer: {
        const auto value = parse_integer(text);
        if (!value || double(*value) < spec.min || double(*value) > spec.max)
            throw bad(range_text(spec));
        return *value;
    }
    case OptionType::real: {
        const auto parsed = parse_real(text);
        if (!parsed) throw bad(range_text(spec));
        const double value = normalise_like_libvmaf(*parsed);
        if (value < spec.min || value > spec.max) throw bad(range_text(spec));
        return value;
    }
    case OptionType::text:
        if (!spec.choices.empty() &&
            std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
            throw bad(fmt::format("one of {}", fmt::join(spec.choices, ", ")));
        return text;
    }
    throw bad("valid");
}

std::string value_text(const OptionValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<T, std::int64_t>)
                return std::to_string(v);
            else if constexpr (std::is_same_v<T, double>)
                return format_g(v);
            else
                return v;
        },
        value);
}

}  // namespace

FeatureRequest parse_feature_request(std::string_view text) {
    FeatureRequest request;
    const auto equals = text.find('=');
    request.name = std::string(text.substr(0, equals));
    if (request.name.empty()) throw usage_error(fmt::format("bad feature '{}': no name", text));
    if (equals == std::string_view::npos) return request;
    std::string_view rest = text.substr(equals + 1);
    while (true) {
        const auto colon = rest.find(':');
        const std::string_view item = rest.substr(0, colon);
        const auto eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0 ||
            item.find('=', eq + 1) != std::string_view::npos)
            throw usage_error(fmt::format("feature '{}': bad option '{}' (expected key=value)",
                                          request.name, item));
        request.options.emplace_back(std::string(item.substr(0, eq)),
                                     std::string(item.substr(eq + 1)));
        if (colon == std::string_view::npos) break;
        rest = rest.substr(colon + 1);
    }
    return request;
}

OptionValues bind_options(std::string_view feature, std::span<const OptionSpec> table,
                          const std::vector<std::pair<std::string, std::string>>& options) {
    OptionValues values;
    for (const auto& spec : table)
        values.entries_.emplace(spec.key, OptionValues::Entry{&spec, spec.default_value});
    for (const auto& [key, text] : options) {
        const auto it = values.entries_.find(key);
        if (it == values.entries_.end()) {
            std::vector<std::string> known;
            for (const auto& spec : table) known.push_back(spec.key);
            throw usage_error(
                fmt::format("feature '{}': unknown option '{}' (known: {})", feature, key,
                            known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
        }
        it->second.value = parse_value(feature, *it->second.spec, text);  // later values win
    }
    return values;
}

const OptionValues::Entry& OptionValues::entry(std::string_view key) const {
    const auto it = entries_.find(key);
    if (it == entries_.end()) throw std::logic_error("no option '" + std::string(key) + "'");
    return it->second;
}

bool OptionValues::get_bool(std::string_view key) const { return std::get<bool>(entry(key).value); }
std::int64_t OptionValues::get_int(std::string_view key) const {
    return std::get<std::int64_t>(entry(key).value);
}
double OptionValues::get_double(std::string_view key) const {
    return std::get<double>(entry(key).value);
}
const std::string& OptionValues::get_string(std::string_view key) const {
    return std::get<std::string>(entry(key).value);
}
bool OptionValues::is_default(std::string_view key) const {
    const auto& e = entry(key);
    return e.value == e.spec->default_value;
}

std::string OptionValues::output_suffix() const {
    std::string suffix;
    for (const auto& [key, e] : entries_)  // std::map: byte order of the keys, as libvmaf sorts
        if (!e.spec->alias.empty() && e.value != e.spec->default_value)
            // A boolean switched on from its default names itself alone (`_mffw`), as libvmaf's do.
            suffix += std::holds_alternative<bool>(e.value)
                          ? "_" + e.spec->alias
                          : "_" + e.spec->alias + "_" + value_text(e.value);
    return suffix;
}

std::string OptionValues::canonical() const {
    std::string text;
    for (const auto& [key, e] : entries_) text += key + "=" + value_text(e.value) + ":";
    return text;
}

std::string describe_option(const OptionSpec& spec) {
    std::string kind;
    switch (spec.type) {
    case OptionType::boolean: kind = "bool"; break;
    case OptionType::integer:
        kind = fmt::format("int {}..{}", std::int64_t(spec.min), std::int64_t(spec.max));
        break;
    case OptionType::real: kind = fmt::format("double {:g}..{:g}", spec.min, spec.max); break;
    case OptionType::text:
        kind = spec.choices.empty() ? "string" : fmt::format("{}", fmt::join(spec.choices, "|"));
        break;
    }
    return fmt::format("{:<26} {:<22} default {:<8} {}", spec.key, kind,
                       value_text(spec.default_value), spec.description);
}

}  // namespace vq
