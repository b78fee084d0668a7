// Writing a ScoreTable in libvmaf's output formats (spec/cli-and-output.md §11), key for key as
// libvmaf writes them, plus vq's receipt (which backend computed each feature) in JSON.
#pragma once

#include <ostream>
#include <string>

#include "vq/pooling.hpp"
#include "vq/scores.hpp"

namespace vq {

enum class OutputFormat { xml, json, csv, sub };

// How numbers are printed. libvmaf's rule by default (%.6f, or %.16f when the fractional part
// has more than six leading zeros); `digits` > 0 prints %.<digits>g; max_precision prints %.17g.
struct NumberStyle {
    enum class Kind { libvmaf, significant_digits } kind = Kind::libvmaf;
    int digits = 17;
    static NumberStyle libvmaf_default() { return {}; }
    static NumberStyle significant(int n) { return {Kind::significant_digits, n}; }
};

// Formats one finite or non-finite number as the text formats (XML, CSV, SUB) print it.
std::string format_number(double value, const NumberStyle& style);

struct ReportInfo {
    std::string version;   // written as "version"
    ExtraPooling pooling;  // --pool and --shots; empty: the outputs are exactly libvmaf's
};

// Writes the whole report. JSON adds "backend_used" and "feature_backends" (vq's receipt).
// With info.pooling, every format carries the percentiles and the shots' pooled values (README:
// --pool, --shots).
void write_report(std::ostream& out, const ScoreTable& table, OutputFormat format,
                  const NumberStyle& style, const ReportInfo& info);

}  // namespace vq
