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
    /// Outputs first .. first + count - 1 are Exact.
    void setExact(std::size_t first, std::size_t count)
    {
        std::size_t i = first;
        const std::size_t end = first + count;
        for (; i < end && i % 64 != 0; ++i)
            set(i, Exact);
        for (; i + 64 <= end; i += 64)
            m_held[i / 64] = m_exact[i / 64] = ~std::uint64_t(0);
        for (; i < end; ++i)
            set(i, Exact);
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
