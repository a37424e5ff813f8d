// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "convoffload/optimise/IlpModel.h"

#include <string>

namespace convoffload {

// LP and MPS files with readable names, written by CoinUtils (IlpFiles.cpp).
// Both are read by the cbc command line (`cbc model.lp solve solu out.txt`).
// The writers replace the file atomically; they throw FormatError naming the
// path when it cannot be written, IlpError when CoinUtils fails.
std::string lpText(const IlpModel &model);
std::string mpsText(const IlpModel &model);
void writeLp(const IlpModel &model, const std::string &path);
void writeMps(const IlpModel &model, const std::string &path);
/// The MPS file written by CoinMpsIO straight to `path`, with no temporary
/// file and no atomic replace: for a file in a private directory that is
/// read once and removed with it (the CBC worker's model). Throws IlpError.
void writeMpsInPlace(const IlpModel &model, const std::string &path);

} // namespace convoffload
