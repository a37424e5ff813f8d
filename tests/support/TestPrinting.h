// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Lets QCOMPARE print core values when a comparison fails (found by ADL).

#include "convoffload/model/Diagnostic.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

#include <QTest>

#include <string>
#include <vector>

namespace QTest {
template <> inline char *toString(const convoffload::FunctionalStatus &s)
{
    return qstrdup(convoffload::functionalStatusName(s).c_str());
}
template <> inline char *toString(const convoffload::Rule &r) { return qstrdup(convoffload::ruleName(r).c_str()); }
template <> inline char *toString(const convoffload::Action &a) { return qstrdup(convoffload::actionName(a).c_str()); }
template <> inline char *toString(const convoffload::Severity &s)
{
    return qstrdup(s == convoffload::Severity::Error ? "error" : "warning");
}
} // namespace QTest

namespace std {
// Vectors of ids and groups, e.g. "{0, 1, 2}" and "{{0, 1}, {2}}".
inline char *toString(const std::vector<std::uint32_t> &v)
{
    std::string s = "{";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return qstrdup((s + "}").c_str());
}
inline char *toString(const std::vector<std::vector<std::uint32_t>> &v)
{
    std::string s = "{";
    for (std::size_t i = 0; i < v.size(); ++i) {
        char *inner = toString(v[i]);
        s += (i ? ", " : "") + std::string(inner);
        delete[] inner;
    }
    return qstrdup((s + "}").c_str());
}
} // namespace std
