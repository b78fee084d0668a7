#include "model/libsvm_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>

#include <fmt/format.h>

namespace vq::model::detail {
namespace {

constexpr std::string_view field = "model_dict.model";

// The text line by line, and each line token by token (blanks are spaces, tabs and a CR).
class Lines {
public:
    explicit Lines(std::string_view text) : rest_(text) {}

    // False at the end; text after the last newline is a line only when it is not empty.
    bool next() {
        if (done_ || rest_.empty()) return false;
        const std::size_t end = rest_.find('\n');
        line_ = rest_.substr(0, end);
        if (end == std::string_view::npos)
            done_ = true;
        else
            rest_.remove_prefix(end + 1);
        ++number_;
        return true;
    }
    // The next token of the current line; empty at its end.
    std::string_view token() {
        constexpr std::string_view blanks = " \t\r";
        const std::size_t first = line_.find_first_not_of(blanks);
        if (first == std::string_view::npos) {
            line_ = {};
            return {};
        }
        line_.remove_prefix(first);
        const std::size_t end = std::min(line_.find_first_of(blanks), line_.size());
        const std::string_view token = line_.substr(0, end);
        line_.remove_prefix(end);
        return token;
    }
    std::size_t number() const { return number_; }

private:
    std::string_view rest_;
    std::string_view line_;
    std::size_t number_ = 0;
    bool done_ = false;
};

std::optional<double> finite_number(std::string_view text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(value))
        return std::nullopt;
    return value;
}

template <typename Int>
std::optional<Int> integer(std::string_view text) {
    Int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

}  // namespace

Svm parse_libsvm(std::string_view text, std::size_t dimension, std::size_t& budget,
                 const Where& where) {
    Lines lines(text);
    const auto fail = [&](const std::string& what) {
        where.fail(field, fmt::format("line {}: {}", lines.number(), what));
    };

    // Header: "key value" lines up to "SV".
    std::optional<double> gamma, rho;
    std::optional<std::int64_t> total_sv;
    bool svm_type = false, kernel_type = false, nr_class = false;
    while (true) {
        if (!lines.next()) where.fail(field, "no 'SV' line ending the header");
        const std::string_view key = lines.token();
        if (key.empty()) continue;
        if (key == "SV") {
            if (!lines.token().empty()) fail("text after 'SV'");
            break;
        }
        const std::string_view value = lines.token();
        if (value.empty() || !lines.token().empty())
            fail(fmt::format("expected '{} VALUE'", printable(key)));
        const auto once = [&](bool& seen) {
            if (seen) fail(fmt::format("'{}' given twice", key));
            seen = true;
        };
        const auto number = [&](std::optional<double>& slot) {
            if (slot) fail(fmt::format("'{}' given twice", key));
            slot = finite_number(value);
            if (!slot)
                fail(fmt::format("{} must be a finite number, got '{}'", key, printable(value)));
        };
        if (key == "svm_type") {
            once(svm_type);
            if (value != "nu_svr")
                fail(fmt::format("svm_type must be nu_svr, got '{}'", printable(value)));
        } else if (key == "kernel_type") {
            once(kernel_type);
            if (value != "rbf")
                fail(fmt::format("kernel_type must be rbf, got '{}'", printable(value)));
        } else if (key == "nr_class") {
            once(nr_class);
            if (value != "2")
                fail(fmt::format("nr_class must be 2 for regression, got '{}'", printable(value)));
        } else if (key == "gamma") {
            number(gamma);
        } else if (key == "rho") {
            number(rho);
        } else if (key == "total_sv") {
            if (total_sv) fail("'total_sv' given twice");
            total_sv = integer<std::int64_t>(value);
            if (!total_sv || *total_sv < 1)
                fail(
                    fmt::format("total_sv must be a positive integer, got '{}'", printable(value)));
        } else {
            fail(fmt::format("unknown header key '{}'", printable(key)));
        }
    }
    if (!svm_type) where.fail(field, "no svm_type");
    if (!kernel_type) where.fail(field, "no kernel_type");
    if (!gamma) where.fail(field, "no gamma");
    if (!rho) where.fail(field, "no rho");
    if (!total_sv) where.fail(field, "no total_sv");

    // Claim the memory before allocating it: each vector holds its coefficient and `dimension`
    // values.
    const std::size_t per_vector = dimension + 1;
    if (std::uint64_t(*total_sv) > budget / per_vector)
        where.fail(field, fmt::format("total_sv {} is too large ({} values at most per file)",
                                      *total_sv, max_support_vector_values));
    const auto count = std::size_t(*total_sv);
    budget -= count * per_vector;

    Svm svm;
    svm.gamma = *gamma;
    svm.rho = *rho;
    svm.coefficients.reserve(count);
    svm.vectors.assign(count * dimension, 0.0);
    for (std::size_t j = 0; j < count; ++j) {
        if (!lines.next())
            where.fail(field, fmt::format("{} support vectors, total_sv says {}", j, count));
        const std::string_view alpha = lines.token();
        const auto coefficient = finite_number(alpha);
        if (!coefficient)
            fail(fmt::format("support vector {}: coefficient must be a finite number, got '{}'",
                             j + 1, printable(alpha)));
        svm.coefficients.push_back(*coefficient);
        double* row = svm.vectors.data() + j * dimension;
        std::size_t previous = 0;
        for (std::string_view item = lines.token(); !item.empty(); item = lines.token()) {
            const std::size_t colon = item.find(':');
            const auto index = integer<std::size_t>(item.substr(0, colon));
            const auto value = colon == std::string_view::npos
                                   ? std::nullopt
                                   : finite_number(item.substr(colon + 1));
            if (!index || !value)
                fail(fmt::format("support vector {}: expected INDEX:NUMBER, got '{}'", j + 1,
                                 printable(item)));
            if (*index < 1 || *index > dimension)
                fail(fmt::format("support vector {}: index {} outside 1..{}", j + 1, *index,
                                 dimension));
            if (*index <= previous)
                fail(fmt::format("support vector {}: index {} after {} (indices must increase)",
                                 j + 1, *index, previous));
            row[*index - 1] = *value;
            previous = *index;
        }
    }
    while (lines.next())
        if (!lines.token().empty())
            fail(fmt::format("more support vectors than total_sv {}", count));
    return svm;
}

}  // namespace vq::model::detail
