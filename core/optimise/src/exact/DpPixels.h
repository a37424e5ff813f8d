// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pixel sets of the dynamic programming of PartitionDp.h: fixed words,
// counted with the compiler's builtin. Private to the core; internal linkage,
// as PartitionDp.h (PatchMask.h says why).
#include "PatchMask.h"

#include <cstddef>
#include <cstdint>

namespace convoffload {
namespace {

/// A set of needed pixels (local indices) in W 64-bit words.
template <int W> struct Pixels {
    std::uint64_t w[W] = {};

    void set(std::size_t i) { w[i / 64] |= std::uint64_t(1) << (i % 64); }
    int count() const
    {
        int n = 0;
        for (int i = 0; i < W; ++i)
            n += bitCount(w[i]);
        return n;
    }
    bool any() const
    {
        for (int i = 0; i < W; ++i)
            if (w[i] != 0)
                return true;
        return false;
    }
    Pixels operator|(const Pixels &o) const
    {
        Pixels r;
        for (int i = 0; i < W; ++i)
            r.w[i] = w[i] | o.w[i];
        return r;
    }
    Pixels &operator|=(const Pixels &o)
    {
        for (int i = 0; i < W; ++i)
            w[i] |= o.w[i];
        return *this;
    }
    Pixels operator&(const Pixels &o) const
    {
        Pixels r;
        for (int i = 0; i < W; ++i)
            r.w[i] = w[i] & o.w[i];
        return r;
    }
    Pixels &operator&=(const Pixels &o)
    {
        for (int i = 0; i < W; ++i)
            w[i] &= o.w[i];
        return *this;
    }
    /// |this ∩ o|
    int countAnd(const Pixels &o) const
    {
        int n = 0;
        for (int i = 0; i < W; ++i)
            n += bitCount(w[i] & o.w[i]);
        return n;
    }
    /// |this \ o|
    int countMinus(const Pixels &o) const
    {
        int n = 0;
        for (int i = 0; i < W; ++i)
            n += bitCount(w[i] & ~o.w[i]);
        return n;
    }
};

} // namespace
} // namespace convoffload
