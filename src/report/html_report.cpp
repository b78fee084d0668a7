#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/report_assets.hpp"

namespace vq::report {
namespace {

std::string escape_html(const std::string& text) {
    std::string escaped;
    for (const char c : text) {
        switch (c) {
        case '&': escaped += "&amp;"; break;
        case '<': escaped += "&lt;"; break;
        case '>': escaped += "&gt;"; break;
        case '"': escaped += "&quot;"; break;
        default: escaped += c;
        }
    }
    return escaped;
}

// Text inside <script> ends at the first "</": JSON and scripts get it written "<\/".
std::string script_safe(std::string text) {
    for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3))
        text.replace(at, 2, "<\\/");
    return text;
}

// A double for the page: non-finite values are gaps (null); scores keep 7 significant digits,
// far below what a chart or a reader resolves, so that a long run's page stays small.
nlohmann::json number(double value) {
    if (!std::isfinite(value)) return nullptr;
    return std::stod(fmt::format("{:.7g}", value));
}

std::optional<double> pooled_mean(const ScoreTable& table, const std::string& column) {
    const auto c = table.find(column);
    return c ? table.pooled(*c, PoolingMethod::mean) : std::nullopt;
}

// Everything the charts draw, as one JSON document.
nlohmann::json chart_data(std::span<const ReportInput> inputs) {
    nlohmann::json data;
    std::vector<std::string> scores;
    std::size_t frames = 0;
    for (const ReportInput& input : inputs) {
        const ScoreTable& table = *input.table;
        frames = std::max(frames, table.frame_count());
        nlohmann::json values = nlohmann::json::object();
        for (std::size_t c = 0; c < table.column_count(); ++c) {
            if (std::find(scores.begin(), scores.end(), table.name(c)) == scores.end())
                scores.push_back(table.name(c));
            nlohmann::json column = nlohmann::json::array();
            for (std::size_t f = 0; f < table.frame_count(); ++f) {
                const auto v = table.frame_selected(f) ? table.value(c, f) : std::nullopt;
                column.push_back(v ? number(*v) : nullptr);
            }
            values[table.name(c)] = std::move(column);
        }
        data["inputs"].push_back({{"name", input.name}, {"values", std::move(values)}});
    }
    // The first input's ranking score (a VMAF model's, where one ran) leads the chart.
    if (const auto first = ranking_column(*inputs.front().table)) {
        const std::string lead = inputs.front().table->name(*first);
        std::stable_partition(scores.begin(), scores.end(),
                              [&](const std::string& s) { return s == lead; });
    }
    data["scores"] = scores;
    data["frames"] = frames;

    // The rate-quality chart: every input with a bitrate and a pooled mean of the lead score.
    const std::string lead = scores.empty() ? std::string() : scores.front();
    std::vector<std::pair<double, double>> points;
    std::vector<const ReportInput*> charted;
    for (const ReportInput& input : inputs) {
        const auto quality = pooled_mean(*input.table, lead);
        if (!input.bitrate || !quality || !std::isfinite(*quality)) continue;
        points.emplace_back(input.bitrate->bits_per_second / 1000.0, *quality);
        charted.push_back(&input);
    }
    if (inputs.size() > 1 && points.size() > 1) {
        std::vector<std::size_t> order(points.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return points[a].first < points[b].first;
        });
        const std::vector<std::size_t> hull = upper_convex_hull(points);
        nlohmann::json rate = {{"score", lead}};
        for (const std::size_t i : order) {
            const bool on_hull = std::find(hull.begin(), hull.end(), i) != hull.end();
            rate["kbps"].push_back(number(points[i].first));
            rate["quality"].push_back(number(points[i].second));
            rate["hull"].push_back(on_hull ? number(points[i].second) : nullptr);
            rate["names"].push_back(charted[i]->name);
            rate["sources"].push_back(charted[i]->bitrate->source);
        }
        data["rate"] = std::move(rate);
    }
    return data;
}

void write_pooled_table(std::ostream& out, std::span<const ReportInput> inputs) {
    std::vector<std::string> methods;
    for (const PoolingMethod m : all_pooling_methods) methods.push_back(to_string(m));
    for (const std::string& p : inputs.front().pooling.percentile_names) methods.push_back(p);
    out << "<table class=\"pooled\"><thead><tr><th>input</th><th>score</th>";
    for (const std::string& m : methods) out << "<th>" << escape_html(m) << "</th>";
    out << "</tr></thead><tbody>\n";
    for (const ReportInput& input : inputs) {
        const ScoreTable& table = *input.table;
        for (std::size_t c = 0; c < table.column_count(); ++c) {
            const PoolSet set = full_pool_set(table, c, input.pooling);
            out << "<tr><td>" << escape_html(input.name) << "</td><td>"
                << escape_html(table.name(c)) << "</td>";
            for (const std::string& m : methods) {
                const auto found = std::find_if(
                    set.begin(), set.end(), [&](const PooledValue& v) { return v.method == m; });
                out << "<td>" << (found == set.end() ? "-" : fmt::format("{:.6g}", found->value))
                    << "</td>";
            }
            out << "</tr>\n";
        }
    }
    out << "</tbody></table>\n";
}

// The rate chart's points as a table: each input's bitrate with where it came from (the
// container's figure for the video stream or the whole file, or the file size over the duration).
void write_rate_table(std::ostream& out, const nlohmann::json& rate) {
    out << "<table class=\"pooled rate\"><thead><tr><th>input</th><th>kbit/s</th>"
        << "<th>bitrate from</th><th>pooled mean " << escape_html(rate["score"].get<std::string>())
        << "</th><th>on the hull</th></tr></thead><tbody>\n";
    for (std::size_t i = 0; i < rate["names"].size(); ++i)
        out << "<tr><td>" << escape_html(rate["names"][i].get<std::string>()) << "</td><td>"
            << fmt::format("{:.6g}", rate["kbps"][i].get<double>()) << "</td><td>"
            << escape_html(rate["sources"][i].get<std::string>()) << "</td><td>"
            << fmt::format("{:.6g}", rate["quality"][i].get<double>()) << "</td><td>"
            << (rate["hull"][i].is_null() ? "" : "yes") << "</td></tr>\n";
    out << "</tbody></table>\n";
}

void write_worst_frames(std::ostream& out, std::span<const ReportInput> inputs) {
    for (const ReportInput& input : inputs) {
        const ScoreTable& table = *input.table;
        const auto column = ranking_column(table);
        out << "<h3>" << escape_html(input.name);
        if (column) out << " <small>(ranked by " << escape_html(table.name(*column)) << ")</small>";
        out << "</h3>\n";
        if (input.worst.empty()) {
            out << "<p class=\"note\">"
                << escape_html(input.thumbnail_note.empty() ? "no frames" : input.thumbnail_note)
                << "</p>\n";
            continue;
        }
        out << "<div class=\"worst\">\n";
        for (const FrameThumbnails& t : input.worst) {
            const auto value = column ? table.value(*column, t.frame) : std::nullopt;
            out << "<figure>";
            if (!t.reference_png.empty())
                out << "<img alt=\"reference\" src=\"data:image/png;base64,"
                    << base64(t.reference_png) << "\">";
            out << "<img alt=\"distorted\" src=\"data:image/png;base64," << base64(t.distorted_png)
                << "\">";
            if (!t.banding_png.empty())
                out << "<img alt=\"CAMBI banding\" class=\"banding\" src=\"data:image/png;base64,"
                    << base64(t.banding_png) << "\">";
            out << "<figcaption>frame " << t.frame;
            if (value) out << ": " << fmt::format("{:.6g}", *value);
            out << (t.reference_png.empty() ? " (distorted" : " (reference | distorted")
                << (t.banding_png.empty() ? ")" : " | CAMBI banding: dark none, light strong)")
                << "</figcaption></figure>\n";
        }
        out << "</div>\n";
    }
}

// The page's own script: it hands the data to uPlot and wires the score selector. It draws
// nothing itself. data-status on <body> says "ok" once every chart is made, or the error.
constexpr const char* page_script = R"JS(
(function () {
  const body = document.body;
  window.addEventListener('error', e => { body.dataset.status = 'error: ' + e.message; });
  const start = performance.now();
  const data = JSON.parse(document.getElementById('vq-data').textContent);
  const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
                   '#7f7f7f', '#bcbd22', '#17becf'];
  const width = () => Math.max(480, document.getElementById('content').clientWidth - 20);
  const frames = Array.from({length: data.frames}, (_, i) => i);
  const columnsFor = score => [frames].concat(data.inputs.map(input =>
      input.values[score] || frames.map(() => null)));
  const select = document.getElementById('score');
  for (const score of data.scores) select.add(new Option(score, score));
  const framePlot = new uPlot({
    width: width(), height: 380,
    scales: {x: {time: false}},
    axes: [{label: 'frame'}, {size: 60}],
    cursor: {drag: {x: true, y: false}},
    series: [{label: 'frame'}].concat(data.inputs.map((input, i) => ({
      label: input.name, stroke: palette[i % palette.length], width: 1, spanGaps: true})))
  }, columnsFor(select.value), document.getElementById('frames'));
  select.addEventListener('change', () => framePlot.setData(columnsFor(select.value)));
  const plots = [framePlot];
  if (data.rate) {
    const rate = data.rate;
    plots.push(new uPlot({
      width: width(), height: 380,
      scales: {x: {time: false}},
      axes: [{label: 'kbit/s'}, {label: 'pooled mean ' + rate.score, size: 60}],
      series: [{label: 'kbit/s'},
               {label: 'encodes', stroke: '#1f77b4', paths: () => null,
                points: {show: true, size: 9, fill: '#1f77b4'}},
               {label: 'upper convex hull', stroke: '#d62728', width: 2, spanGaps: true,
                points: {show: true, size: 5}}]
    }, [rate.kbps, rate.quality, rate.hull], document.getElementById('rate')));
  }
  window.addEventListener('resize', () => plots.forEach(p => p.setSize({width: width(), height: 380})));
  body.dataset.renderMs = (performance.now() - start).toFixed(0);
  body.dataset.loadedMs = performance.now().toFixed(0);  // since navigation began
  body.dataset.status = 'ok';
})();
)JS";

constexpr const char* page_style = R"CSS(
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
#content { max-width: 1400px; margin: 0 auto; padding: 10px 20px; }
table.pooled { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.pooled td, table.pooled th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
table.pooled td:nth-child(-n+2) { text-align: left; }
.worst { display: flex; flex-wrap: wrap; gap: 12px; }
.worst figure { margin: 0; }
.worst img { display: inline-block; margin-right: 2px; }
.note { color: #888; }
)CSS";

}  // namespace

std::vector<std::size_t> upper_convex_hull(std::span<const std::pair<double, double>> points) {
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), 0);
    // By x, and for one x the highest first, so that only it can join the hull.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return points[a].first != points[b].first ? points[a].first < points[b].first
                                                  : points[a].second > points[b].second;
    });
    // Andrew's monotone chain, upper half: drop the last point while it lies on or below the
    // line from the one before it to the new point.
    const auto cross = [&](std::size_t o, std::size_t a, std::size_t b) {
        return (points[a].first - points[o].first) * (points[b].second - points[o].second) -
               (points[a].second - points[o].second) * (points[b].first - points[o].first);
    };
    std::vector<std::size_t> hull;
    for (const std::size_t i : order) {
        if (!hull.empty() && points[hull.back()].first == points[i].first) continue;
        while (hull.size() >= 2 && cross(hull[hull.size() - 2], hull.back(), i) >= 0)
            hull.pop_back();
        hull.push_back(i);
    }
    return hull;
}

void write_html_page(std::ostream& out, const std::string& reference,
                     std::span<const ReportInput> inputs) {
    out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        << "<title>vq report: " << escape_html(reference) << "</title>\n"
        << "<style>" << uplot_style() << page_style << "</style>\n</head>\n<body>\n"
        << "<div id=\"content\">\n<h1>vq report</h1>\n<p>reference: " << escape_html(reference)
        << "; " << inputs.size() << " distorted input" << (inputs.size() == 1 ? "" : "s")
        << "</p>\n";
    if (inputs.empty()) {
        out << "</div>\n</body></html>\n";
        return;
    }
    out << "<h2>Per-frame scores</h2>\n<p>score: <select id=\"score\"></select> "
        << "(drag across the chart to zoom, double-click to zoom out)</p>\n"
        << "<div id=\"frames\" class=\"chart\"></div>\n";
    const nlohmann::json data = chart_data(inputs);
    if (data.contains("rate")) {
        out << "<h2>Rate and quality</h2>\n<div id=\"rate\" class=\"chart\"></div>\n";
        write_rate_table(out, data["rate"]);
    }
    out << "<h2>Pooled scores</h2>\n";
    write_pooled_table(out, inputs);
    out << "<h2>Worst frames</h2>\n";
    write_worst_frames(out, inputs);
    out << "</div>\n<script type=\"application/json\" id=\"vq-data\">" << script_safe(data.dump())
        << "</script>\n<script>" << script_safe(std::string(uplot_script())) << "</script>\n"
        << "<script>" << page_script << "</script>\n</body></html>\n";
}

}  // namespace vq::report
