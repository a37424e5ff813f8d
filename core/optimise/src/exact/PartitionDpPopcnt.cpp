// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The dynamic programming of PartitionDp.h compiled with the POPCNT
// instruction (core/CMakeLists.txt adds -mpopcnt to this file on x86-64);
// S1InstanceBound.cpp calls it when the CPU has the instruction.
#include "PartitionDp.h"

namespace convoffload {

#if defined(__x86_64__)
PartitionBoundOutcome partitionBoundPopcnt(const S1Instance &instance, const PartitionBoundLimits &limits)
{
    return runPartitionDp(instance, limits);
}
#endif

} // namespace convoffload
