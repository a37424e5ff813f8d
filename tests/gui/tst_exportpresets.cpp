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

#include "TextProbe.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QChart>
#include <QFile>
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
