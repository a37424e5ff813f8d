// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the simulate library: per output, whether it holds a value and
// whether that value came from exact operands (ChipMemory's bookkeeping, on
// chip and in DRAM), as two bits in 64-bit words: a quarter of a byte per
// output, runs set a word at a time.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace convoffload::detail {

class OutputStates {
public:
    enum State : std::uint8_t { None, Inexact, Exact };

    OutputStates() = default;
    explicit OutputStates(std::size_t size)
        : m_size(size)
        , m_held((size + 63) / 64, 0)
        , m_exact((size + 63) / 64, 0)
    {
    }

    std::size_t size() const { return m_size; }
    State get(std::size_t i) const
    {
        if (!(m_exact[i / 64] >> (i % 64) & 1))
            return m_held[i / 64] >> (i % 64) & 1 ? Inexact : None;
        return Exact;
    }
    void set(std::size_t i, State s)
    {
        const std::uint64_t bit = std::uint64_t(1) << (i % 64);
        m_held[i / 64] = s != None ? m_held[i / 64] | bit : m_held[i / 64] & ~bit;
        m_exact[i / 64] = s == Exact ? m_exact[i / 64] | bit : m_exact[i / 64] & ~bit;
    }
    /// Outputs first .. first + count - 1 are Exact: a word at a time, masks
    /// at both ends.
    void setExact(std::size_t first, std::size_t count)
    {
        if (count == 0)
            return;
        const std::size_t last = first + count - 1, w0 = first / 64, w1 = last / 64;
        const auto bits = [](std::size_t from, std::size_t to) { // bits from .. to of a word
            const std::uint64_t upTo = to == 63 ? ~std::uint64_t(0) : (std::uint64_t(1) << (to + 1)) - 1;
            return upTo & ~((std::uint64_t(1) << from) - 1);
        };
        const auto setBits = [&](std::size_t w, std::uint64_t mask) {
            m_held[w] |= mask;
            m_exact[w] |= mask;
        };
        if (w0 == w1) {
            setBits(w0, bits(first % 64, last % 64));
            return;
        }
        setBits(w0, bits(first % 64, 63));
        for (std::size_t w = w0 + 1; w < w1; ++w)
            setBits(w, ~std::uint64_t(0));
        setBits(w1, bits(0, last % 64));
    }
    bool allExact() const
    {
        const std::size_t full = m_size / 64;
        for (std::size_t w = 0; w < full; ++w)
            if (m_exact[w] != ~std::uint64_t(0))
                return false;
        const std::size_t rest = m_size % 64;
        return rest == 0 || m_exact[full] == (std::uint64_t(1) << rest) - 1;
    }

private:
    std::size_t m_size = 0;
    std::vector<std::uint64_t> m_held, m_exact; // bit i % 64 of word i / 64
};

} // namespace convoffload::detail
