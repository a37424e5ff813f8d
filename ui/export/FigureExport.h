// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Export of any figure to PNG, SVG or PDF through one painter callback, so the
// GUI, its export dialog and `convoffload-cli export` write the same drawing;
// and the per-step metrics of a simulation as CSV or JSON.
//
// Every function reports failure as a value whose message names the native
// path and the reason (cannot write, unknown extension, size zero or too
// large); nothing here throws or aborts on bad input.

#include "convoffload/model/Problem.h"
#include "convoffload/simulate/Simulator.h"

#include <QRectF>
#include <QSize>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QChart;
class QPainter;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Draws a figure into `target` (painter coordinates) on any paint device.
using PaintFunction = std::function<void(QPainter &, const QRectF &)>;

struct ExportResult {
    bool ok = false;
    QString error; // empty when ok
    explicit operator bool() const { return ok; }
};

/// Largest width or height accepted for an export, in pixels (PNG) or CSS
/// pixels at 96 dpi (SVG, PDF): 16384 px keeps a PNG within 1 GiB and a PDF
/// page within the format's 200-inch limit.
constexpr int kMaxFigureSide = 16384;

/// What exportFigure would refuse before drawing anything: no file name, an
/// empty or too large size, an extension other than .png/.svg/.pdf, a folder
/// that does not exist or cannot be written. Callers check it before long
/// work, so a typo never throws a computation away.
ExportResult checkExportTarget(const QString &path, QSize size);

/// Writes the figure drawn by `paint` at `size` to `path`, the format chosen
/// from the extension (case-insensitive): .png (QImage + QImageWriter, white
/// background), .svg (QSvgGenerator, with `title` and `description`), .pdf
/// (QPdfWriter, one page the size of the figure, 96 dpi, with `title`). The
/// file is saved as projects are (writeTextFileAtomically): on failure an
/// existing file is kept and no temporary file is left; permission bits and
/// symbolic links are kept. A PNG is drawn `pngScale` times larger than
/// `size` (its layout), for a preset's dpi; SVG and PDF stay vector at `size`.
ExportResult exportFigure(const PaintFunction &paint, QSize size, const QString &path, const QString &title,
    const QString &description = {}, qreal pngScale = 1.0);

/// Renders `chart` into the target rectangle of any painter: the chart is
/// laid out at the target's size divided by `scale` (2 doubles text and lines,
/// for high-resolution PNGs), in a private scene when it has none, in its own
/// scene otherwise with its geometry restored afterwards. The chart must
/// outlive the returned function.
PaintFunction chartPainter(QChart *chart, qreal scale = 1.0);

/// Per-step metrics, one CSV row per step (the drain last): counts in
/// elements, footprints after the step, durations in cycles, running total.
QString exportMetricsCsv(const SimulationResult &result);
/// docs/reference/cli.md#simulate `simulate --json` of the result (core's simulationToJson), indented.
QString exportMetricsJson(const Problem &problem, const QString &strategy, const SimulationResult &result);

/// Writes UTF-8 text atomically, as figures; the error names the native path.
ExportResult exportText(const QString &text, const QString &path);

} // namespace convoffload::ui
