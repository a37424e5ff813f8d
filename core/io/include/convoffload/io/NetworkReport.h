// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `convoffload-cli network` prints (docs/reference/network-file.md): per layer its shape,
// whether its kernels fit, the best strategy with its figures, validity and
// broken assumptions; the skipped convolutions; the total and the layers that
// dominate it. JSON, CSV (one row per layer) or text.
#include "convoffload/simulate/NetworkAnalysis.h"

#include <nlohmann/json.hpp>

#include <string>

namespace convoffload {

nlohmann::ordered_json networkToReportJson(const NetworkAnalysis &analysis);
std::string networkToReportCsv(const NetworkAnalysis &analysis);
std::string networkToReportText(const NetworkAnalysis &analysis);

} // namespace convoffload
