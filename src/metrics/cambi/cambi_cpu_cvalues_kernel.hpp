// §10: c-values. For each masked pixel, the window counts of its value v and of v ± δ (masked
// pixels only, window clipped to the picture) give one binary32 candidate per contrast step;
// the c-value is their maximum.
//
// The counts come from sliding histograms: hist[u][j] holds, for the current row, the number of
// masked pixels of value u in the window centred on column j. Moving down one row removes the
// row that leaves the window and adds the one that enters; a pixel at column b counts for the
// window columns b-p..b+p. Only values inside the band of §10.3 are tracked, and a run of equal
// values is added as one trapezoid, so flat (banded) rows cost O(run + window), not O(run ·
// window). The c-values of a run then read contiguous counts, one vectorised pass per contrast
// step.
//
// INCLUDED ONCE PER INSTRUCTION SET through cambi_cpu_variant.hpp, inside the variant's namespace:
// deliberately no include guard. Helpers are always inlined so that each variant's copy of
// c_values is vectorised for its instruction set.

// Marks where each run of for_each_run starts: at 0, where the mask changes, and where the value
// changes between masked pixels. One pass the compiler vectorises; past the row, every byte is a
// start (the sentinel that ends the last run, and padding for next_start's word reads).
VQ_KERNEL_INLINE const std::uint8_t* run_starts(const std::uint16_t* row, const std::uint8_t* mask,
                                                int width) {
    thread_local std::vector<std::uint8_t> starts;
    starts.resize(std::max(starts.size(), std::size_t(width) + 8));
    std::uint8_t* s = starts.data();
    s[0] = 1;
    for (int b = 1; b < width; ++b) {
        const bool masked = mask[b] != 0;
        s[b] = std::uint8_t((masked != (mask[b - 1] != 0)) | (masked & (row[b] != row[b - 1])));
    }
    std::fill(s + width, s + width + 8, std::uint8_t(1));
    return s;
}

// The first start at or after `b`, eight flags at a time: a flat row costs a test per eight pixels.
VQ_KERNEL_INLINE int next_start(const std::uint8_t* starts, int b) {
    if constexpr (std::endian::native == std::endian::little) {
        for (;; b += 8) {
            std::uint64_t word;
            std::memcpy(&word, starts + b, sizeof word);
            if (word != 0) return b + std::countr_zero(word) / 8;
        }
    } else {
        while (starts[b] == 0) ++b;
        return b;
    }
}

// Calls run(value, first, last) for each maximal run of equal values among masked pixels, and
// gap(first, last) for each maximal run of unmasked ones.
template <typename Run, typename Gap>
VQ_KERNEL_INLINE void for_each_run(const std::uint16_t* row, const std::uint8_t* mask, int width,
                                   Run&& run, Gap&& gap) {
    const std::uint8_t* starts = run_starts(row, mask, width);
    for (int first = 0; first < width;) {
        const int next = next_start(starts, first + 1);
        if (mask[first])
            run(int(row[first]), first, next - 1);
        else
            gap(first, next - 1);
        first = next;
    }
}

// The table is value-major (one row of counts per value), padded by p columns on both sides so
// that every update is one contiguous span: the counts of window column j sit at index j + p.
// One extra row of zeros stands for values outside the band. Every row added is removed again
// before the table goes out of use, so it is all zero between uses and never needs clearing.
class WindowHistograms {
public:
    WindowHistograms(int width, int window, ValueBand band)
        : span_(window - 1), band_(band), stride_(std::size_t(width + span_)) {
        thread_local std::vector<std::uint16_t> storage;  // all zero, see above
        storage.resize(std::max(storage.size(), stride_ * std::size_t(band.hi - band.lo + 2)));
        counts_ = storage.data();
    }

    // Adds or removes one picture row: each run of equal masked values in the band at once.
    template <bool add>
    VQ_KERNEL_INLINE void update(const std::uint16_t* row, const std::uint8_t* mask, int width) {
        for_each_run(
            row, mask, width,
            [&](int value, int first, int last) {
                if (value >= band_.lo && value <= band_.hi) update_run<add>(value, first, last);
            },
            [](int, int) {});
    }

    // Counts of `value` in the windows centred on each column; all zero outside the band.
    VQ_KERNEL_INLINE const std::uint16_t* counts(int value) const {
        const bool inside = value >= band_.lo && value <= band_.hi;
        const std::size_t row = inside ? std::size_t(value - band_.lo) : zero_row();
        return counts_ + row * stride_ + std::size_t(span_ / 2);
    }

private:
    std::size_t zero_row() const { return std::size_t(band_.hi - band_.lo + 1); }

    // Pixels first..last of one value: at padded index first + t the window sees
    // min(t + 1, plateau, length - t) of them, a trapezoid of `length` = run + span entries.
    template <bool add>
    VQ_KERNEL_INLINE void update_run(int value, int first, int last) {
        std::uint16_t* r = counts_ + std::size_t(value - band_.lo) * stride_ + std::size_t(first);
        const int length = last - first + 1 + span_;
        const int plateau = std::min(last - first + 1, span_ + 1);
        const auto apply = [](std::uint16_t& count, int seen) {
            count = std::uint16_t(add ? count + seen : count - seen);
        };
        int t = 0;
        for (; t < plateau - 1; ++t) apply(r[t], t + 1);
        for (; t < length - plateau + 1; ++t) apply(r[t], plateau);
        for (; t < length; ++t) apply(r[t], length - t);
    }

    int span_;  // window - 1 = 2p
    ValueBand band_;
    std::size_t stride_;
    std::uint16_t* counts_;
};

// One contrast step over a run: c = max(c, W_δ·p0·q · LUT[p0 + q]), where the first step to
// pass its gate sets c instead (c starts at +0.0 and every candidate is >= +0.0, §10.1).
template <bool first_step>
VQ_KERNEL_INLINE void step_c_values(const std::uint16_t* p0, const std::uint16_t* p1,
                                    const std::uint16_t* p2, int weight, int length, float* c) {
    for (int t = 0; t < length; ++t) {
        const int q = std::max(p1[t], p2[t]);
        const float value = float(weight * p0[t] * q) * reciprocal_lut[std::size_t(p0[t] + q)];
        c[t] = first_step ? value : std::max(c[t], value);  // max: the reference's strict >
    }
}

// §10.1 for one run of masked pixels of value v at columns first..last of the current row: one
// pass per contrast step whose gate v passes, each a plain loop over contiguous counts. The row
// holds zeros on entry, which stay where no gate passes.
VQ_KERNEL_INLINE void run_c_values(const WindowHistograms& hist, int v, int first, int last,
                                   const ContrastParams& contrast, float* out) {
    const int n = contrast.num_diffs;
    const int length = last - first + 1;
    const std::uint16_t* p0 = hist.counts(v) + first;
    float* c = out + first;
    bool first_step = true;
    for (int delta = 1; delta <= n; ++delta) {
        if (v > contrast.tvi[std::size_t(delta - 1)] || v + n + delta <= contrast.vis_lum) continue;
        const std::uint16_t* p1 = hist.counts(v + delta) + first;
        const std::uint16_t* p2 = hist.counts(v - delta) + first;  // zeros when v < δ
        const int weight = contrast_weights[std::size_t(delta - 1)];
        if (first_step)
            step_c_values<true>(p0, p1, p2, weight, length, c);
        else
            step_c_values<false>(p0, p1, p2, weight, length, c);
        first_step = false;
    }
}

void c_values(const std::uint16_t* image, const std::uint8_t* mask, int width, int height,
              int window, const ContrastParams& contrast, float* out) {
    const std::size_t w = std::size_t(width);
    const ValueBand band = value_band(contrast);
    if (band.empty()) {  // §16.2: no pixel passes a gate
        std::fill(out, out + w * std::size_t(height), 0.0f);
        return;
    }
    WindowHistograms hist(width, window, band);
    const int radius = window >> 1;
    const auto row = [&](int i) { return image + std::size_t(i) * w; };
    const auto mask_row = [&](int i) { return mask + std::size_t(i) * w; };

    for (int i = 0; i < std::min(radius, height); ++i)
        hist.update<true>(row(i), mask_row(i), width);
    for (int i = 0; i < height; ++i) {
        if (i + radius < height) hist.update<true>(row(i + radius), mask_row(i + radius), width);
        if (i - radius - 1 >= 0)
            hist.update<false>(row(i - radius - 1), mask_row(i - radius - 1), width);
        // Unmasked pixels are 0: one fill of the row costs less than a call per gap, and the
        // masked runs overwrite it.
        float* c = out + std::size_t(i) * w;
        std::fill(c, c + w, 0.0f);
        for_each_run(
            row(i), mask_row(i), width,
            [&](int value, int first, int last) {
                run_c_values(hist, value, first, last, contrast, c);
            },
            [](int, int) {});
    }
    for (int i = std::max(0, height - radius - 1); i < height; ++i)  // leave the table all zero
        hist.update<false>(row(i), mask_row(i), width);
}
