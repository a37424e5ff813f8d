// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "export/FigureExport.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/Report.h"
#include "convoffload/io/TextFile.h"

#include <QBuffer>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QImage>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QScreen>
#include <QSvgGenerator>

#include <cmath>
#include <memory>

namespace convoffload::ui {

namespace {

QString native(const QString &path) { return QDir::toNativeSeparators(path); }

ExportResult failure(const QString &message) { return {false, message}; }

ExportResult cannotWrite(const QString &path, const QString &reason)
{
    return failure(QStringLiteral("Cannot write “%1”: %2").arg(native(path), reason));
}

/// The resolution the figure is laid out at: fonts are sized in points, so
/// SVG and PDF must use the screen's resolution for the text to keep the size
/// it had in the layout (96 dpi headless).
int layoutDpi()
{
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        return std::max(1, qRound(screen->logicalDotsPerInch()));
    return 96;
}

/// Figures and reports are saved like projects (writeTextFileAtomically):
/// the old file is replaced only once the new one is on disk, its permission
/// bits are kept (a 0444 file stays read-only, as a 0444 project does), a
/// symbolic link is followed to its target and stays a link, and a failed
/// save leaves no temporary file. QSaveFile refused read-only files and does
/// not fsync the folder, so the bytes are made in memory and saved here.
ExportResult saveBytes(const QByteArray &bytes, const QString &path)
{
    try {
        writeTextFileAtomically(QFile::encodeName(path).toStdString(), std::string(bytes.constData(), std::size_t(bytes.size())));
    } catch (const FormatError &e) {
        return cannotWrite(path, QString::fromStdString(e.reason));
    }
    return {true, {}};
}

ExportResult writePng(const PaintFunction &paint, QSize size, const QString &path, qreal scale)
{
    // Laid out at `size`, drawn `scale` times larger (a preset's dpi).
    const QSize pixels(qRound(size.width() * scale), qRound(size.height() * scale));
    if (pixels.width() > kMaxFigureSide || pixels.height() > kMaxFigureSide)
        return failure(QStringLiteral("Cannot export “%1”: %2×%3 pixels is larger than %4 on a side")
                           .arg(native(path))
                           .arg(pixels.width())
                           .arg(pixels.height())
                           .arg(kMaxFigureSide));
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return failure(QStringLiteral("Cannot export “%1”: not enough memory for a %2×%3 image")
                           .arg(native(path))
                           .arg(size.width())
                           .arg(size.height()));
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
        painter.scale(scale, scale);
        paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    }
    // The physical size a viewer or LaTeX reads (set after drawing: text is
    // laid out at 96 dpi and scaled by the painter).
    const int dotsPerMeter = qRound(96.0 * scale / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    QImageWriter writer(&file, "png");
    if (!writer.write(image))
        return cannotWrite(path, writer.errorString());
    file.close();
    return saveBytes(bytes, path);
}

ExportResult writeSvg(
    const PaintFunction &paint, QSize size, const QString &path, const QString &title, const QString &description)
{
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(layoutDpi());
    svg.setTitle(title);
    svg.setDescription(description);
    QPainter painter;
    if (!painter.begin(&svg))
        return cannotWrite(path, QStringLiteral("the SVG generator could not start"));
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    file.close();
    return saveBytes(bytes, path);
}

ExportResult writePdf(const PaintFunction &paint, QSize size, const QString &path, const QString &title)
{
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    const int dpi = layoutDpi();
    QPdfWriter pdf(&file);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("ConvOffload"));
    pdf.setResolution(dpi);
    // One page exactly the size of the figure, no margins.
    const QSizeF points(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi);
    pdf.setPageSize(QPageSize(points, QPageSize::Point, title, QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&pdf))
        return cannotWrite(path, QStringLiteral("the PDF writer could not start"));
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    // The page in device pixels may differ from `size` by rounding: fill it.
    paint(painter, QRectF(0, 0, pdf.width(), pdf.height()));
    painter.end();
    file.close();
    return saveBytes(bytes, path);
}

} // namespace

ExportResult checkExportTarget(const QString &path, QSize size)
{
    if (path.isEmpty())
        return failure(QStringLiteral("Cannot export: no file name given"));
    if (size.width() <= 0 || size.height() <= 0)
        return failure(QStringLiteral("Cannot export “%1”: the figure size %2×%3 is empty")
                           .arg(native(path))
                           .arg(size.width())
                           .arg(size.height()));
    if (size.width() > kMaxFigureSide || size.height() > kMaxFigureSide)
        return failure(QStringLiteral("Cannot export “%1”: the figure size %2×%3 is too large (at most %4 pixels a side)")
                           .arg(native(path))
                           .arg(size.width())
                           .arg(size.height())
                           .arg(kMaxFigureSide));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
        return failure(QStringLiteral("Cannot export “%1”: %2 (use .png, .svg or .pdf)")
                           .arg(native(path),
                               suffix.isEmpty() ? QStringLiteral("the file name has no extension")
                                                : QStringLiteral("unknown extension “.%1”").arg(suffix)));
    // A save through a symbolic link writes the link's target: its folder
    // is the one that must exist and be writable.
    QFileInfo info(path);
    for (int depth = 0; depth < 40 && info.isSymLink(); ++depth)
        info = QFileInfo(info.symLinkTarget());
    const QFileInfo folder(info.absolutePath());
    if (!folder.isDir())
        return cannotWrite(path, QStringLiteral("the folder “%1” does not exist").arg(native(info.absolutePath())));
    if (info.isDir())
        return cannotWrite(path, QStringLiteral("it is a folder"));
    if (!folder.isWritable())
        return cannotWrite(path, QStringLiteral("the folder “%1” is not writable").arg(native(info.absolutePath())));
    return {true, {}};
}

ExportResult exportFigure(
    const PaintFunction &paint, QSize size, const QString &path, const QString &title, const QString &description, qreal pngScale)
{
    if (!paint && !path.isEmpty())
        return failure(QStringLiteral("Cannot export “%1”: nothing to draw").arg(native(path)));
    if (const ExportResult target = checkExportTarget(path, size); !target)
        return target;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return writePng(paint, size, path, pngScale > 0 ? pngScale : 1.0);
    if (suffix == QLatin1String("svg"))
        return writeSvg(paint, size, path, title, description);
    return writePdf(paint, size, path, title);
}

PaintFunction chartPainter(QChart *chart, qreal scale)
{
    if (!(scale > 0) || !std::isfinite(scale))
        scale = 1.0;
    return [chart, scale](QPainter &painter, const QRectF &target) {
        if (!chart || target.isEmpty())
            return;
        // A chart shown in a view lives in the view's scene: render it there
        // at the target size and give it back its geometry. A chart built
        // headless gets a private scene for the time of the rendering.
        std::unique_ptr<QGraphicsScene> ownScene;
        QGraphicsScene *scene = chart->scene();
        if (!scene) {
            ownScene = std::make_unique<QGraphicsScene>();
            ownScene->addItem(chart);
            scene = ownScene.get();
        }
        const QRectF oldGeometry = chart->geometry();
        // The layout's contents margins (the style's 9 px) would leave a
        // transparent frame around the chart's background: a figure is tight.
        QGraphicsLayout *layout = chart->layout();
        qreal margins[4] = {0, 0, 0, 0};
        if (layout) {
            layout->getContentsMargins(&margins[0], &margins[1], &margins[2], &margins[3]);
            layout->setContentsMargins(0, 0, 0, 0);
        }
        const auto layOut = [chart, layout](const QRectF &geometry) {
            chart->setGeometry(geometry);
            if (layout)
                layout->activate(); // axes, legend and plot area now, not at the next event loop turn
        };
        layOut(QRectF(oldGeometry.topLeft(), target.size() / scale));
        // render() scales the chart's rectangle onto the target.
        scene->render(&painter, target, chart->sceneBoundingRect(), Qt::IgnoreAspectRatio);
        if (layout)
            layout->setContentsMargins(margins[0], margins[1], margins[2], margins[3]);
        if (ownScene)
            ownScene->removeItem(chart); // the scene must not delete the caller's chart
        else
            layOut(oldGeometry);
    };
}

QString exportMetricsCsv(const SimulationResult &result)
{
    QString csv = QStringLiteral("step,drain,loaded_input,loaded_kernels,freed_input,freed_kernels,written,computed,"
                                 "footprint_input,footprint_kernels,footprint_output,footprint_after,peak_footprint,"
                                 "load_duration,write_duration,compute_duration,duration,cumulative_duration\n");
    const auto num = [](double v) {
        return v == std::floor(v) && std::abs(v) < 1e15 ? QString::number(qint64(v)) : QString::number(v, 'g', 10);
    };
    double total = 0;
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const StepStats &s = result.steps[i];
        total += s.duration();
        const QStringList fields{QString::number(i + 1), s.drain ? QStringLiteral("true") : QStringLiteral("false"),
            QString::number(s.loaded_input), QString::number(s.loaded_kernels), QString::number(s.freed_input),
            QString::number(s.freed_kernels), QString::number(s.written), QString::number(s.computed),
            QString::number(s.after.input), QString::number(s.after.kernels), QString::number(s.after.output),
            QString::number(s.after.total()), QString::number(s.peak_footprint), num(s.load_duration), num(s.write_duration),
            num(s.compute_duration), num(s.duration()), num(total)};
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

QString exportMetricsJson(const Problem &problem, const QString &strategy, const SimulationResult &result)
{
    return QString::fromStdString(simulationToJsonText(problem, strategy.toStdString(), result));
}

ExportResult exportText(const QString &text, const QString &path)
{
    if (path.isEmpty())
        return failure(QStringLiteral("Cannot export: no file name given"));
    return saveBytes(text.toUtf8(), path);
}

} // namespace convoffload::ui
