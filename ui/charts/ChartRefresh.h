// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Updates a chart on screen with the data of a freshly built one of the same
// shape, instead of handing the view a new chart: the view keeps its scene
// items, legend and layout, and only points, bar values, axis ranges and
// labels, names and titles change (QXYSeries::replace, QBarSet::replace).
// After a hand edit the step charts keep their shape, so an edit costs a
// data update rather than a rebuild.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Copies `fresh`'s data into `shown` when both have the same series (same
/// types, in order, the same number of bar sets) and axes (same types, in
/// order); returns false, changing nothing, when they differ. `fresh` is only
/// read (Qt Charts' getters are not all const); the caller still owns it.
bool refreshChart(QChart *shown, QChart *fresh);

} // namespace convoffload::ui
