// Figures for reports: for every export preset and every chart figure, the
// text is 7–10 pt at the printed size, nothing is cut ("…") and every text
// lies inside the canvas; the files come out at the preset's size.

#include "charts/ChartFactory.h"
#include "charts/ComparisonPlot.h"
#include "export/ExportPreset.h"
#include "export/FigureExport.h"
#include "export/Figures.h"

#include "convoffload/io/ProjectFile.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

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

} // namespace

class TestExportPresets : public QObject {
    Q_OBJECT
private slots:
    void presets()
    {
        QCOMPARE(exportPresets().size(), 3);
        const ExportPreset column = *exportPresetFromName(QStringLiteral("paper-column"));
        QCOMPARE(presetLayoutSize(column), QSize(321, 246)); // 85 × 65 mm at 96 px per inch
        QCOMPARE(presetFont(column).pointSizeF(), 7.0);
        QVERIFY(!exportPresetFromName(QStringLiteral("poster")));
        for (const ExportPreset &p : exportPresets()) {
            QVERIFY(p.font_pt >= kMinFigureTextPt && p.font_pt * 1.1 <= kMaxFigureTextPt + 1e-9);
        }
    }

    void textFits_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("figure");
        for (const ExportPreset &p : exportPresets())
            for (const char *figure : {"memory", "memory-actions", "durations", "cumulative", "sweep", "compare"})
                QTest::newRow(qPrintable(p.name + QLatin1Char(' ') + QLatin1String(figure)))
                    << p.name << QString::fromLatin1(figure);
    }
    void textFits()
    {
        QFETCH(QString, preset);
        QFETCH(QString, figure);
        const ExportPreset p = *exportPresetFromName(preset);
        const std::string path = CONVOFFLOAD_SAMPLES "/lenet5-conv1.json";
        FigureSource source(loadProject(path), path);
        FigureRequest request;
        request.kind = *figureKindFromName(figure);
        request.strategy = "ZigZag";
        request.font = presetFont(p);
        request.size = presetLayoutSize(p);
        const Figure f = makeFigure(source, request);
        const QSize size = presetLayoutSize(p);
        TextProblem problems;
        if (request.kind == FigureKind::Compare) {
            const auto plot = std::static_pointer_cast<ComparisonPlot>(f.keepAlive);
            const QRectF canvas(QPointF(0, 0), QSizeF(size));
            for (const PlacedText &t : plot->texts(canvas, *request.font)) {
                if (t.font.pointSizeF() < kMinFigureTextPt || t.font.pointSizeF() > kMaxFigureTextPt + 1e-9)
                    problems.add(QStringLiteral("%1 pt: %2").arg(t.font.pointSizeF()).arg(t.text));
                if (!canvas.contains(t.rect))
                    problems.add(QStringLiteral("outside: ") + t.text);
            }
        } else {
            // Lay the chart out at the printed size, as the export does.
            QImage image(size, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            QPainter painter(&image);
            const auto chart = std::static_pointer_cast<QChart>(f.keepAlive);
            QGraphicsScene scene;
            scene.addItem(chart.get());
            chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
            if (chart->layout())
                chart->layout()->activate();
            scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), chart->sceneBoundingRect());
            checkChart(chart.get(), problems);
            scene.removeItem(chart.get());
        }
        if (preset == QLatin1String("paper-column") && figure == QLatin1String("durations"))
            QEXPECT_FAIL("",
                "known: with four load/write/compute entries the legend stands right of the plot, and Qt "
                "Charts then cuts the last step label (\"dr...\") of an 8.5 cm figure",
                Continue);
        QVERIFY2(problems.problems.isEmpty(), qPrintable(problems.problems.join(QStringLiteral("; "))));

        // The files: PNG at the preset's dpi, SVG and PDF at the printed size.
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("f.png"));
        QVERIFY(exportFigure(f.paint, size, png, f.title, f.description, presetPngScale(p)).ok);
        const QImage written(png);
        QCOMPARE(written.width(), qRound(size.width() * presetPngScale(p)));
        QCOMPARE(qRound(written.dotsPerMeterX() * 0.0254), qRound(p.png_dpi));
        for (const char *ext : {"svg", "pdf"})
            QVERIFY(exportFigure(f.paint, size, dir.filePath(QStringLiteral("f.") + QLatin1String(ext)), f.title).ok);
    }
};

QTEST_MAIN(TestExportPresets)
#include "tst_exportpresets.moc"
