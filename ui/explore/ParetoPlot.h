// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Pareto figure of an exploration (docs/user/explore.md#the-pareto-figure):
// total duration against on-chip memory (a log2 axis with a tick at every
// size present), one series per combination of the other hardware values
// that vary in the run, points where some layer has no valid strategy drawn
// hollow and left out of the lines and the front, and the Pareto front
// (docs/reference/explore.md#pareto) as a step line with each of its points
// annotated.
//
// Drawn with a QPainter at any size, as NetworkPlot is, so the Explore
// dialog, its Save chart… and `convoffload-cli export --figure pareto` draw
// the same figure. geometry() gives every placed text, every drawn item's
// rectangle and every point's position, so tests check what is drawn where.
#include "charts/TextPlacer.h"
#include "export/Figures.h"

#include "convoffload/explore/ExploreFile.h"

#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace convoffload::ui {

/// One design point of the figure.
struct ParetoPlotPoint {
    std::int64_t point = 0; // its number in the run
    std::int64_t mem_size = 0;
    double duration = 0; // total_duration (a lower bound when not valid)
    bool valid = false; // all_valid
    int series = 0; // index of series()
    bool front = false; // on the Pareto front
    nlohmann::json hardware; // as the line holds it
};

class ParetoPlot {
public:
    /// Nothing yet (a run before its first point).
    ParetoPlot() = default;
    /// The records of one run, in any order; a point given twice is drawn
    /// once (the first). Throws FigureError for records of two runs or two
    /// point counts: they are not one figure.
    explicit ParetoPlot(const std::vector<ExploreRecord> &records);

    /// The points by point number.
    const std::vector<ParetoPlotPoint> &points() const { return m_points; }
    /// Each series' name: the values that vary besides the memory
    /// ("nbop_pe 256, nhwc"), in the order they first appear.
    const std::vector<QString> &series() const { return m_series; }
    /// Indices of points() on the front, by increasing memory.
    const std::vector<std::size_t> &front() const { return m_front; }
    /// How many points the run has (`points`), and whether all are here.
    std::int64_t runPoints() const { return m_runPoints; }
    bool complete() const { return std::int64_t(m_points.size()) == m_runPoints; }
    bool empty() const { return m_points.empty(); }
    /// "Total duration against on-chip memory", then the point count: "(14
    /// points)", or "(5 of 14 points)" when some are missing.
    QString title() const;
    /// A front point's annotation: its memory and the other values that
    /// vary ("64k · 256 · nhwc").
    QString shortForm(std::size_t index) const;
    /// false: no built-in title, a paper's caption gives it (--no-title);
    /// an incomplete run still says "k of n points" on a line of its own.
    void setTitleShown(bool shown) { m_titleShown = shown; }
    /// 16k, 1M, 1536: k = 1024, M = 1024², as the lists are written.
    static QString memoryLabel(std::int64_t elements);

    struct Geometry {
        QRectF plot; // the data area
        std::vector<QPointF> positions; // of each point of points()
        std::vector<PlacedText> texts;
        std::vector<QRectF> items; // every drawn mark, line and text
        bool squeezed = false; // the texts left the data area less than its minimum
    };
    Geometry geometry(const QRectF &rect, const QFont &font) const;
    void paint(QPainter &painter, const QRectF &rect, const QFont &font) const;
    /// Every item inside `rect` and the data area its minimum (3 lines by 4).
    bool fitsIn(const QRectF &rect, const QFont &font) const;
    /// `size` grown by tenths until the figure fits in it (at most 16384 a side).
    QSize sizeToFit(QSize size, const QFont &font) const;
    /// The point (an index of points()) whose marker is within `radius` of
    /// `position`, the nearest; -1 when none.
    int pointAt(const QRectF &rect, const QFont &font, QPointF position, double radius) const;

private:
    Geometry layOut(QPainter *painter, const QRectF &rect, const QFont &font) const;

    std::vector<ParetoPlotPoint> m_points;
    std::vector<QString> m_series;
    std::vector<QString> m_seriesShort; // for the annotations: "256 · nhwc"
    std::vector<std::size_t> m_front;
    std::int64_t m_runPoints = 0;
    QString m_run;
    bool m_titleShown = true;
};

/// The figure for export at `size` (the CLI's and the dialog's Save chart…),
/// every text from `font` (the application's by default).
Figure paretoFigure(std::shared_ptr<const ParetoPlot> plot, const std::optional<QFont> &font, QSize size);
/// The title of the file's metadata (SVG <title>, PDF Title) is kept with
/// setTitleShown(false): figure.title is title().

} // namespace convoffload::ui
