// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The search's pseudo-random numbers: xoshiro256** seeded through splitmix64,
// so a seed gives the same stream on every platform and standard library
// (std::uniform_*_distribution does not).
#include <cstdint>

namespace convoffload::search {

class Random {
public:
    explicit Random(std::uint64_t seed)
    {
        for (std::uint64_t &word : m_state) {
            seed += 0x9E3779B97F4A7C15ull;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            word = z ^ (z >> 31);
        }
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_state[1] * 5, 7) * 9;
        const std::uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotl(m_state[3], 45);
        return result;
    }

    /// Uniform in [0, n), n > 0 (the modulo bias is below 2^-40 for the
    /// ranges used here).
    int below(int n) { return int(next() % std::uint64_t(n)); }
    /// Uniform in [0, 1).
    double unit() { return double(next() >> 11) * 0x1.0p-53; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_state[4];
};

} // namespace convoffload::search
