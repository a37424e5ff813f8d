// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Figures for reports: for every figure, export preset and format, the text
// is 7–10 pt at the printed size, nothing is cut ("…"), every text lies inside
// the canvas and the canvas is tight (no transparent frame); the files come
// out at the preset's size. Texts are read back from what each format gets:
// the PNG's drawing (a recording device with the PNG writer's scale), the SVG
// file's <text> elements and the PDF file (poppler's pdftotext and
// pdftocairo, when installed; the page size alone otherwise).

#include "charts/ChartFactory.h"
#include "export/ExportPreset.h"
#include "export/FigureExport.h"
#include "export/Figures.h"
#include "render/StoryboardRenderer.h"

#include "DrawingProbe.h"
#include "TextProbe.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QAbstractAxis>
#include <QChart>
#include <QFile>
#include <QGraphicsLineItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QXmlStreamReader>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

struct TextProblem {
    QStringList problems;
    void add(const QString &what) { problems << what; }
};

/// Every text item of a laid-out chart: size in points, cut, inside.
void checkChart(const QChart *chart, TextProblem &out)
{
    const QRectF bounds = chart->sceneBoundingRect().adjusted(-0.5, -0.5, 0.5, 0.5);
    QList<const QGraphicsItem *> pending;
    for (const QGraphicsItem *item : chart->childItems())
        pending << item;
    while (!pending.isEmpty()) {
        const QGraphicsItem *i = pending.takeLast();
        for (const QGraphicsItem *child : i->childItems())
            pending << child;
        const auto *text = dynamic_cast<const QGraphicsTextItem *>(i);
        if (!text || !text->isVisible() || text->toPlainText().trimmed().isEmpty())
            continue;
        const QString plain = text->toPlainText();
        const double pt = text->font().pointSizeF();
        if (pt < kMinFigureTextPt - 1e-9 || pt > kMaxFigureTextPt + 1e-9)
            out.add(QStringLiteral("%1 pt: %2").arg(pt).arg(plain));
        if (plain.contains(QStringLiteral("…")) || plain.contains(QStringLiteral("...")))
            out.add(QStringLiteral("cut: ") + plain);
        if (!bounds.contains(text->sceneBoundingRect()))
            out.add(QStringLiteral("outside: ") + plain);
    }
}

/// The figures drawn for a report, every kind.
const char *const kFigures[] = {
    "grid", "input-grid", "output-grid", "memory", "memory-actions", "durations", "cumulative", "compare", "sweep", "storyboard"};

Figure presetFigure(FigureSource &source, const QString &figure, const ExportPreset &preset)
{
    FigureRequest request;
    request.kind = *figureKindFromName(figure);
    request.strategy = "ZigZag";
    request.versus = "Row-by-Row";
    request.moment = {39, Action::Compute};
    request.font = presetFont(preset);
    request.size = presetLayoutSize(preset);
    return makeFigure(source, request);
}

/// Texts at the printed size: `pointsPerUnit` turns the probe's units into
/// points on paper. Checks sizes, cuts and that every box lies in `canvas`.
void checkTexts(const QList<ProbedText> &texts, double pointsPerUnit, const QRectF &canvas, TextProblem &out)
{
    const QRectF inside = canvas.adjusted(-0.5, -0.5, 0.5, 0.5);
    for (const ProbedText &t : texts) {
        if (t.text.trimmed().isEmpty() && t.box.width() <= 0)
            continue;
        const double pt = t.pixelSize * pointsPerUnit;
        if (pt < kMinFigureTextPt - 0.05 || pt > kMaxFigureTextPt + 0.05)
            out.add(QStringLiteral("%1 pt: %2").arg(pt, 0, 'f', 2).arg(t.text));
        if (t.text.contains(QStringLiteral("…")) || t.text.contains(QStringLiteral("...")))
            out.add(QStringLiteral("cut: ") + t.text);
        if (!inside.contains(t.box))
            out.add(QStringLiteral("outside: %1 at %2,%3 %4×%5")
                        .arg(t.text)
                        .arg(t.box.x())
                        .arg(t.box.y())
                        .arg(t.box.width())
                        .arg(t.box.height()));
    }
}

/// Pixels of the image's outermost rows and columns that are fully
/// transparent: a figure whose background does not reach the edge.
int transparentBorderPixels(const QImage &image)
{
    const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
    int count = 0;
    for (int x = 0; x < argb.width(); ++x)
        count += qAlpha(argb.pixel(x, 0)) == 0 ? 1 : 0, count += qAlpha(argb.pixel(x, argb.height() - 1)) == 0 ? 1 : 0;
    for (int y = 0; y < argb.height(); ++y)
        count += qAlpha(argb.pixel(0, y)) == 0 ? 1 : 0, count += qAlpha(argb.pixel(argb.width() - 1, y)) == 0 ? 1 : 0;
    return count;
}

/// The SVG root's width and height in millimetres and its viewBox.
struct SvgFrame {
    double width_mm = 0, height_mm = 0;
    QRectF viewBox;
};

SvgFrame svgFrame(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg")) {
            const QXmlStreamAttributes a = xml.attributes();
            const auto mm = [](QStringView v) { return v.endsWith(QLatin1String("mm")) ? v.chopped(2).toDouble() : 0.0; };
            const QStringList box = a.value(QLatin1String("viewBox")).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            SvgFrame f{mm(a.value(QLatin1String("width"))), mm(a.value(QLatin1String("height"))), {}};
            if (box.size() == 4)
                f.viewBox = QRectF(box[0].toDouble(), box[1].toDouble(), box[2].toDouble(), box[3].toDouble());
            return f;
        }
    return {};
}

/// The texts of an SVG file (QSvgGenerator's form: <text x y font-size
/// font-family font-weight> in <g transform="matrix(...)"> groups), their
/// boxes from the font's metrics at that size, in view box units.
QList<ProbedText> svgTexts(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    QList<QTransform> transforms{QTransform()};
    QList<ProbedText> texts;
    static const QRegularExpression matrix(QStringLiteral("matrix\\(([^)]*)\\)"));
    while (!xml.atEnd()) {
        const QXmlStreamReader::TokenType token = xml.readNext();
        if (token == QXmlStreamReader::EndElement && xml.name() == QLatin1String("g"))
            transforms.removeLast();
        if (token != QXmlStreamReader::StartElement)
            continue;
        const QXmlStreamAttributes a = xml.attributes();
        if (xml.name() == QLatin1String("g")) {
            QTransform t = transforms.last();
            if (const QRegularExpressionMatch m = matrix.match(a.value(QLatin1String("transform")).toString()); m.hasMatch()) {
                const QStringList v = m.captured(1).split(QLatin1Char(','));
                if (v.size() == 6)
                    t = QTransform(
                            v[0].toDouble(), v[1].toDouble(), v[2].toDouble(), v[3].toDouble(), v[4].toDouble(), v[5].toDouble())
                        * transforms.last();
            }
            transforms.append(t);
        } else if (xml.name() == QLatin1String("text")) {
            QFont font(a.value(QLatin1String("font-family")).toString());
            const double size = a.value(QLatin1String("font-size")).toDouble();
            font.setPixelSize(qRound(size));
            font.setWeight(QFont::Weight(a.value(QLatin1String("font-weight")).toInt()));
            const QPointF at(a.value(QLatin1String("x")).toDouble(), a.value(QLatin1String("y")).toDouble());
            const QString text = xml.readElementText();
            const QFontMetricsF fm(font);
            const double scale = fm.height() > 0 ? size / font.pixelSize() : 1.0; // the fractional size
            const QRectF local(at.x(), at.y() - fm.ascent() * scale, fm.horizontalAdvance(text) * scale, fm.height() * scale);
            const QTransform &t = transforms.last();
            texts.append({text, size * std::sqrt(std::abs(t.determinant())), t.mapRect(local)});
        }
    }
    return texts;
}

/// The PDF's page size in points (its MediaBox).
QSizeF pdfPageSize(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression box(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const QRegularExpressionMatch m = box.match(QString::fromLatin1(file.readAll()));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

QString runTool(const QString &tool, const QStringList &arguments)
{
    QProcess process;
    process.start(tool, arguments);
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return {};
    return QString::fromUtf8(process.readAllStandardOutput());
}

/// The words of a PDF and their boxes in points (pdftotext -bbox); the size
/// is left to the caller.
QList<ProbedText> pdfWords(const QString &pdftotext, const QString &path)
{
    const QString html = runTool(pdftotext, {QStringLiteral("-bbox"), path, QStringLiteral("-")});
    static const QRegularExpression word(
        QStringLiteral("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" yMax=\"([0-9.]+)\">([^<]*)</word>"));
    QList<ProbedText> words;
    for (QRegularExpressionMatchIterator it = word.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        words.append({m.captured(5), 0.0,
            QRectF(QPointF(m.captured(1).toDouble(), m.captured(2).toDouble()),
                QPointF(m.captured(3).toDouble(), m.captured(4).toDouble()))});
    }
    return words;
}

/// Samples whose figures the layout checks draw: the lenet5 layer of the
/// text checks, and a layer of five strategies with long names (its
/// comparison fell off a column's page).
const char *const kLayoutSamples[] = {"lenet5-conv1.json", "mobilenetv2-depthwise-conv.json"};

/// A figure of `sample` at the preset, or nullopt when the sample has none
/// of that kind (no sweep where the kernels do not fit).
std::optional<Figure> sampleFigure(const QString &sample, const QString &figure, const ExportPreset &preset)
{
    static std::map<QString, std::unique_ptr<FigureSource>> sources; // simulations kept between rows
    std::unique_ptr<FigureSource> &source = sources[sample];
    const std::string path = CONVOFFLOAD_SAMPLES "/" + sample.toStdString();
    if (!source)
        source = std::make_unique<FigureSource>(loadProject(path), path);
    FigureRequest request;
    request.kind = *figureKindFromName(figure);
    const Project &project = source->project();
    request.strategy = project.strategies.front().name;
    request.versus = project.strategies.back().name;
    request.moment = {0, Action::Compute};
    request.font = presetFont(preset);
    request.size = presetLayoutSize(preset);
    try {
        return makeFigure(*source, request);
    } catch (const FigureError &) {
        return std::nullopt;
    }
}

/// The text items of a laid-out chart that label its axes' ticks: not the
/// title, not an axis title, not in the legend; below the plot for
/// `orientation` horizontal, left of it for vertical.
int tickLabelCount(const QChart *chart, Qt::Orientation orientation, const QAbstractAxis *axis)
{
    const QRectF plot = chart->plotArea();
    int count = 0;
    QList<const QGraphicsItem *> pending;
    for (const QGraphicsItem *item : chart->childItems())
        if (item != chart->legend())
            pending << item;
    while (!pending.isEmpty()) {
        const QGraphicsItem *i = pending.takeLast();
        for (const QGraphicsItem *child : i->childItems())
            pending << child;
        const auto *text = dynamic_cast<const QGraphicsTextItem *>(i);
        if (!text || !text->isVisible())
            continue;
        const QString plain = text->toPlainText().trimmed();
        if (plain.isEmpty() || plain == axis->titleText() || chart->title().contains(plain))
            continue;
        const QPointF centre = text->mapToItem(chart, text->boundingRect().center());
        if (orientation == Qt::Horizontal
                ? centre.y() > plot.bottom() && centre.x() >= plot.left() - 20 && centre.x() <= plot.right() + 20
                : centre.x() < plot.left() && centre.y() >= plot.top() - 10 && centre.y() <= plot.bottom() + 10)
            ++count;
    }
    return count;
}

} // namespace

class TestExportPresets : public QObject {
    Q_OBJECT
private slots:
    void presets()
    {
        QCOMPARE(exportPresets().size(), 3);
        const ExportPreset column = *exportPresetFromName(QStringLiteral("paper-column"));
        QCOMPARE(presetLayoutSize(column), QSize(321, 246)); // 85 × 65 mm at 96 px per inch
        QCOMPARE(presetFont(column).pointSizeF(), 7.5); // 10 px at 96 dpi: Qt draws fonts at whole pixels
        QVERIFY(!exportPresetFromName(QStringLiteral("poster")));
        for (const ExportPreset &p : exportPresets()) {
            QVERIFY(p.font_pt >= kMinFigureTextPt && p.font_pt * 1.1 <= kMaxFigureTextPt + 1e-9);
            // Qt draws fonts at whole pixels: a preset's size is one at 96 dpi.
            const double pixels = p.font_pt * 96.0 / 72.0;
            QCOMPARE(pixels, std::round(pixels));
        }
    }

    // The storyboard's arrangement: the largest cells, worked out by hand.
    void storyboardArrangement_data()
    {
        QTest::addColumn<QSizeF>("area");
        QTest::addColumn<double>("header");
        QTest::addColumn<double>("extra");
        QTest::addColumn<double>("gap");
        QTest::addColumn<bool>("stacked");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<double>("cell");
        // 4 steps of a 10 × 10 grid. Wide, no gaps: one row of 4 per
        // strategy, 250 × 200 a panel -> 20 (side by side 2 × 2 ties, stacked first).
        QTest::newRow("wide") << QSizeF(1000, 400) << 0.0 << 0.0 << 0.0 << true << 1 << 4 << 20.0;
        // Tall: 2 × 2 per strategy, stacked: 200 × 250 -> 20.
        QTest::newRow("tall") << QSizeF(400, 1000) << 0.0 << 0.0 << 0.0 << true << 2 << 2 << 20.0;
        // Header 20, label 10, gap 10 (bands 15 apart): side by side 2 × 2,
        // (1000 - 15 - 2·10) / 4 = 241.25 wide, (400 - 20 - 2·10 - 10) / 2 =
        // 175 high -> 17.5; stacked 1 × 4 gives (400 - 40 - 15 - 20) / 2 =
        // 162.5 -> 16.25.
        QTest::newRow("with text") << QSizeF(1000, 400) << 20.0 << 10.0 << 10.0 << false << 2 << 2 << 17.5;
    }
    void storyboardArrangement()
    {
        QFETCH(QSizeF, area);
        QFETCH(double, header);
        QFETCH(double, extra);
        QFETCH(double, gap);
        const StoryboardArrangement a = StoryboardRenderer::arrange(4, 10, 10, area, header, extra, gap);
        QTEST(a.bandsStacked, "stacked");
        QTEST(a.rows, "rows");
        QTEST(a.cols, "cols");
        QTEST(a.cellSize, "cell");
    }

    // The storyboard fills the canvas: at 1600 × 900 (the default) and at
    // every preset, its panels span most of the width and of the height
    // above the legend, none overlaps another, each is labelled with its step.
    void storyboardFillsTheCanvas_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontPt");
        QTest::newRow("1600x900") << QSize(1600, 900) << 15.0;
        for (const ExportPreset &p : exportPresets())
            QTest::newRow(qPrintable(p.name)) << presetLayoutSize(p) << p.font_pt;
    }
    void storyboardFillsTheCanvas()
    {
        QFETCH(QSize, size);
        QFETCH(double, fontPt);
        const std::string path = CONVOFFLOAD_SAMPLES "/paper-example.json";
        const Project project = loadProject(path);
        SimulationOptions options;
        options.trace = true; // the cursor replays the trace
        const SimulationResult a = simulateStrategy(project.problem, *project.findStrategy("Row-by-Row"), options);
        QFont font;
        font.setPointSizeF(fontPt);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        const QFontMetricsF fm(font, &image);
        const StepCursor cursor(project.problem, a);
        GridStyle style;
        const auto legend = GridRenderer::inputLegend(project.problem, cursor, style);
        const QRectF canvas(QPointF(0, 0), QSizeF(size));
        const StoryboardLayout lay = StoryboardRenderer::layout(fm, canvas, project.problem, 4, legend);
        QRectF all;
        QList<QRectF> panels;
        for (int k = 0; k < 4; ++k)
            for (int s = 0; s < 2; ++s) {
                const QRectF grid = lay.grids[std::size_t(k)][std::size_t(s)].bounds();
                const QRectF label = lay.labels[std::size_t(k)][std::size_t(s)];
                QVERIFY(canvas.contains(grid) && canvas.contains(label));
                QVERIFY(label.bottom() <= grid.top() + 1e-9); // the step label over its grid
                for (const QRectF &other : panels)
                    QVERIFY(!other.intersects(grid));
                panels << grid;
                all |= grid;
            }
        const double body = lay.legend.top(); // the legend sits under the panels
        QVERIFY2(all.width() >= 0.8 * size.width() || all.height() >= 0.8 * body,
            qPrintable(
                QStringLiteral("panels span %1 × %2 of %3 × %4").arg(all.width()).arg(all.height()).arg(size.width()).arg(body)));
        QVERIFY(all.bottom() <= lay.legend.top());
    }

    // The chart items themselves (Qt Charts elides a label it cannot fit).
    void chartItemsFit_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("figure");
        for (const ExportPreset &p : exportPresets())
            for (const char *figure : {"memory", "memory-actions", "durations", "cumulative", "sweep"})
                QTest::newRow(qPrintable(p.name + QLatin1Char(' ') + QLatin1String(figure)))
                    << p.name << QString::fromLatin1(figure);
    }
    void chartItemsFit()
    {
        QFETCH(QString, preset);
        QFETCH(QString, figure);
        const ExportPreset p = *exportPresetFromName(preset);
        const std::string path = CONVOFFLOAD_SAMPLES "/lenet5-conv1.json";
        FigureSource source(loadProject(path), path);
        const Figure f = presetFigure(source, figure, p);
        const QSize size = presetLayoutSize(p);
        // Lay the chart out as the export does (its painter), then read its items.
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        f.paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        TextProblem problems;
        checkChart(std::static_pointer_cast<QChart>(f.keepAlive).get(), problems);
        QVERIFY2(problems.problems.isEmpty(), qPrintable(problems.problems.join(QStringLiteral("; "))));
    }

    // A grid figure names its strategy in its title, as the charts do (it
    // said only "Step 2 of 98, a6 compute"). The reload marks of its tiny
    // cells: tst_grid reloadMarksLeaveTheCellsColour.
    void gridFiguresNameTheirStrategy_data()
    {
        QTest::addColumn<QString>("figure");
        for (const char *figure : {"grid", "output-grid", "input-grid"})
            QTest::newRow(figure) << QString::fromLatin1(figure);
    }
    void gridFiguresNameTheirStrategy()
    {
        QFETCH(QString, figure);
        const ExportPreset p = *exportPresetFromName(QStringLiteral("paper-column"));
        static const std::string path = CONVOFFLOAD_SAMPLES "/lenet5-conv1.json";
        static FigureSource source(loadProject(path), path);
        const Figure f = presetFigure(source, figure, p);
        const QSize size = presetLayoutSize(p);
        TextProbe probe(size);
        {
            QPainter painter(&probe);
            f.paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        QStringList texts;
        for (const ProbedText &t : probe.texts())
            texts << t.text;
        QVERIFY2(
            std::any_of(texts.begin(), texts.end(), [](const QString &t) { return t.startsWith(QStringLiteral("ZigZag — ")); }),
            qPrintable(texts.join(QStringLiteral(" | "))));
    }

    // Everything a figure draws lies on its canvas (an SVG's view box, a
    // PDF's page), not its texts alone: a comparison of five strategies at
    // the column preset drew its last panel below the page (issue 41,
    // item 2). Every primitive is recorded, as the painter's clip leaves it.
    void everythingInsideTheCanvas_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("figure");
        for (const char *sample : kLayoutSamples)
            for (const ExportPreset &p : exportPresets())
                for (const char *figure : kFigures)
                    QTest::newRow(
                        qPrintable(QLatin1String(sample) + QLatin1Char(' ') + p.name + QLatin1Char(' ') + QLatin1String(figure)))
                        << QString::fromLatin1(sample) << p.name << QString::fromLatin1(figure);
    }
    void everythingInsideTheCanvas()
    {
        QFETCH(QString, sample);
        QFETCH(QString, preset);
        QFETCH(QString, figure);
        const ExportPreset p = *exportPresetFromName(preset);
        const std::optional<Figure> f = sampleFigure(sample, figure, p);
        if (!f)
            QSKIP("no such figure for this sample");
        const QSize size = presetLayoutSize(p);
        DrawingProbe probe(size);
        {
            QPainter painter(&probe);
            f->paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        QVERIFY(!probe.items().isEmpty());
        // Half a pixel for antialiased edges on the canvas's border.
        const QRectF canvas = probe.rect().adjusted(-0.5, -0.5, 0.5, 0.5);
        QStringList outside;
        // By its edges: QRectF::contains() is false for a line's empty box.
        const auto inside = [&](const QRectF &box) {
            return box.left() >= canvas.left() && box.right() <= canvas.right() && box.top() >= canvas.top()
                && box.bottom() <= canvas.bottom();
        };
        for (const DrawnItem &item : probe.items())
            if (!inside(item.box))
                outside << QStringLiteral("%1 at %2,%3 %4×%5")
                               .arg(item.what)
                               .arg(item.box.x())
                               .arg(item.box.y())
                               .arg(item.box.width())
                               .arg(item.box.height());
        QVERIFY2(outside.isEmpty(), qPrintable(outside.mid(0, 8).join(QStringLiteral("; "))));
    }

    // Every axis of a chart figure labels at least two of its ticks: the
    // sweep's group sizes had grid lines and not one number (issue 41,
    // item 3).
    void everyAxisHasTickLabels_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("figure");
        for (const char *sample : kLayoutSamples)
            for (const ExportPreset &p : exportPresets())
                for (const char *figure : {"memory", "memory-actions", "durations", "cumulative", "sweep"})
                    QTest::newRow(
                        qPrintable(QLatin1String(sample) + QLatin1Char(' ') + p.name + QLatin1Char(' ') + QLatin1String(figure)))
                        << QString::fromLatin1(sample) << p.name << QString::fromLatin1(figure);
    }
    void everyAxisHasTickLabels()
    {
        QFETCH(QString, sample);
        QFETCH(QString, preset);
        QFETCH(QString, figure);
        const ExportPreset p = *exportPresetFromName(preset);
        const std::optional<Figure> f = sampleFigure(sample, figure, p);
        if (!f)
            QSKIP("no such figure for this sample");
        const QSize size = presetLayoutSize(p);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            f->paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        const auto *chart = static_cast<const QChart *>(f->keepAlive.get());
        // Lay it out again as painted (the painter hands the scene back).
        QGraphicsScene scene;
        scene.addItem(const_cast<QChart *>(chart));
        const_cast<QChart *>(chart)->setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
        const_cast<QChart *>(chart)->layout()->activate();
        QStringList problems;
        for (const Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
            for (const QAbstractAxis *axis : chart->axes(o))
                if (const int labels = tickLabelCount(chart, o, axis); labels < 2)
                    problems << QStringLiteral("%1 axis \"%2\": %3 tick labels")
                                    .arg(o == Qt::Horizontal ? QStringLiteral("horizontal") : QStringLiteral("vertical"))
                                    .arg(axis->titleText())
                                    .arg(labels);
        scene.removeItem(const_cast<QChart *>(chart)); // before any check: the figure owns the chart, not the scene
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
    }

    // A legend's line swatch is drawn with its series' pen and is long
    // enough to show its dashes: "invalid (dashed)" of the sweep showed one
    // dash, a solid line (issue 41, item 3).
    void legendSwatchesMatchTheirSeries_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("figure");
        for (const ExportPreset &p : exportPresets())
            for (const char *figure : {"memory", "memory-actions", "durations", "cumulative", "sweep"})
                QTest::newRow(qPrintable(p.name + QLatin1Char(' ') + QLatin1String(figure)))
                    << p.name << QString::fromLatin1(figure);
    }
    void legendSwatchesMatchTheirSeries()
    {
        QFETCH(QString, preset);
        QFETCH(QString, figure);
        const ExportPreset p = *exportPresetFromName(preset);
        const std::optional<Figure> f = sampleFigure(QStringLiteral("lenet5-conv1.json"), figure, p);
        QVERIFY(f);
        auto *chart = static_cast<QChart *>(f->keepAlive.get());
        const QSize size = presetLayoutSize(p);
        QGraphicsScene scene;
        scene.addItem(chart);
        chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
        chart->layout()->activate();
        // The swatches as drawn (the legend's line items).
        QList<const QGraphicsLineItem *> swatches;
        QList<QGraphicsItem *> pending = chart->legend()->childItems();
        while (!pending.isEmpty()) {
            QGraphicsItem *i = pending.takeLast();
            pending << i->childItems();
            if (const auto *line = dynamic_cast<const QGraphicsLineItem *>(i); line && line->isVisible())
                swatches << line;
        }
        QStringList problems;
        const auto samePen = [](const QPen &a, const QPen &b) {
            return a.style() == b.style() && a.color() == b.color()
                && (a.style() != Qt::CustomDashLine || a.dashPattern() == b.dashPattern());
        };
        for (QLegendMarker *marker : chart->legend()->markers()) {
            auto *series = qobject_cast<QLineSeries *>(marker->series());
            if (!marker->isVisible() || !series)
                continue;
            const QPen want = series->pen();
            const auto drawn = std::find_if(
                swatches.begin(), swatches.end(), [&](const QGraphicsLineItem *l) { return samePen(l->pen(), want); });
            if (drawn == swatches.end()) {
                problems << marker->label() + QStringLiteral(": no swatch with its series' pen");
                continue;
            }
            // A dashed swatch shows a gap: its first dash and gap are shorter
            // than the swatch.
            const QPen pen = (*drawn)->pen();
            const QList<qreal> dashes = pen.dashPattern();
            const double dashAndGap
                = pen.style() == Qt::SolidLine || dashes.size() < 2 ? 0.0 : (dashes[0] + dashes[1]) * std::max(1.0, pen.widthF());
            if (dashAndGap >= (*drawn)->line().length())
                problems << QStringLiteral("%1: a swatch %2 px long for a dash and gap of %3 px")
                                .arg(marker->label())
                                .arg((*drawn)->line().length())
                                .arg(dashAndGap);
        }
        scene.removeItem(chart);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
    }

    // --no-title and the Export dialog's checkbox: the figure's built-in
    // title is drawn with it and not without; the rest stays (issue 41,
    // item 4). The storyboard has no title, only the strategies' names.
    void noTitleLeavesTheTitleOut_data()
    {
        QTest::addColumn<QString>("figure");
        QTest::addColumn<QString>("title");
        QTest::newRow("grid") << QStringLiteral("grid") << QStringLiteral("ZigZag \u2014 ");
        QTest::newRow("input-grid") << QStringLiteral("input-grid") << QStringLiteral("ZigZag \u2014 ");
        QTest::newRow("output-grid") << QStringLiteral("output-grid") << QStringLiteral("ZigZag \u2014 ");
        QTest::newRow("memory") << QStringLiteral("memory") << QStringLiteral("on-chip footprint");
        QTest::newRow("durations") << QStringLiteral("durations") << QStringLiteral("duration per step");
        QTest::newRow("cumulative") << QStringLiteral("cumulative") << QStringLiteral("cumulative duration");
        QTest::newRow("compare") << QStringLiteral("compare") << QStringLiteral("Strategies compared");
        QTest::newRow("sweep") << QStringLiteral("sweep") << QStringLiteral("against group size");
    }
    void noTitleLeavesTheTitleOut()
    {
        QFETCH(QString, figure);
        QFETCH(QString, title);
        const ExportPreset p = *exportPresetFromName(QStringLiteral("paper-wide"));
        static const std::string path = CONVOFFLOAD_SAMPLES "/lenet5-conv1.json";
        static FigureSource source(loadProject(path), path);
        const QSize size = presetLayoutSize(p);
        const auto drawnText = [&](bool withTitle) {
            FigureRequest request;
            request.kind = *figureKindFromName(figure);
            request.strategy = "ZigZag";
            request.moment = {39, Action::Compute};
            request.font = presetFont(p);
            request.size = size;
            request.title = withTitle;
            const Figure f = makeFigure(source, request);
            TextProbe probe(size);
            {
                QPainter painter(&probe);
                f.paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
            }
            QStringList texts;
            for (const ProbedText &t : probe.texts())
                texts << t.text;
            return texts.join(QLatin1Char(' '));
        };
        const QString with = drawnText(true), without = drawnText(false);
        QVERIFY2(with.contains(title), qPrintable(with));
        QVERIFY2(!without.contains(title), qPrintable(without));
        QVERIFY(without.size() > with.size() / 3); // the rest is drawn
    }

    void figureText_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("figure");
        QTest::addColumn<QString>("format");
        for (const ExportPreset &p : exportPresets())
            for (const char *figure : kFigures)
                for (const char *format : {"png", "svg", "pdf"})
                    QTest::newRow(
                        qPrintable(p.name + QLatin1Char(' ') + QLatin1String(figure) + QLatin1Char(' ') + QLatin1String(format)))
                        << p.name << QString::fromLatin1(figure) << QString::fromLatin1(format);
    }
    void figureText()
    {
        QFETCH(QString, preset);
        QFETCH(QString, figure);
        QFETCH(QString, format);
        const ExportPreset p = *exportPresetFromName(preset);
        static const std::string path = CONVOFFLOAD_SAMPLES "/lenet5-conv1.json";
        static FigureSource source(loadProject(path), path); // simulations kept between rows
        const Figure f = presetFigure(source, figure, p);
        const QSize size = presetLayoutSize(p);
        const double printedWidthPt = p.width_mm / 25.4 * 72.0;
        const double printedHeightPt = p.height_mm / 25.4 * 72.0;

        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("figure.") + format);
        QVERIFY(exportFigure(f.paint, size, file, f.title, f.description, presetPngScale(p)).ok);
        TextProblem problems;

        if (format == QLatin1String("png")) {
            // The PNG writer's drawing: laid out at `size`, scaled to the dpi.
            const double scale = presetPngScale(p);
            const QImage written(file);
            QCOMPARE(written.size(), QSize(qRound(size.width() * scale), qRound(size.height() * scale)));
            QCOMPARE(qRound(written.dotsPerMeterX() * 0.0254), qRound(p.png_dpi));
            TextProbe probe(written.size());
            {
                QPainter painter(&probe);
                painter.scale(scale, scale);
                f.paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
            }
            QVERIFY2(!probe.texts().isEmpty(), "no text recorded");
            checkTexts(probe.texts(), printedWidthPt / written.width(), probe.rect(), problems);
        } else if (format == QLatin1String("svg")) {
            // The file: its physical size, a view box exactly the canvas, and
            // its texts as an SVG viewer draws them.
            const SvgFrame frame = svgFrame(file);
            QCOMPARE(qRound(frame.width_mm), qRound(p.width_mm));
            QCOMPARE(qRound(frame.height_mm), qRound(p.height_mm));
            QCOMPARE(frame.viewBox, QRectF(QPointF(0, 0), QSizeF(size)));
            const QList<ProbedText> texts = svgTexts(file);
            QVERIFY2(!texts.isEmpty(), "no text in the SVG");
            checkTexts(texts, frame.width_mm / 25.4 * 72.0 / frame.viewBox.width(), frame.viewBox, problems);
            QSvgRenderer svg(file);
            QVERIFY(svg.isValid());
            // Tight: the figure's background reaches every edge.
            QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
            {
                QPainter painter(&image);
                svg.render(&painter, QRectF(QPointF(0, 0), QSizeF(image.size())));
            }
            QCOMPARE(transparentBorderPixels(image), 0);
        } else {
            const QSizeF page = pdfPageSize(file);
            QVERIFY2(std::abs(page.width() - printedWidthPt) < 1.0 && std::abs(page.height() - printedHeightPt) < 1.0,
                qPrintable(QStringLiteral("page %1×%2 pt").arg(page.width()).arg(page.height())));
            const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
            const QString pdftocairo = QStandardPaths::findExecutable(QStringLiteral("pdftocairo"));
            if (pdftotext.isEmpty() || pdftocairo.isEmpty())
                QSKIP("poppler-utils (pdftotext, pdftocairo) not installed: the PDF's page size alone was checked");
            // Words and their boxes in points, as a PDF reader finds them. A
            // word's box is as high as its font's ascent + descent: the size
            // in points follows from a reference word written at 10 pt.
            const QString reference = dir.filePath(QStringLiteral("reference.pdf"));
            QVERIFY(exportFigure(
                [](QPainter &painter, const QRectF &) {
                    QFont font;
                    font.setPointSizeF(10);
                    painter.setFont(font);
                    painter.drawText(QPointF(20, 40), QStringLiteral("Reference"));
                },
                QSize(200, 80), reference, QStringLiteral("reference"))
                        .ok);
            const QList<ProbedText> ref = pdfWords(pdftotext, reference);
            QCOMPARE(ref.size(), 1);
            const double boxPerPoint = ref.front().box.height() / 10.0;
            QList<ProbedText> words = pdfWords(pdftotext, file);
            for (ProbedText &w : words) {
                // A vertical axis title: its box is turned, the line height is its width.
                const bool turned = w.text.size() >= 3 && w.box.height() > w.box.width();
                w.pixelSize = (turned ? w.box.width() : w.box.height()) / boxPerPoint;
            }
            QVERIFY2(!words.isEmpty(), "no text in the PDF");
            checkTexts(words, 1.0, QRectF(QPointF(0, 0), page), problems);
            // Tight: rendered on a transparent page, no border pixel is empty.
            const QString out = dir.filePath(QStringLiteral("page"));
            runTool(pdftocairo,
                {QStringLiteral("-png"), QStringLiteral("-transp"), QStringLiteral("-singlefile"), QStringLiteral("-r"),
                    QStringLiteral("144"), file, out}); // 2 px a point: whole pixels on a page of whole points
            const QImage rendered(out + QStringLiteral(".png"));
            QVERIFY(!rendered.isNull());
            QCOMPARE(transparentBorderPixels(rendered), 0);
        }
        QVERIFY2(problems.problems.isEmpty(), qPrintable(problems.problems.join(QStringLiteral("; "))));
    }
};

QTEST_MAIN(TestExportPresets)
#include "tst_exportpresets.moc"
