// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Independent pieces of work (a network's layers) on a few threads.
#include <cstddef>
#include <functional>

namespace convoffload {

/// Calls task(i) once for every i < count, on `threads` threads (0: one per
/// hardware thread; never more than count), the calling thread among them;
/// each thread takes the next i until none is left. The first exception
/// stops the others at their next i and is rethrown once all have ended.
/// The task writes its result to its own slot: the outcome does not depend
/// on the number of threads.
void parallelFor(std::size_t count, std::size_t threads, const std::function<void(std::size_t)> &task);

} // namespace convoffload
