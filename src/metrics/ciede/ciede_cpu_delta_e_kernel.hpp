// The CPU twin's ΔE00 kernel: a row of colour pairs, a vector of lanes at a time, stage by stage.
//
// Each stage repeats, lane by lane, exactly the reference's float and double operations of
// spec/ciede.md §4.6 (the rows named), in the order written in ciede_math.hpp; only the libm
// calls are replaced by the certified approximations of ciede_cpu_fast_math.hpp. When a lane's
// rounding is not certain, the stage recomputes that whole vector of lanes with the scalar
// functions of ciede_math.hpp.
//
// Stages run over the whole row rather than pixel by pixel: a pixel's ΔE00 is one long chain of
// dependent operations, and short loops of independent iterations let the core overlap pixels.
//
// INCLUDED ONCE PER INSTRUCTION SET after ciede_cpu_fast_math.hpp, inside the same namespace.

// Rows 3-6: C1, C2 and a1', a2'. C̄^7 as a product of the float C̄ (its square is exact in
// double, then two roundings) is within 1e-15 relative of the reference's pow(C̄, 7).
inline void compensate_chroma(DeltaEScratch& s, int n) {
    for (int i = 0; i < n; i += lanes) {
        const Fv a1 = load(&s.a1[i]), a2 = load(&s.a2[i]);
        const Fv b1 = load(&s.b1[i]), b2 = load(&s.b2[i]);
        const Fv c1 = narrow(sqrt(widen(a1) * widen(a1) + widen(b1) * widen(b1)));
        const Fv c2 = narrow(sqrt(widen(a2) * widen(a2) + widen(b2) * widen(b2)));
        const Dv mean = widen((c1 + c2) / 2.0f);
        const Dv square = mean * mean;
        const Dv c7 = (square * square) * square * mean;
        const Dv g = 1.0 - sqrt(c7 / (c7 + pow25_7));
        const Dv x1 = widen(a1) + widen(a1 / 2.0f) * g;
        const Dv x2 = widen(a2) + widen(a2 / 2.0f) * g;
        Fv a1p = narrow(x1), a2p = narrow(x2);
        if (!all(rounds_certainly(x1, a1p) & rounds_certainly(x2, a2p)))
            for (int k = 0; k < lanes; ++k) {
                const double exact_g = chroma_compensation((c1[k] + c2[k]) / 2.0f);
                a1p[k] = compensated_a(a1[k], exact_g);
                a2p[k] = compensated_a(a2[k], exact_g);
            }
        store(&s.c1[i], c1);
        store(&s.c2[i], c2);
        store(&s.a1p[i], a1p);
        store(&s.a2p[i], a2p);
    }
}

// Row 12 for a vector of lanes; `certain` marks the lanes whose arc tangent rounded certainly.
VQ_KERNEL_INLINE Fv approximate_hue_angle(Fv b, Fv a_prime, Lv& certain) {
    const Dv angle = atan2(widen(b), widen(a_prime));
    Fv h = narrow(angle);
    certain = rounds_certainly(angle, h);
    h = h < 0.0f ? narrow(widen(h) + 2.0 * pi) : h;
    const Iv achromatic = (b == 0.0f) & (a_prime == 0.0f);
    certain |= widen_mask(achromatic);
    return achromatic ? Fv{} : h;
}

// Rows 7, 8 and 12: C1', C2', C̄' and the hue angles.
inline void hue_angles(DeltaEScratch& s, int n) {
    for (int i = 0; i < n; i += lanes) {
        const Fv a1p = load(&s.a1p[i]), a2p = load(&s.a2p[i]);
        const Fv b1 = load(&s.b1[i]), b2 = load(&s.b2[i]);
        const Fv c1p = narrow(sqrt(widen(a1p) * widen(a1p) + widen(b1) * widen(b1)));
        const Fv c2p = narrow(sqrt(widen(a2p) * widen(a2p) + widen(b2) * widen(b2)));
        Lv certain1, certain2;
        Fv h1 = approximate_hue_angle(b1, a1p, certain1);
        Fv h2 = approximate_hue_angle(b2, a2p, certain2);
        if (!all(certain1 & certain2))
            for (int k = 0; k < lanes; ++k) {
                h1[k] = hue_angle(b1[k], a1p[k]);
                h2[k] = hue_angle(b2[k], a2p[k]);
            }
        store(&s.c1p[i], c1p);
        store(&s.c2p[i], c2p);
        store(&s.mean_cp[i], (c1p + c2p) / 2.0f);
        store(&s.h1[i], h1);
        store(&s.h2[i], h2);
    }
}

// Row 16 from one sine/cosine pair and the multiple-angle formulas.
VQ_KERNEL_INLINE Dv approximate_hue_weighting(Dv mean_hue_angle) {
    constexpr double cos_pi_6 = 0.8660254037844386, sin_pi_6 = 0.5;
    constexpr double cos_pi_30 = 0.9945218953682733, sin_pi_30 = 0.10452846326765346;
    constexpr double cos_7pi_20 = 0.4539904997395468, sin_7pi_20 = 0.8910065241883678;
    const SinCos one = sin_cos(mean_hue_angle);
    const Dv c2 = 2.0 * one.cos * one.cos - 1.0, s2 = 2.0 * one.sin * one.cos;
    const Dv c3 = one.cos * (4.0 * one.cos * one.cos - 3.0);
    const Dv s3 = one.sin * (3.0 - 4.0 * one.sin * one.sin);
    const Dv c4 = 2.0 * c2 * c2 - 1.0, s4 = 2.0 * s2 * c2;
    return 1.0 - 0.17 * (one.cos * cos_pi_6 + one.sin * sin_pi_6) + 0.24 * c2 +
           0.32 * (c3 * cos_pi_30 - s3 * sin_pi_30) - 0.20 * (c4 * cos_7pi_20 + s4 * sin_7pi_20);
}

// Rows 13-16: Δh', ΔH', H̄' and T.
inline void hue_terms(DeltaEScratch& s, int n) {
    for (int i = 0; i < n; i += lanes) {
        const Fv h1 = load(&s.h1[i]), h2 = load(&s.h2[i]);
        // Row 13 (ciede_math.hpp hue_difference).
        const Fv delta = h2 - h1;
        const Fv wrapped =
            h2 <= h1 ? narrow(widen(delta) + 2.0 * pi) : narrow(widen(delta) - 2.0 * pi);
        const Fv difference = narrow_mask(widen(abs(h1 - h2)) <= pi) ? delta : wrapped;
        const Fv delta_h =
            ((load(&s.c1[i]) == 0.0f) | (load(&s.c2[i]) == 0.0f)) ? Fv{} : difference;
        // Row 14.
        const Fv c1p = load(&s.c1p[i]), c2p = load(&s.c2p[i]);
        const Dv root = 2.0 * sqrt(widen(c1p * c2p));
        const Dv rotated = root * sin_small(widen(delta_h) / 2.0);
        Fv delta_hp = narrow(rotated);
        // Row 15 (ciede_math.hpp mean_hue).
        const Fv sum = h1 + h2;
        const Fv mean_h = narrow_mask(abs(widen(h1 - h2)) > pi)
                              ? narrow((widen(sum) + 2.0 * pi) / 2.0)
                              : narrow(widen(sum) / 2.0);
        // Row 16; its cosine terms sum to at most 1.93 in magnitude: the margin is taken on 2.
        const Dv weighting = approximate_hue_weighting(widen(mean_h));
        Fv t = narrow(weighting);
        const Lv certain = rounds_certainly(rotated, delta_hp) &
                           rounds_certainly(weighting, t, Dv{} + 2.0 * certainty_margin);
        if (!all(certain))
            for (int k = 0; k < lanes; ++k) {
                delta_hp[k] = rotated_hue_difference(c1p[k], c2p[k], delta_h[k]);
                t[k] = hue_weighting(mean_h[k]);
            }
        store(&s.delta_hp[i], delta_hp);
        store(&s.mean_h[i], mean_h);
        store(&s.t[i], t);
    }
}

// Row 18. C̄'^7 is glibc_powf_7 (ciede_math.hpp), glibc's powf(C̄', 7) bit for bit, the function
// the CUDA twin calls too; in a loop of its own, because vector registers do not survive the
// fma calls it makes on processors whose baseline instruction set lacks FMA.
inline void rotation_terms(DeltaEScratch& s, int n) {
    for (int i = 0; i < n; ++i) s.mean_cp_7[i] = glibc_powf_7(s.mean_cp[i]);
    for (int i = 0; i < n; i += lanes) {
        const Fv mean_h = load(&s.mean_h[i]), mean_cp = load(&s.mean_cp[i]);
        const Fv degrees = narrow(widen(mean_h) * (180.0 / pi));
        const Fv x = narrow((widen(degrees) - 275.0) * (1.0 / 25.0));
        const Fv p = load(&s.mean_cp_7[i]);
        const Fv ratio = p / (p + pow25_7_single);
        const Dv scaled_exp = 60.0 * exp(widen(-(x * x)));
        const Fv angle = narrow(scaled_exp);
        const Fv radians = narrow(widen(angle) * (pi / 180.0));
        const Dv rotation = -2.0 * sqrt(widen(ratio)) * sin_small(widen(radians));
        Fv r_t = narrow(rotation);
        const Lv certain = rounds_certainly(scaled_exp, angle) & rounds_certainly(rotation, r_t);
        if (!all(certain))
            for (int k = 0; k < lanes; ++k) r_t[k] = rotation_term(mean_h[k], mean_cp[k]);
        store(&s.r_t[i], r_t);
    }
}

// Rows 1, 2, 9-11, 17, 19 and 20: the weighting functions and ΔE00 itself (exact operations).
inline void combine(DeltaEScratch& s, int n) {
    for (int i = 0; i < n; i += lanes) {
        const Fv L1 = load(&s.L1[i]), L2 = load(&s.L2[i]);
        const Fv mean_cp = load(&s.mean_cp[i]);
        const Fv d = (L1 + L2) / 2.0f - 50.0f;
        const Dv d2 = widen(d) * widen(d);
        const Fv s_l = narrow(1.0 + 0.015 * d2 / sqrt(20.0 + d2));
        const Fv s_c = narrow(1.0 + 0.045 * widen(mean_cp));
        const Fv s_h = narrow(1.0 + (0.015 * widen(mean_cp)) * widen(load(&s.t[i])));
        const Fv l = (L2 - L1) / (weight_lightness * s_l);
        const Fv c = (load(&s.c2p[i]) - load(&s.c1p[i])) / (weight_chroma * s_c);
        const Fv h = load(&s.delta_hp[i]) / (weight_hue * s_h);
        const Fv q = (load(&s.r_t[i]) * c) * h;
        store(&s.delta_e[i], narrow(sqrt(widen(l) * widen(l) + widen(c) * widen(c) +
                                         widen(h) * widen(h) + widen(q))));
    }
}

// s.delta_e[i] = delta_e_2000(colour 1, colour 2) for i < count.
inline void delta_e_kernel(DeltaEScratch& s, int count) {
    const int n = padded_size(count);
    compensate_chroma(s, n);
    hue_angles(s, n);
    hue_terms(s, n);
    rotation_terms(s, n);
    combine(s, n);
}
