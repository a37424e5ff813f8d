// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The assembled application, offscreen: open a sample, step through every
// step and back, edit with undo, save and reload, export every figure in every
// format from the export dialog, and write the headless report.

#include "TestImages.h"

#include "mainwindow/ExportDialog.h"
#include "panels/StepSpinBox.h"
#include "mainwindow/MainWindow.h"
#include "document/EditProblemCommand.h"
#include "document/RemoveStrategyCommand.h"
#include "document/ProjectDocument.h"
#include "charts/ChartFactory.h"
#include "export/Figures.h"
#include "export/TimelineExport.h"
#include "export/HeadlessReport.h"
#include "models/DropPreview.h"
#include "grid/GridView.h"
#include "models/GroupListModel.h"
#include "panels/DiagnosticsPanel.h"
#include "panels/GroupsPanel.h"
#include "panels/StepControls.h"
#include "render/GridRenderer.h"

#include <QChart>
#include <QAction>
#include <QStatusBar>
#include <QJsonObject>
#include <QJsonDocument>
#include <QJsonArray>
#include <QDir>
#include <QFileInfo>
#include <QLineSeries>
#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QMenuBar>
#include <QMimeData>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QLabel>
#include <QSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QDockWidget>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include <memory>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

bool notBlank(const QImage &image) { return distinctColours(image, 5) > 3; }

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadTests"));
        QSettings().clear();
    }

    void stepThroughEveryStepAndBack()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        QTRY_VERIFY(doc->cursor() != nullptr);
        const int steps = doc->cursor()->stepCount();
        QCOMPARE(steps, 10); // S1-baseline: 9 patches + drain
        StepControls *controls = window.stepControls();
        controls->first();
        QCOMPARE(doc->moment().step, 0);
        QVERIFY(controls->findChild<QLabel *>()->text().startsWith(QStringLiteral("step 1 of 9")));
        QVERIFY(GridRenderer::momentText(*doc->cursor()).startsWith(QStringLiteral("step 1 of 9, ")));
        for (int i = 1; i < steps; ++i) {
            controls->next();
            QCOMPARE(doc->moment().step, i);
        }
        // One numbering on the step control and the grids: the paper's nine
        // compute steps, then the drain.
        const auto *label = controls->findChild<QLabel *>();
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("drain (after step 9)"));
        QCOMPARE(GridRenderer::momentText(*doc->cursor()), QStringLiteral("drain (after step 9)"));
        controls->next(); // stays on the last step
        QCOMPARE(doc->moment().step, steps - 1);
        for (int i = steps - 2; i >= 0; --i) {
            controls->previous();
            QCOMPARE(doc->moment().step, i);
        }
        QVERIFY(notBlank(window.inputGrid()->grab().toImage()));
        QVERIFY(notBlank(window.outputGrid()->grab().toImage()));
        QVERIFY(notBlank(window.grab().toImage()));
    }

    // S1-baseline on the paper example loads pixel (2,0) a third time at step
    // 7 (patches 0, 3 and 6 all hold it): clicking that warning jumps there
    // and rings the pixel.
    void findingJumpsAndHighlights()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        QTRY_VERIFY(doc->cursor() != nullptr);
        QTreeWidget *tree = window.diagnostics()->tree();
        QTRY_VERIFY(tree->topLevelItemCount() > 0);
        QTreeWidgetItem *first = nullptr;
        for (int i = 0; i < tree->topLevelItemCount() && !first; ++i)
            if (tree->topLevelItem(i)->data(0, DiagnosticsPanel::DiagnosticIndexRole).toInt() >= 0)
                first = tree->topLevelItem(i);
        QVERIFY(first);
        emit tree->itemActivated(first, 0);
        QCOMPARE(doc->moment().step, 6);
        QVERIFY(window.inputGrid()->highlight().has_value());
        QCOMPARE(*window.inputGrid()->highlight(), (GridCell{2, 0}));
        QVERIFY(!window.outputGrid()->highlight().has_value());
    }

    // Every sample: open, step through every step and back, then every figure
    // in every format through the catalogue the export dialog and CLI use.
    void everySample_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(CONVOFFLOAD_SAMPLES));
        for (const QString &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void everySample()
    {
        QFETCH(QString, path);
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openFile(path));
        ProjectDocument *doc = window.document();
        QTRY_VERIFY_WITH_TIMEOUT(!doc->busy() && doc->cursor() != nullptr, 20000);
        const int steps = doc->cursor()->stepCount();
        StepControls *controls = window.stepControls();
        controls->first();
        for (int i = 1; i < steps; ++i)
            controls->next();
        QCOMPARE(doc->moment().step, steps - 1);
        QVERIFY(notBlank(window.inputGrid()->grab().toImage()));
        for (int i = steps - 2; i >= 0; --i)
            controls->previous();
        QCOMPARE(doc->moment().step, 0);

        QTemporaryDir dir;
        FigureSource source(doc->project(), path.toStdString());
        for (const QString &name : figureNames()) {
            FigureRequest request;
            request.kind = *figureKindFromName(name);
            request.strategy = doc->project().strategies.front().name;
            request.versus = doc->project().strategies.back().name;
            const Figure figure = makeFigure(source, request);
            for (const char *extension : {"png", "svg", "pdf"}) {
                const QString file = dir.filePath(name + QLatin1Char('.') + QLatin1String(extension));
                const ExportResult result = exportFigure(figure.paint, QSize(640, 480), file, figure.title);
                QVERIFY2(result.ok, qPrintable(result.error));
                QVERIFY2(QFile(file).size() > 500, qPrintable(file));
            }
        }
    }

    // The Groups dock edits the current strategy by keyboard too: a new group
    // from a selection is one undoable edit, and a refusal is shown, not silent.
    void groupsDockEdits()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        doc->setCurrentStrategy(3); // "Mine": [[0,1],[2,5],[4,3],[6,7],[8]]
        QTRY_VERIFY(!doc->busy() && doc->simulation() && doc->simulation()->spec.name == "Mine");
        GroupsPanel *panel = window.groups();
        QTreeView *view = panel->view();
        const QModelIndex group1 = view->model()->index(1, 0);
        view->selectionModel()->select(view->model()->index(1, 0, group1), QItemSelectionModel::Select); // patch 5
        panel->newGroupFromSelection();
        const Groups expected{{0, 1}, {2}, {4, 3}, {6, 7}, {8}, {5}};
        QCOMPARE(doc->project().strategies[3].groups, expected);
        QTRY_VERIFY(!doc->busy() && doc->simulation()->spec.groups == expected);
        // 6 steps: one more compute than "Mine" (121 cycles), Row-by-Row is the best heuristic (117).
        QTRY_VERIFY2(panel->feedback().contains(QLatin1String("vs best heuristic Row-by-Row")), qPrintable(panel->feedback()));
        QVERIFY2(panel->feedback().contains(QLatin1String("runs correctly")), qPrintable(panel->feedback()));
        // Row-by-Row itself is not compared with itself ("+0 (0.0 %) vs best heuristic Row-by-Row").
        doc->setCurrentStrategy(1);
        QTRY_VERIFY(!doc->busy() && doc->simulation() && doc->simulation()->spec.name == "Row-by-Row");
        QTRY_VERIFY2(
            panel->feedback().contains(QLatin1String("the best heuristic of the project")), qPrintable(panel->feedback()));
        QVERIFY2(!panel->feedback().contains(QLatin1String("vs best heuristic")), qPrintable(panel->feedback()));
        doc->setCurrentStrategy(3);
        QTRY_VERIFY(!doc->busy() && doc->simulation() && doc->simulation()->spec.name == "Mine");
        doc->undoStack()->undo();
        QCOMPARE(doc->project().strategies[3].groups, (Groups{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}}));
        view->selectionModel()->clearSelection();
        panel->newGroupFromSelection(); // nothing selected
        QVERIFY(!panel->lastMessage().isEmpty());
        QCOMPARE(doc->project().strategies[3].groups, (Groups{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}}));
    }

    // Patches selected on the output grid are selected in the Groups dock,
    // their group opened and scrolled into view (issue 41: the dock stayed
    // at its first groups).
    void gridSelectionShowsInTheGroupsDock()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(sample("lenet5-conv1.json")));
        ProjectDocument *doc = window.document();
        doc->setCurrentStrategy(1); // Row-by-Row, G = 8
        QTRY_VERIFY_WITH_TIMEOUT(!doc->busy() && doc->simulation() && doc->simulation()->spec.name == "Row-by-Row", 20000);
        auto *groupsDock = window.findChild<QDockWidget *>(QStringLiteral("groupsDock"));
        QVERIFY(groupsDock);
        groupsDock->raise();
        QTest::qWait(50);
        GroupsPanel *panel = window.groups();
        QTreeView *view = panel->view();
        const Groups &groups = panel->model()->groups();
        QVERIFY(groups.size() > 40);
        // Two patches of a group far down the list, found from the groups themselves.
        const Group &far = groups[groups.size() - 3];
        QVERIFY(far.size() >= 2);
        window.outputGrid()->setSelectedPatches({far[1], far[0]});
        QModelIndexList selected = view->selectionModel()->selectedIndexes();
        QSet<int> ids;
        for (const QModelIndex &index : selected)
            ids.insert(index.data(GroupListModel::PatchIdRole).toInt());
        QCOMPARE(ids, (QSet<int>{int(far[0]), int(far[1])}));
        for (const QModelIndex &index : selected)
            QCOMPARE(index.parent().row(), int(groups.size() - 3));
        const QRect row = view->visualRect(view->currentIndex());
        QVERIFY2(!row.isEmpty() && view->viewport()->rect().contains(row),
            qPrintable(QStringLiteral("row at %1, viewport %2 tall").arg(row.y()).arg(view->viewport()->height())));
        window.outputGrid()->clearSelection();
        QVERIFY(view->selectionModel()->selectedIndexes().isEmpty());
    }

    void editFeedbackInTheWindow()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        doc->setCurrentStrategy(3); // "Mine": [[0,1],[2,5],[4,3],[6,7],[8]]
        QTRY_VERIFY(!doc->busy() && doc->simulation() && doc->simulation()->spec.name == "Mine");
        GroupListModel *model = window.groups()->model();

        // The Groups menu holds the dock's actions, split and merge among them.
        QMenu *groupsMenu = nullptr;
        for (QAction *a : window.menuBar()->actions())
            if (a->text() == QLatin1String("&Groups"))
                groupsMenu = a->menu();
        QVERIFY(groupsMenu);
        QVERIFY(groupsMenu->actions().contains(window.groups()->splitAction()));
        QVERIFY(groupsMenu->actions().contains(window.groups()->mergeAction()));

        // Three patches in group 1 (G = 2): flagged on the output grid.
        QCOMPARE(model->moveToGroup({2}, 0), QString());
        QTRY_VERIFY(!doc->busy() && doc->simulation()->spec == doc->project().strategies[3]);
        QCOMPARE(window.outputGrid()->flaggedPatches(), (std::vector<PatchId>{0, 1, 2}));

        // A drag of patch 8 over patch 6 previews group 4's field on the input grid.
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(3, {8}));
        GridView *output = window.outputGrid();
        const QPoint target = output->geometry().cellRect(2, 0).center().toPoint();
        QDragEnterEvent enter(target, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(output, &enter);
        QDragMoveEvent move(target, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(output, &move);
        QVERIFY(move.isAccepted());
        QVERIFY(window.inputGrid()->dropPreview() && window.inputGrid()->dropPreview()->isActive());
        // Group 4 (patches 6, 7) and patch 8: 3 patches, over the 2 a step computes.
        QCOMPARE(window.inputGrid()->title(),
            QStringLiteral("Group 4 would need 15 pixels (+3), 30 elements of 80; \u26a0 3 patches, over the 2 that nbop_pe = 72 "
                           "computes in a step"));
        QDir().mkpath(QStringLiteral("/tmp/editfeedback-shots"));
        QVERIFY(window.grab().save(QStringLiteral("/tmp/editfeedback-shots/window.png")));
        QDragLeaveEvent leave;
        QCoreApplication::sendEvent(output, &leave);
        QVERIFY(!window.inputGrid()->dropPreview()->isActive());
    }

    void keyboardStepping()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        QTRY_VERIFY(doc->cursor() != nullptr);
        window.stepControls()->lastAction()->trigger();
        QCOMPARE(doc->moment().step, doc->cursor()->stepCount() - 1);
        window.stepControls()->firstAction()->trigger();
        QCOMPARE(doc->moment().step, 0);
    }

    void editUndoSaveReload()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        QVERIFY(!doc->isModified());
        Problem changed = doc->problem();
        changed.hardware.mem_size = 71; // Row-by-Row needs 72 at step 2
        doc->undoStack()->push(new EditProblemCommand(doc, changed, QStringLiteral("hardware.mem_size")));
        QVERIFY(doc->isModified());
        QVERIFY(window.windowTitle().contains(QLatin1String("paper-example.json")));
        QTRY_VERIFY(!doc->comparison().empty() && doc->comparison()[1].valid == false);
        doc->undoStack()->undo();
        QCOMPARE(doc->problem().hardware.mem_size, 80);
        QVERIFY(!doc->isModified());
        doc->undoStack()->redo();
        const QString path = dir.filePath(QStringLiteral("saved.json"));
        QVERIFY(doc->save(path).isEmpty());
        QVERIFY(!doc->isModified());
        ProjectDocument reloaded;
        QVERIFY(reloaded.load(path).isEmpty());
        QCOMPARE(reloaded.problem().hardware.mem_size, 71);
        QVERIFY(reloaded.project() == doc->project());
        QVERIFY(!doc->save(QStringLiteral("/nonexistent-dir/x.json")).isEmpty());
        QVERIFY(!reloaded.load(QStringLiteral("/nonexistent-dir/x.json")).isEmpty());
    }

    // A big layer's simulation runs on a worker and stops when cancelled,
    // leaving the window responsive and the document usable.
    void cancelLongWork()
    {
        Project project = loadProject(sample("paper-example.json").toStdString());
        project.problem.layer = {3, 400, 400, 3, 3, 16, 1, 1, 0, 0, 0, 0};
        project.problem.hardware.nbop_pe = 27 * 16 * 16;
        project.problem.hardware.mem_size = 1 << 30;
        project.strategies = {{"ZigZag", StrategyKind::ZigZag, 16, {}}};
        ProjectDocument doc;
        doc.resetToProject(project);
        QVERIFY(doc.busy());
        doc.cancel();
        // busy() drops when the cancelled snapshot has been taken in.
        QTRY_VERIFY_WITH_TIMEOUT(!doc.busy() && doc.simulation() != nullptr, 30000);
        QCOMPARE(doc.simulation()->failure, std::string("simulation cancelled"));
        QVERIFY(doc.cursor() == nullptr);
        // The next edit simulates again, to the end.
        Problem small = doc.problem();
        small.layer = {1, 8, 8, 3, 3, 1, 1, 1, 0, 0, 0, 0};
        small.hardware.nbop_pe = 9 * 16;
        doc.setProblem(small);
        QTRY_VERIFY(doc.cursor() != nullptr);
        QVERIFY(doc.simulation()->failure.empty());
    }

    // Undoing the deletion of the current strategy puts it back at the same
    // index: its own simulation must be shown, not its neighbour's.
    void undoDeleteShowsTheRestoredStrategy()
    {
        ProjectDocument doc;
        QVERIFY(doc.load(sample("paper-example.json")).isEmpty());
        doc.setCurrentStrategy(1);
        QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec.name == "Row-by-Row");
        doc.undoStack()->push(new RemoveStrategyCommand(&doc, 1));
        QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec.name == "ZigZag");
        doc.undoStack()->undo();
        QCOMPARE(doc.currentStrategy(), 1);
        QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec.name == "Row-by-Row");
    }

    void exportEveryFigure_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("extension");
        for (const QString &name : figureNames())
            for (const char *extension : {"png", "svg", "pdf"})
                QTest::addRow("%s.%s", qPrintable(name), extension)
                    << int(*figureKindFromName(name)) << QString::fromLatin1(extension);
    }
    void exportEveryFigure()
    {
        QFETCH(int, kind);
        QFETCH(QString, extension);
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(sample("paper-example.json")));
        QTRY_VERIFY(window.document()->cursor() != nullptr);
        ExportDialog dialog(window.document());
        dialog.setFigure(FigureKind(kind));
        const QString path = dir.filePath(QStringLiteral("figure.") + extension);
        const QString error = dialog.exportFigureTo(path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray data = file.readAll();
        if (extension == QLatin1String("png"))
            QVERIFY(notBlank(QImage::fromData(data)));
        else if (extension == QLatin1String("svg"))
            QVERIFY(data.contains("<path") || data.contains("<rect") || data.contains("<polyline"));
        else
            QVERIFY(data.startsWith("%PDF") && data.contains("/Type /Page"));
        const QString metrics = dir.filePath(QStringLiteral("metrics.csv"));
        QVERIFY(dialog.exportMetricsTo(metrics).isEmpty());
        QVERIFY(QFile(metrics).size() > 0);
    }

    // The Export dialog opens with the last export's figure, preset and title
    // choice, and with this project's file name, not another's (issue 41,
    // item 4); tst_exportpresets noTitleLeavesTheTitleOut draws the figures.
    void exportDialogRemembersItsChoices()
    {
        const auto pathField = [](const ExportDialog &dialog) {
            for (QLineEdit *field : dialog.findChildren<QLineEdit *>())
                if (field->placeholderText().startsWith(QStringLiteral("figure.png")))
                    return field;
            return static_cast<QLineEdit *>(nullptr);
        };
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("compare.png"));
        {
            MainWindow window;
            QVERIFY(window.openFile(sample("paper-example.json")));
            QTRY_VERIFY(window.document()->cursor() != nullptr);
            ExportDialog dialog(window.document());
            QCheckBox *noTitle = nullptr;
            for (QCheckBox *box : dialog.findChildren<QCheckBox *>())
                if (box->text().startsWith(QStringLiteral("Leave out the title")))
                    noTitle = box;
            QVERIFY(noTitle && noTitle->text().startsWith(QStringLiteral("Leave out the title")));
            QVERIFY(!noTitle->isChecked()); // a first run: titled
            dialog.setFigure(FigureKind::Compare);
            dialog.setPreset(QStringLiteral("paper-column"));
            noTitle->setChecked(true);
            pathField(dialog)->setText(png);
            QVERIFY(dialog.exportFigureTo(png).isEmpty());
            dialog.rememberChoices();
        }
        {
            MainWindow window;
            QVERIFY(window.openFile(sample("paper-example.json")));
            QTRY_VERIFY(window.document()->cursor() != nullptr);
            ExportDialog dialog(window.document());
            QCOMPARE(dialog.figureSize(), QSize(321, 246)); // the column's 85 × 65 mm at 96 px per inch
            QCOMPARE(pathField(dialog)->text(), png);
            bool noTitle = false;
            for (QCheckBox *box : dialog.findChildren<QCheckBox *>())
                if (box->text().startsWith(QStringLiteral("Leave out the title")))
                    noTitle = box->isChecked();
            QVERIFY(noTitle);
            QComboBox *figure = nullptr;
            for (QComboBox *box : dialog.findChildren<QComboBox *>())
                if (box->findData(int(FigureKind::Storyboard)) >= 0)
                    figure = box;
            QVERIFY(figure);
            QCOMPARE(FigureKind(figure->currentData().toInt()), FigureKind::Compare);
        }
        {
            // Another project: the same figure and preset, no file name of the first's.
            MainWindow window;
            QVERIFY(window.openFile(sample("lenet5-conv1.json")));
            QTRY_VERIFY(window.document()->cursor() != nullptr);
            ExportDialog dialog(window.document());
            QCOMPARE(dialog.figureSize(), QSize(321, 246));
            QCOMPARE(pathField(dialog)->text(), QString());
        }
        QSettings().remove(QStringLiteral("export")); // the tests after this one start afresh
    }

    // Ctrl+Y redoes, as Ctrl+Shift+Z does (users of other tools reach for it).
    void ctrlYRedoes()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        doc->setCurrentStrategy(3);
        QTRY_VERIFY(!doc->busy() && doc->simulation() && doc->simulation()->spec.name == "Mine");
        QCOMPARE(window.groups()->model()->moveToGroup({8}, 0), QString());
        const Groups edited = doc->project().strategies[3].groups;
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->project().strategies[3].groups, (Groups{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}}));
        QTest::keyClick(&window, Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(doc->project().strategies[3].groups, edited);
        QTRY_VERIFY(!doc->busy());
    }

    // Another project opens at its first step: the step of the one before
    // (step 7 of paper-example) was carried over to lenet5-conv1.
    void anotherProjectStartsAtItsFirstStep()
    {
        MainWindow window;
        QVERIFY(window.openFile(sample("paper-example.json")));
        QTRY_VERIFY(window.document()->cursor() != nullptr);
        window.document()->seek({6, Action::Compute});
        QCOMPARE(window.document()->moment().step, 6);
        QVERIFY(window.openFile(sample("lenet5-conv1.json")));
        QTRY_VERIFY(!window.document()->busy() && window.document()->cursor() != nullptr);
        QCOMPARE(window.document()->moment(), (Moment{0, Action::Compute}));
    }

    // The Step box numbers as the step control does: compute steps 1..n,
    // then "drain", not n + 1 (it read 33 where the rest said "drain (after
    // step 32)").
    void exportDialogNamesTheDrain()
    {
        MainWindow window;
        QVERIFY(window.openFile(sample("paper-example.json")));
        QTRY_VERIFY(window.document()->cursor() != nullptr);
        const auto &steps = window.document()->cursor()->result().steps;
        QVERIFY(steps.size() > 1 && steps.back().drain); // the last group's outputs are written after it
        ExportDialog dialog(window.document());
        auto *step = dialog.findChild<StepSpinBox *>();
        QVERIFY(step);
        QCOMPARE(step->maximum(), int(steps.size()));
        step->setValue(step->maximum());
        QCOMPARE(step->text(), QStringLiteral("drain"));
        step->setValue(3);
        QCOMPARE(step->text(), QStringLiteral("3"));
        step->selectAll();
        QTest::keyClicks(step, QStringLiteral("drain"));
        QCOMPARE(step->value(), step->maximum());
        // Text that is neither a step nor the drain is refused as typed: the value stays.
        step->selectAll();
        QTest::keyClicks(step, QStringLiteral("xyz"));
        QCOMPARE(step->value(), step->maximum());
        QVERIFY(!step->text().contains(QLatin1String("xyz")));
        QTest::keyClick(step, Qt::Key_Down);
        QCOMPARE(step->value(), int(steps.size()) - 1);
        QCOMPARE(step->text(), QString::number(steps.size() - 1));
    }

    // The dialog's presets are the CLI's --preset: "paper column" lays the
    // figure out at 85 × 65 mm (at 96 px per inch) and writes the PNG at
    // 300 dpi; "Custom" gives the pixel size back to the user.
    // File › Export Timeline (docs/reference/trace.md): the current
    // strategy's Steps spans follow one another and add up to its duration.
    void exportTimelineWritesTheSchedule()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(sample("paper-example.json")));
        ProjectDocument *doc = window.document();
        doc->setCurrentStrategy(2); // ZigZag: 5 steps and the drain, 121 cycles
        const auto ready = [doc] {
            const auto sim = doc->simulation();
            return !doc->busy() && sim && sim->spec.name == "ZigZag" && sim->problem == doc->problem();
        };
        QTRY_VERIFY(ready());
        QAction *action = window.findChild<QAction *>(QStringLiteral("exportTimeline"));
        QVERIFY(action);
        QVERIFY(action->statusTip().contains(QStringLiteral("ui.perfetto.dev")));
        QVERIFY(defaultTimelineFileName(*doc).endsWith(QStringLiteral("/paper-example-ZigZag.json")));

        QTemporaryDir dir;
        // The Steps track (tid 1): its spans' count, their sum, and no gap or overlap.
        const auto readSteps = [](const QString &path, int &count, double &sum) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonDocument json = QJsonDocument::fromJson(file.readAll());
            QVERIFY(json.isObject());
            count = 0;
            sum = 0;
            for (const QJsonValue &v : json.object().value(QStringLiteral("traceEvents")).toArray()) {
                const QJsonObject e = v.toObject();
                if (e.value(QStringLiteral("ph")).toString() != QStringLiteral("X")
                    || e.value(QStringLiteral("tid")).toInt() != 1)
                    continue;
                QCOMPARE(e.value(QStringLiteral("ts")).toDouble(), sum); // each starts where the last ended
                sum += e.value(QStringLiteral("dur")).toDouble();
                ++count;
            }
        };
        const QString linear = dir.filePath(QStringLiteral("zigzag.json"));
        QVERIFY(window.exportTimelineTo(linear));
        QCOMPARE(
            window.statusBar()->currentMessage(), QStringLiteral("Wrote %1 (6 steps)").arg(QDir::toNativeSeparators(linear)));
        int count = 0;
        double sum = 0;
        readSteps(linear, count, sum);
        QCOMPARE(count, 6);
        QCOMPARE(sum, 121.0); // 62 input + 36 kernel elements loaded, 18 written, 5 computes

        // With a transfer model of burst 1 each DMA run adds its t_setup.
        Problem p = doc->problem();
        p.hardware.transfer = Transfer{Layout::Nhwc, 1, 20.0};
        doc->undoStack()->push(new EditProblemCommand(doc, p, QStringLiteral("hardware.transfer")));
        QTRY_VERIFY(ready());
        const SimulationResult &r = doc->simulation()->result;
        QVERIFY(r.transferRuns() > 0);
        const QString transfer = dir.filePath(QStringLiteral("zigzag-transfer.json"));
        QVERIFY(window.exportTimelineTo(transfer));
        readSteps(transfer, count, sum);
        QCOMPARE(count, 6);
        QCOMPARE(sum, 121.0 + 20.0 * double(r.transferRuns()));
        QCOMPARE(sum, r.totalDuration());

        // Nothing simulated: refused, nothing written.
        ProjectDocument empty;
        const QString none = dir.filePath(QStringLiteral("none.json"));
        QVERIFY(!exportTimeline(empty, none).error.isEmpty());
        QVERIFY(!QFile::exists(none));
    }

    void exportDialogPreset()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(sample("paper-example.json")));
        QTRY_VERIFY(window.document()->cursor() != nullptr);
        ExportDialog dialog(window.document());
        dialog.setFigure(FigureKind::Durations);
        dialog.setPreset(QStringLiteral("paper-column"));
        const QSize column(qRound(85 / 25.4 * 96), qRound(65 / 25.4 * 96));
        QCOMPARE(dialog.figureSize(), column);
        const QString png = dir.filePath(QStringLiteral("column.png"));
        const QString error = dialog.exportFigureTo(png);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(qRound(column.width() * 300 / 96.0), qRound(column.height() * 300 / 96.0)));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
        QVERIFY(notBlank(image));
        auto *width = dialog.findChildren<QSpinBox *>().at(2); // step, storyboard steps, width, height
        QVERIFY(!width->isEnabled());
        dialog.setPreset(QString());
        QVERIFY(width->isEnabled());
        width->setValue(640);
        QCOMPARE(dialog.figureSize().width(), 640);
        const QString custom = dir.filePath(QStringLiteral("custom.png"));
        QVERIFY(dialog.exportFigureTo(custom).isEmpty());
        QCOMPARE(QImage(custom).width(), 640);

        // The grid figures and the storyboard take the preset too: every text
        // of the SVG at the preset's 7.5 pt, 10 px at 96 px an inch.
        dialog.setPreset(QStringLiteral("paper-column"));
        for (const FigureKind kind : {FigureKind::Grid, FigureKind::InputGrid, FigureKind::OutputGrid, FigureKind::Storyboard}) {
            dialog.setFigure(kind);
            const QString svg = dir.filePath(QStringLiteral("figure.svg"));
            const QString failed = dialog.exportFigureTo(svg);
            QVERIFY2(failed.isEmpty(), qPrintable(failed));
            QFile file(svg);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            static const QRegularExpression size(QStringLiteral("<text [^>]*font-size=\"([0-9.]+)\""));
            int texts = 0;
            for (QRegularExpressionMatchIterator it = size.globalMatch(text); it.hasNext(); ++texts)
                QCOMPARE(it.next().captured(1), QStringLiteral("10"));
            QVERIFY2(texts >= 5, qPrintable(figureName(kind)));
        }
    }

    // Figures for a report carry no cursor unless asked (--cursor).
    void exportsCarryNoCursorUnlessAsked()
    {
        const QString path = sample("paper-example.json");
        FigureSource source(loadProject(path.toStdString()), path.toStdString());
        for (const bool asked : {false, true})
            for (FigureKind kind : {FigureKind::Memory, FigureKind::Durations, FigureKind::Cumulative}) {
                FigureRequest request;
                request.kind = kind;
                request.strategy = "ZigZag";
                request.moment = {2, Action::Compute};
                request.cursor = asked;
                const Figure figure = makeFigure(source, request);
                const auto chart = std::static_pointer_cast<QChart>(figure.keepAlive);
                QVERIFY(cursorSeries(chart.get()));
                QCOMPARE(cursorSeries(chart.get())->isVisible(), asked);
            }
    }

    void headlessReport()
    {
        QTemporaryDir dir;
        QString error;
        const QStringList files = writeHeadlessReport(sample("paper-example.json"), dir.path(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // 4 strategies × (grid, memory, durations) + compare png/svg + sweep + storyboard png/pdf
        QCOMPARE(files.size(), 4 * 3 + 2 + 1 + 2);
        for (const QString &f : files)
            QVERIFY2(QFile(f).size() > 1000, qPrintable(f));
        writeHeadlessReport(QStringLiteral("/nonexistent/p.json"), dir.path(), &error);
        QVERIFY(error.contains(QLatin1String("/nonexistent/p.json")));
    }

    // Issue 44: the report's whole work (every traced simulation, the
    // comparison, the sweep) is estimated before any figure; over the budget
    // nothing is written, not even the folder, and the error says what it
    // would need. Before, --report had no work bound at all.
    void headlessReportIsEstimatedFirst()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("report"));
        QString error;
        const QStringList files = writeHeadlessReport(sample("paper-example.json"), folder, &error, WorkBudget{1e-9, 1e15});
        QVERIFY(files.isEmpty());
        QVERIFY2(error.startsWith(sample("paper-example.json")
                     + QStringLiteral(": its figures (4 traced simulations, the comparison and a sweep of group sizes 1..9) "
                                      "would take about 1 s and need about ")),
            qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral("(the limit is 1 s); make the layer smaller, or pass --no-work-limit to write "
                                               "the report anyway")),
            qPrintable(error));
        QVERIFY(!QFileInfo::exists(folder));
        // No budget (--no-work-limit): written.
        error.clear();
        QCOMPARE(writeHeadlessReport(sample("paper-example.json"), folder, &error, std::nullopt).size(), 4 * 3 + 2 + 1 + 2);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
