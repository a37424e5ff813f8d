// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace convoffload {

void parallelFor(std::size_t count, std::size_t threads, const std::function<void(std::size_t)> &task)
{
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex lock;
    std::exception_ptr failure;
    const auto work = [&] {
        for (std::size_t i; !failed.load() && (i = next.fetch_add(1)) < count;) {
            try {
                task(i);
            } catch (...) {
                const std::lock_guard guard(lock);
                if (!failure)
                    failure = std::current_exception();
                failed = true;
                return;
            }
        }
    };
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t used = std::min(count, threads > 0 ? threads : cores);
    std::vector<std::thread> workers;
    for (std::size_t t = 1; t < used; ++t)
        workers.emplace_back(work);
    work();
    for (std::thread &w : workers)
        w.join();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace convoffload
