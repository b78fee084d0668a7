// Number formatting for the writers (spec/cli-and-output.md §11.2).
//
// Digits come from std::to_chars, which is correctly rounded (ties to even on the exact binary
// value, like glibc printf), prints inf/-inf/nan/-nan as printf does, and ignores the C locale,
// so a program that calls setlocale() still writes '.' decimal points.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "report/writers.hpp"
#include "vq/report.hpp"

namespace vq {

namespace {

std::string to_chars_string(double value, std::chars_format format, int precision) {
    // Fixed notation of the largest double needs 309 integer digits; add the precision, a sign
    // and a point, and (general notation) an exponent.
    std::string text(340 + static_cast<std::size_t>(std::max(precision, 0)), '\0');
    const auto result =
        std::to_chars(text.data(), text.data() + text.size(), value, format, precision);
    text.resize(static_cast<std::size_t>(result.ptr - text.data()));
    return text;
}

// libvmaf's choice between %.6f and %.16f: count how many times the fractional part must be
// multiplied by 10 to reach 1. The loop is kept literal because its rounding, not log10,
// decides borderline values.
int libvmaf_fraction_digits(double value) {
    const double a = std::fabs(value);
    // The reference truncates to int; for |x| >= 2^31, inf and nan x86 yields INT_MIN, which
    // leaves a fractional part >= 1 (or nan), so the loop never runs.
    if (!(a < 2147483648.0)) return 6;
    double fraction = a - static_cast<double>(static_cast<int>(a));
    int leading = 0;
    while (fraction < 1.0 && fraction != 0) {
        fraction *= 10;
        ++leading;
    }
    return leading <= 6 ? 6 : 16;
}

}  // namespace

std::string format_number(double value, const NumberStyle& style) {
    if (style.kind == NumberStyle::Kind::significant_digits)
        return to_chars_string(value, std::chars_format::general, style.digits);
    return to_chars_string(value, std::chars_format::fixed, libvmaf_fraction_digits(value));
}

namespace report {

std::string format_fps(double fps) { return to_chars_string(fps, std::chars_format::fixed, 2); }

}  // namespace report

}  // namespace vq
