// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The strategy comparison as small multiples: one panel per quantity (total
// duration, loaded input, peak footprint), each with its own scale, the
// strategies in one shared order down the left, values printed at the bars'
// ends. The best valid strategy (shortest duration) is starred and bold,
// each panel's smallest valid value bold; invalid strategies are faded and
// marked "✗ invalid", those that could not be expanded "✗ failed".
//
// Drawn with a QPainter at any size (the Compare tab, PNG/SVG/PDF export): no
// text is ever elided. Names and headings wrap; the panels sit side by side
// when the width allows, one above the other otherwise. texts() gives every
// text with the rectangle it is drawn in, so tests can check that each fits.

#include "charts/TextPlacer.h"

#include "convoffload/simulate/Comparison.h"

#include <QFont>
#include <QRectF>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace convoffload::ui {

class ComparisonPlot {
public:
    explicit ComparisonPlot(std::vector<CompareRow> rows);

    const std::vector<CompareRow> &rows() const { return m_rows; }
    /// One line: "Strategies compared: best NAME (N cycles)".
    QString title() const;
    /// Whether paint() draws the two title lines (figures for a paper leave
    /// them to the caption; the star still marks the best).
    void setTitleShown(bool shown) { m_titleShown = shown; }

    /// Draws into `rect`; every size derives from `font` (the widget's font
    /// on screen, the preset's in export).
    void paint(QPainter &painter, const QRectF &rect, const QFont &font) const;
    /// What paint() draws as text, laid out at `rect`.
    std::vector<PlacedText> texts(const QRectF &rect, const QFont &font) const;

private:
    /// Places (and paints, with a painter) every part; the block is centred
    /// in the height when it does not fill it.
    std::vector<PlacedText> layOut(QPainter *painter, const QRectF &rect, const QFont &font) const;
    std::vector<PlacedText> layOutFrom(QPainter *painter, const QRectF &rect, const QFont &font, double offset) const;

    std::vector<CompareRow> m_rows;
    int m_best = -1;
    bool m_kernelPanel = false; // a "loaded kernels" panel: the strategies' kernel loads differ
    bool m_titleShown = true;
};

} // namespace convoffload::ui
