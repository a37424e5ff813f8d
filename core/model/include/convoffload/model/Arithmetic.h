// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Integer arithmetic that cannot overflow, for sizes that come from files:
// a user may write any 64-bit number, and none of them may wrap.
#include <cstdint>

namespace convoffload {

/// ceil(a / b) for a >= 0 and b > 0, with no intermediate a + b - 1.
constexpr std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

} // namespace convoffload
