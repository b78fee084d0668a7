// The library's write access to what a ScoreTable says about its run (receipts, backends, speed,
// picture size): users read it through the table's accessors and cannot change it. The session
// fills it; tests use it to build tables for the writers.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "vq/scores.hpp"

namespace vq::detail {

struct ScoreTableFiller {
    static void set_receipts(ScoreTable& table, std::vector<FeatureReceipt> receipts) {
        table.receipts_ = std::move(receipts);
    }
    static std::vector<FeatureReceipt>& receipts(ScoreTable& table) { return table.receipts_; }
    static void set_backend_used(ScoreTable& table, std::string backends) {
        table.backend_used_ = std::move(backends);
    }
    static void set_fps(ScoreTable& table, double fps) { table.fps_ = fps; }
    static void set_decoders(ScoreTable& table,
                             std::vector<std::pair<std::string, std::string>> decoders) {
        table.decoders_ = std::move(decoders);
    }
    static void set_size(ScoreTable& table, int width, int height) {
        table.width_ = width;
        table.height_ = height;
    }
};

}  // namespace vq::detail
