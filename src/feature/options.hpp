// Typed feature options and libvmaf's option-string syntax: NAME=key=val:key=val. The metric
// author's side of options (each feature's table, binding and validation); users name options
// only in request strings (Session::add_feature).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace vq {

enum class OptionType { boolean, integer, real, text };

using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

struct OptionSpec {
    std::string key;
    OptionType type = OptionType::boolean;
    OptionValue default_value;
    double min = 0;  // inclusive range for integer and real options
    double max = 0;
    std::vector<std::string> choices;  // accepted values of a text option; empty = any text
    // The short name a non-default value adds to the feature's output names (libvmaf's "feature
    // parameter" alias). Empty: the option does not rename outputs.
    std::string alias;
    std::string description;
};

// "cambi=window_size=33:topk=0.2" -> {"cambi", {{"window_size","33"}, {"topk","0.2"}}}.
struct FeatureRequest {
    std::string name;
    std::vector<std::pair<std::string, std::string>> options;
};

// Throws vq::Error (usage) naming the text when it is malformed (empty name, an option without
// '=', an empty key).
FeatureRequest parse_feature_request(std::string_view text);

// The options of one feature, validated against its table. Unset options hold their defaults.
class OptionValues {
public:
    OptionValues() = default;

    bool get_bool(std::string_view key) const;
    std::int64_t get_int(std::string_view key) const;
    double get_double(std::string_view key) const;
    const std::string& get_string(std::string_view key) const;
    bool is_default(std::string_view key) const;

    // "_alias_value" (booleans: "_alias") for each feature-parameter option whose value differs
    // from its default, in byte order of the option keys; values print as %d, %g or verbatim
    // (libvmaf's rule).
    std::string output_suffix() const;

    // Canonical text of every option (for deduplicating identical requests).
    std::string canonical() const;

private:
    friend OptionValues bind_options(std::string_view, std::span<const OptionSpec>,
                                     const std::vector<std::pair<std::string, std::string>>&);
    struct Entry {
        const OptionSpec* spec;
        OptionValue value;
    };
    const Entry& entry(std::string_view key) const;
    std::map<std::string, Entry, std::less<>> entries_;
};

// Validates every key and value against the table. Throws vq::Error (usage) naming the feature,
// the option and the value for an unknown key, an unparsable value or one out of range.
// Numeric values are normalised the way libvmaf does (read as a float, reprinted with %g,
// read back as a double), so `min_sse=0.1234567` means 0.123457 in both tools.
OptionValues bind_options(std::string_view feature, std::span<const OptionSpec> table,
                          const std::vector<std::pair<std::string, std::string>>& options);

std::string describe_option(const OptionSpec& spec);  // one line for --list-features

}  // namespace vq
