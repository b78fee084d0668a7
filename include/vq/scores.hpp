// Scores of a run: per-frame values per output name, whole-run aggregates, and pooling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vq {

enum class PoolingMethod { min, max, mean, harmonic_mean };
inline constexpr PoolingMethod all_pooling_methods[] = {
    PoolingMethod::min, PoolingMethod::max, PoolingMethod::mean, PoolingMethod::harmonic_mean};
const char* to_string(PoolingMethod method);

// A count a feature reports about its whole run, e.g. the CUDA CAMBI's frames whose score may
// differ from the reference's in the last digits. `message` is for the log, where the count is
// worth a line (non-zero); empty: the count is only recorded.
struct ReceiptNote {
    std::string name;  // e.g. "order_dependent_frames"
    std::uint64_t count = 0;
    std::string message;
};

// Which backend computed a feature: the receipt written beside the scores.
struct FeatureReceipt {
    std::string feature;                  // user-facing feature name, e.g. "cambi"
    std::string backend;                  // "cpu" or "cuda"
    std::vector<std::string> outputs;     // the output names it wrote
    std::vector<ReceiptNote> notes = {};  // filled when the run finishes
};

// Whether `name` can be written as it is in every output format: an XML attribute name, a JSON
// key and a CSV header cell without quoting. Letters, digits, '_', '.' and '-', not starting with
// a digit, '.' or '-', at most 256 bytes.
bool is_report_name(std::string_view name);

namespace detail {
struct ScoreTableFiller;  // the library's write access to a table's run description (src/core)
}  // namespace detail

class ScoreTable {
public:
    // Adds an output column (if new) and returns its index. Columns keep their first-added order.
    // Throws vq::Error (usage) for a name that is not is_report_name().
    std::size_t add_column(const std::string& name);
    void set(std::size_t column, std::size_t frame, double value);
    // Throws vq::Error (usage) for a name that is not is_report_name().
    void add_aggregate(const std::string& name, double value);

    std::size_t column_count() const { return columns_.size(); }
    const std::string& name(std::size_t column) const { return columns_[column].name; }
    std::optional<std::size_t> find(const std::string& name) const;
    std::optional<double> value(std::size_t column, std::size_t frame) const;
    const std::vector<std::pair<std::string, double>>& aggregates() const { return aggregates_; }

    std::size_t frame_count() const { return frame_count_; }
    void set_frame_count(std::size_t count) { frame_count_ = count; }
    // Only frames whose index is a multiple of subsample are printed and pooled (libvmaf rule).
    std::size_t subsample() const { return subsample_; }
    void set_subsample(std::size_t n) { subsample_ = n == 0 ? 1 : n; }
    bool frame_selected(std::size_t frame) const { return frame % subsample_ == 0; }

    // Pooled value over the selected frames; empty if any selected frame lacks a value (the
    // reference omits such a pooling) or no frame is selected.
    std::optional<double> pooled(std::size_t column, PoolingMethod method) const;
    // The same over the selected frames of [first, end) only (one shot of a --shots run).
    std::optional<double> pooled(std::size_t column, PoolingMethod method, std::size_t first,
                                 std::size_t end) const;

    // How the run went, written by the library beside the scores and read-only to its users:
    // one receipt per feature in request order, the backends used in the order they first appear
    // ("cpu", "cuda" or "cuda+cpu"), frames scored per second, and the pictures' size.
    const std::vector<FeatureReceipt>& receipts() const { return receipts_; }
    const std::string& backend_used() const { return backend_used_; }
    double fps() const { return fps_; }
    int width() const { return width_; }
    int height() const { return height_; }
    // Which decoder read each container input (--hwdec): {"distorted", "hevc via NVDEC (cuda)"},
    // {"reference", "h264 (CPU, the backend is cpu)"}; empty for sessions fed by their caller and
    // inputs that decode nothing (Y4M, raw YUV).
    const std::vector<std::pair<std::string, std::string>>& decoders() const { return decoders_; }

private:
    friend struct detail::ScoreTableFiller;

    // A run's scores, compact because a run may be millions of frames long: 8 bytes and a bit
    // per frame and column, nothing else per frame.
    struct Column {
        std::string name;
        std::vector<double> values;  // [frame]; meaningless where `present` is false
        std::vector<bool> present;   // [frame]
    };
    std::vector<Column> columns_;
    std::vector<std::pair<std::string, double>> aggregates_;
    std::size_t frame_count_ = 0;
    std::size_t subsample_ = 1;
    std::vector<FeatureReceipt> receipts_;
    std::string backend_used_;
    std::vector<std::pair<std::string, std::string>> decoders_;
    double fps_ = 0;
    int width_ = 0;
    int height_ = 0;
};

}  // namespace vq
