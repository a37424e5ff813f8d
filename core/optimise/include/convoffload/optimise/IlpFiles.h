#pragma once
#include "convoffload/optimise/IlpModel.h"

#include <string>

namespace convoffload {

// LP and MPS files with readable names, written by CoinUtils (IlpFiles.cpp).
// Both are read by the cbc command line (`cbc model.lp solve solu out.txt`).
// Throw IlpError naming the path on failure.
std::string lpText(const IlpModel &model);
void writeLp(const IlpModel &model, const std::string &path);
void writeMps(const IlpModel &model, const std::string &path);

} // namespace convoffload
