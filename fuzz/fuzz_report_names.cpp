// libFuzzer target for the names the writers print: a score or aggregate name is either refused
// (vq::Error) or written so that JSON parses and the XML and CSV need no escaping. The input is
// split at NUL bytes into names. Each table is written plain and with --pool/--shots pooling.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "vq/error.hpp"
#include "vq/pooling.hpp"
#include "vq/report.hpp"
#include "vq/scores.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    vq::ScoreTable table;
    std::size_t start = 0;
    for (std::size_t k = 0; start <= text.size() && k < 8; ++k) {
        const std::size_t end = std::min(text.find('\0', start), text.size());
        const std::string name(text.substr(start, end - start));
        start = end + 1;
        try {
            if (k % 3 == 2) {
                table.add_aggregate(name, 1.5);
            } else {
                // As a session does: every column holds frame 0 (the JSON frames array starts
                // with it), later frames may lack a value.
                const std::size_t column = table.add_column(name);
                table.set(column, 0, 0.25);
                if (k % 2) table.set(column, 1, -1.0);
            }
        } catch (const vq::Error&) {
            continue;  // refused: nothing written
        }
        if (name.find_first_of("\"<>&',\\ \n\r\t") != std::string::npos) __builtin_trap();
    }
    // Once as libvmaf writes it, once with --pool p5,p50 and one shot from frame 0.
    vq::PoolingRequest pooled;
    pooled.percentiles = vq::parse_pool_list("p5,p50");
    pooled.shots = vq::parse_shot_list("0\n", "fuzz-shots");
    for (const vq::ReportInfo& info :
         {vq::ReportInfo{"fuzz", {}}, vq::ReportInfo{"fuzz", vq::pool_extra(table, pooled)}}) {
        std::ostringstream json;
        vq::write_report(json, table, vq::OutputFormat::json, vq::NumberStyle::libvmaf_default(),
                         info);
        if (!nlohmann::json::accept(json.str())) __builtin_trap();
        for (const auto format :
             {vq::OutputFormat::xml, vq::OutputFormat::csv, vq::OutputFormat::sub}) {
            std::ostringstream out;
            vq::write_report(out, table, format, vq::NumberStyle::libvmaf_default(), info);
        }
    }
    return 0;
}
