// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The side panels of the main window on the paper's Example: the item models
// (checked by QAbstractItemModelTester), the step table's figures worked by
// hand, the problem editor's validation and undo, the strategy list's actions
// and undo, and diagnostics that move the document to their step.
// Set CONVOFFLOAD_PANEL_SHOTS to a folder to also save a PNG of each panel.

#include "TestPrinting.h"

#include "document/AddStrategyCommand.h"
#include "document/EditProblemCommand.h"
#include "document/ProjectDocument.h"
#include "models/StepTableModel.h"
#include "models/StrategyListModel.h"
#include "panels/DiagnosticsPanel.h"
#include "panels/GroupsPanel.h"
#include "panels/ProblemEditor.h"
#include "panels/StepTable.h"
#include "panels/StrategyPanel.h"

#include "convoffload/io/StrategyCsv.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QLocale>
#include <QFont>
#include <QTest>
#include <QToolTip>
#include <QTreeView>
#include <QTreeWidget>

using namespace convoffload;
using namespace convoffload::ui;

namespace QTest {
template <> inline char *toString(const convoffload::Moment &m)
{
    return qstrdup(("step " + std::to_string(m.step) + ", " + std::string(convoffload::actionName(m.action))).c_str());
}
} // namespace QTest

namespace {

const QString kPaperExample = QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json");

QString name(const ProjectDocument &doc, int i)
{
    return QString::fromStdString(doc.project().strategies.at(std::size_t(i)).name);
}

/// True once the document's simulation and comparison describe its project as it is now.
bool settled(const ProjectDocument &doc)
{
    if (doc.busy())
        return false;
    const auto &strategies = doc.project().strategies;
    const auto &rows = doc.comparison();
    if (rows.size() != strategies.size())
        return false;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].name != strategies[i].name)
            return false;
    const auto sim = doc.simulation();
    return doc.currentStrategy() < 0 || (sim && sim->spec == strategies[std::size_t(doc.currentStrategy())]);
}

QByteArray describe(const ProjectDocument &doc)
{
    QByteArray out = "busy " + QByteArray::number(doc.busy()) + ", current " + QByteArray::number(doc.currentStrategy())
        + ", simulation of " + (doc.simulation() ? QByteArray(doc.simulation()->spec.name.c_str()) : QByteArray("none"))
        + ", strategies";
    for (const StrategySpec &s : doc.project().strategies)
        out += " " + QByteArray(s.name.c_str());
    out += ", comparison";
    for (const CompareRow &r : doc.comparison())
        out += " " + QByteArray(r.name.c_str());
    return out;
}

void saveShot(QWidget &widget, const char *file)
{
    const QByteArray folder = qgetenv("CONVOFFLOAD_PANEL_SHOTS");
    if (folder.isEmpty())
        return;
    QDir().mkpath(QString::fromLocal8Bit(folder));
    const QString path = QString::fromLocal8Bit(folder) + QLatin1Char('/') + QLatin1String(file);
    QVERIFY2(widget.grab().save(path), qPrintable(path));
}

} // namespace

// Loads the paper's Example and waits for the worker threads.
#define LOAD_PAPER(doc)                                                                                                          \
    do {                                                                                                                         \
        QCOMPARE((doc).load(kPaperExample), QString());                                                                          \
        QTRY_VERIFY((doc).simulation() != nullptr);                                                                              \
        QTRY_VERIFY(!(doc).comparison().empty());                                                                                \
        QTRY_VERIFY2(settled(doc), describe(doc).constData());                                                                   \
    } while (false)

class TestPanels : public QObject {
    Q_OBJECT
private slots:
    void modelsPassTheTester()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        StrategyPanel strategies(&doc);
        StepTable steps(&doc);
        DiagnosticsPanel diagnostics(&doc);
        QAbstractItemModelTester t1(strategies.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester t2(steps.stepModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester t3(diagnostics.tree()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);

        QCOMPARE(strategies.model()->rowCount(), 4);
        const QModelIndex zigzag = strategies.model()->index(2);
        QCOMPARE(zigzag.data().toString(), QStringLiteral("ZigZag"));
        QCOMPARE(zigzag.data(StrategyListModel::KindRole).toString(), QStringLiteral("zigzag"));
        QCOMPARE(zigzag.data(StrategyListModel::GroupSizeRole).toLongLong(), 2);
        QCOMPARE(zigzag.data(StrategyListModel::ValidRole).toBool(), true);
        QCOMPARE(zigzag.data(StrategyListModel::DurationRole).toDouble(), 121.0);
        QVERIFY(zigzag.data(Qt::ToolTipRole).toString().contains(QStringLiteral("121")));
        // The three states. ZigZag: 31 pixel loads (counted by hand) of
        // 25 pixels, none loaded 3 times (each shared column or row is reloaded
        // at most once); S1-baseline loads (2,0), (2,1), (2,3) and (2,4) three
        // times (worked out in diagnosticsSeekToTheirStep).
        QCOMPARE(zigzag.data(StrategyListModel::StatusRole).toInt(), int(StrategyListModel::Status::Valid));
        QCOMPARE(zigzag.data(StrategyListModel::VerdictRole).toString(),
            QStringLiteral("runs correctly, meets the paper's assumptions"));
        const QModelIndex baseline = strategies.model()->index(0);
        QCOMPARE(baseline.data(StrategyListModel::StatusRole).toInt(), int(StrategyListModel::Status::BreaksAssumptions));
        QCOMPARE(baseline.data(StrategyListModel::ValidRole).toBool(), true);
        QCOMPARE(baseline.data(StrategyListModel::VerdictRole).toString(),
            QStringLiteral("runs correctly, breaks the reload assumption on 4 pixels"));
        QVERIFY(baseline.data(StrategyListModel::SummaryRole)
                    .toString()
                    .endsWith(QStringLiteral(" · breaks the reload assumption on 4 pixels")));
        QVERIFY2(
            baseline.data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Runs correctly, breaks the reload assumption on 4 pixels (the paper assumes at most "
                                         "2 loads per pixel and per kernel")),
            qPrintable(baseline.data(Qt::ToolTipRole).toString()));
        QCOMPARE(strategies.model()->index(0).data(StrategyListModel::GroupSizeRole).toLongLong(), 1); // s1-baseline
        QCOMPARE(strategies.model()->index(3).data(StrategyListModel::GroupSizeRole).toLongLong(), 0); // groups

        // Every change the models go through is watched by the testers.
        doc.setCurrentStrategy(2);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(doc.simulation()->spec.name, std::string("ZigZag"));
        StepTableModel *m = steps.stepModel();
        QCOMPARE(m->rowCount(), 6); // 5 steps + drain
        QCOMPARE(m->columnCount(), int(StepTableModel::LinearColumnCount)); // no transfer model: no run columns
        // Step 2 loads 12 input elements, writes 4, computes once: 12 + 4 + 1.
        QCOMPARE(m->index(1, StepTableModel::LoadedInputColumn).data(StepTableModel::ValueRole).toLongLong(), 12);
        QCOMPARE(m->index(1, StepTableModel::WrittenColumn).data(StepTableModel::ValueRole).toLongLong(), 4);
        QCOMPARE(m->index(1, StepTableModel::DurationColumn).data(StepTableModel::ValueRole).toDouble(), 17.0);
        QCOMPARE(m->index(1, StepTableModel::DurationColumn).data().toString(), QStringLiteral("17"));
        // 62 input + 36 kernel elements loaded, 18 written, 5 computes.
        QCOMPARE(m->index(5, StepTableModel::CumulativeColumn).data(StepTableModel::ValueRole).toDouble(), 121.0);
        QCOMPARE(m->index(5, StepTableModel::CumulativeColumn).data().toString(), QStringLiteral("121"));
        QCOMPARE(m->index(5, StepTableModel::StepColumn).data().toString(), QStringLiteral("drain"));
        QCOMPARE(m->index(0, StepTableModel::StepColumn).data().toString(), QStringLiteral("1"));
        QCOMPARE(m->index(4, StepTableModel::StepColumn).data(StepTableModel::StepIndexRole).toInt(), 4);
        // One number format in every column, counts and cycles alike: the
        // locale's grouping (German: 12.345) wherever a number is shown.
        {
            const QLocale before;
            QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
            for (int row = 0; row < m->rowCount(); ++row)
                for (int column = StepTableModel::LoadedInputColumn; column < m->columnCount(); ++column) {
                    const QModelIndex i = m->index(row, column);
                    QCOMPARE(i.data().toString(), QLocale().toString(qlonglong(i.data(StepTableModel::ValueRole).toDouble())));
                }
            QLocale::setDefault(before);
        }
        QCOMPARE(m->index(0, StepTableModel::FootprintColumn).data(StepTableModel::ValueRole).toLongLong(), 64);
        QCOMPARE(Qt::Alignment(m->index(0, StepTableModel::DurationColumn).data(Qt::TextAlignmentRole).toInt())
                & Qt::AlignHorizontal_Mask,
            Qt::AlignRight);

        doc.setCurrentStrategy(0); // S1-baseline: 9 steps + drain, with warnings
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(m->rowCount(), 10);
        QVERIFY(diagnostics.tree()->topLevelItemCount() > 0);

        // Edits, an invalid layer (no simulation at all) and back.
        Problem p = doc.problem();
        p.layer.h_k = 9;
        doc.undoStack()->push(new EditProblemCommand(&doc, p, QStringLiteral("layer.h_k")));
        QTRY_VERIFY(settled(doc) || (!doc.busy() && doc.simulation() == nullptr));
        QTRY_COMPARE(m->rowCount(), 0);
        QCOMPARE(
            strategies.model()->index(2).data(StrategyListModel::StatusRole).toInt(), int(StrategyListModel::Status::Pending));
        doc.undoStack()->undo();
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(m->rowCount(), 10);
        strategies.duplicateAction()->trigger();
        strategies.deleteAction()->trigger();
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
    }

    void stepTableFollowsTheMoment()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        doc.setCurrentStrategy(2);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        StepTable table(&doc);
        table.resize(760, 260);
        table.show();

        doc.seek({3, Action::Compute});
        QCOMPARE(table.currentIndex().row(), 3);
        // Picking a row moves the document to the end of that step.
        table.selectionModel()->setCurrentIndex(
            table.model()->index(1, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(doc.moment(), (Moment{1, Action::Compute}));
        // A moment inside a step selects its row without being sent back to its end.
        doc.seek({4, Action::LoadInput});
        QCOMPARE(table.currentIndex().row(), 4);
        QCOMPARE(doc.moment(), (Moment{4, Action::LoadInput}));
        QCOMPARE(table.selectionModel()->selectedRows().size(), 1);
        saveShot(table, "step-table.png");
    }

    // The step table sizes its columns from a few cells (the model's widest
    // rows) and its rows from one: the sizes must be those Qt's
    // ResizeToContents gives from every cell, for every strategy shown
    // (other steps: a reset; as many steps: an update in place).
    void stepTableSizesLikeResizeToContents()
    {
        ProjectDocument doc;
        QCOMPARE(doc.load(QStringLiteral(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json")), QString());
        struct Table : StepTable { // Qt's own measures of every cell are protected
            using QTableView::sizeHintForColumn;
            using QTableView::sizeHintForRow;
            using StepTable::StepTable;
        } table(&doc);
        table.resize(900, 400);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QHeaderView *columns = table.horizontalHeader(), *rows = table.verticalHeader();
        for (int strategy = 0; strategy < int(doc.project().strategies.size()); ++strategy) {
            doc.setCurrentStrategy(strategy);
            QTRY_VERIFY(
                !doc.busy() && doc.simulation() && doc.simulation()->spec == doc.project().strategies[std::size_t(strategy)]);
            QVERIFY(table.model()->rowCount() > 1);
            QVERIFY(table.model()->rowCount() <= columns->resizeContentsPrecision()); // Qt measures every row
            for (int c = 0; c < table.model()->columnCount(); ++c) {
                const int contents = std::max(columns->sectionSizeHint(c), table.sizeHintForColumn(c));
                QCOMPARE(
                    table.columnWidth(c), std::clamp(contents, columns->minimumSectionSize(), columns->maximumSectionSize()));
            }
            for (int r = 0; r < table.model()->rowCount(); ++r) {
                const int contents = std::max(rows->sectionSizeHint(r), table.sizeHintForRow(r));
                QCOMPARE(table.rowHeight(r), std::clamp(contents, rows->minimumSectionSize(), rows->maximumSectionSize()));
            }
        }
    }

    // Stepping through LeNet-5 conv1 (many groups): the Groups dock keeps
    // the group the step computes in view; it stayed at the first groups.
    void groupsDockFollowsTheStep()
    {
        ProjectDocument doc;
        QCOMPARE(doc.load(QStringLiteral(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json")), QString());
        QTRY_VERIFY(!doc.busy() && doc.cursor());
        GroupsPanel panel(&doc);
        panel.resize(320, 300);
        panel.QWidget::show(); // GroupsPanel::show shows a message
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTreeView *view = panel.view();
        const int groups = view->model()->rowCount() - 1; // and "Unassigned"
        QVERIFY2(groups > 40, qPrintable(QString::number(groups)));
        for (const int step : {groups * 2 / 3, groups / 3, groups - 1}) {
            doc.seek({step, Action::Compute});
            QCOMPARE(doc.moment().step, step);
            const QRect row = view->visualRect(view->model()->index(step, 0));
            QVERIFY2(!row.isEmpty() && view->viewport()->rect().contains(row),
                qPrintable(QStringLiteral("step %1: row at %2, viewport %3 tall")
                               .arg(step)
                               .arg(row.y())
                               .arg(view->viewport()->height())));
        }
    }

    // The group the current step computes is marked (bold, tinted) and
    // only that one; none at the drain. Stepped while the dock was hidden
    // behind another tab, the dock shows that group once it is shown again.
    void groupsDockMarksTheCurrentGroup()
    {
        ProjectDocument doc;
        QCOMPARE(doc.load(QStringLiteral(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json")), QString());
        QTRY_VERIFY(!doc.busy() && doc.cursor());
        GroupsPanel panel(&doc);
        panel.resize(320, 300);
        panel.QWidget::show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTreeView *view = panel.view();
        QAbstractItemModel *model = view->model();
        const int groups = model->rowCount() - 1; // and "Unassigned"
        const auto bold = [&](int row) { return model->index(row, 0).data(Qt::FontRole).value<QFont>().bold(); };
        const auto marked = [&] {
            QList<int> rows;
            for (int row = 0; row < model->rowCount(); ++row)
                if (bold(row) || model->index(row, 0).data(Qt::BackgroundRole).isValid())
                    rows << row;
            return rows;
        };
        doc.seek({groups / 2, Action::Compute});
        QCOMPARE(marked(), QList<int>{groups / 2});
        QVERIFY(bold(groups / 2));
        doc.seek({groups, Action::Compute}); // the drain computes no group
        QCOMPARE(marked(), QList<int>{});
        panel.hide();
        const int step = groups * 3 / 4;
        doc.seek({step, Action::Compute});
        QCOMPARE(marked(), QList<int>{step});
        panel.QWidget::show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QRect row = view->visualRect(model->index(step, 0));
        QVERIFY2(!row.isEmpty() && view->viewport()->rect().contains(row),
            qPrintable(QStringLiteral("row at %1, viewport %2 tall").arg(row.y()).arg(view->viewport()->height())));
    }

    // "-5" typed into a field that cannot be negative silently became 5
    // (the spin box drops the minus sign): the minus is refused with why,
    // in a tooltip at the field, for an int and a 64-bit field alike.
    void problemEditorRefusesAMinusSign_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("name");
        QTest::newRow("h_in") << QStringLiteral("layer.h_in") << QStringLiteral("h_in");
        QTest::newRow("mem_size") << QStringLiteral("hardware.mem_size") << QStringLiteral("mem_size");
    }
    void problemEditorRefusesAMinusSign()
    {
        QFETCH(QString, key);
        QFETCH(QString, name);
        ProjectDocument doc;
        LOAD_PAPER(doc);
        ProblemEditor editor(&doc);
        editor.resize(460, 900);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        auto *spin = qobject_cast<QAbstractSpinBox *>(editor.editorFor(key));
        QVERIFY(spin);
        spin->setFocus();
        spin->selectAll();
        QVERIFY(editor.lastRefusal().isEmpty());
        QTest::keyClick(spin, Qt::Key_Minus);
        QVERIFY2(
            editor.lastRefusal().startsWith(name + QStringLiteral(" cannot be negative (")), qPrintable(editor.lastRefusal()));
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), editor.lastRefusal());
        QTest::keyClicks(spin, QStringLiteral("5"));
        QCOMPARE(spin->text().remove(QLocale().groupSeparator()), QStringLiteral("5"));
    }

    void problemEditorValidatesAndUndoes()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        ProblemEditor editor(&doc);
        editor.resize(460, 900);
        editor.show();
        QVERIFY(editor.messageAt(QStringLiteral("layer.h_k")).isEmpty());

        auto *hk = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("layer.h_k")));
        QVERIFY(hk);
        QCOMPARE(hk->value(), 3);
        hk->setValue(9); // bigger than the 5-pixel input
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.problem().layer.h_k, 9);
        QVERIFY2(editor.messageAt(QStringLiteral("layer.h_k")).contains(QStringLiteral("h_k")),
            qPrintable(editor.messageAt(QStringLiteral("layer.h_k"))));
        QVERIFY(editor.messageAt(QStringLiteral("layer.w_k")).isEmpty());
        QVERIFY(editor.generalMessage().isEmpty());
        // The message is on screen under the field's row.
        bool shown = false;
        for (QLabel *label : hk->parentWidget()->findChildren<QLabel *>())
            shown = shown || (label->isVisible() && label->text().contains(QStringLiteral("exceeds the padded input height")));
        QVERIFY(shown);
        saveShot(editor, "problem-editor-error.png");

        doc.undoStack()->undo();
        QCOMPARE(doc.problem().layer.h_k, 3);
        QCOMPARE(hk->value(), 3);
        QCOMPARE(doc.undoStack()->count(), 1); // the refresh pushed nothing
        QVERIFY(editor.messageAt(QStringLiteral("layer.h_k")).isEmpty());

        // Consecutive edits of one field are one undo step.
        hk->setValue(4);
        hk->setValue(5);
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.problem().layer.h_k, 3);

        // 64-bit sizes beyond int.
        auto *mem = qobject_cast<QDoubleSpinBox *>(editor.editorFor(QStringLiteral("hardware.mem_size")));
        QVERIFY(mem);
        QCOMPARE(mem->value(), 80.0);
        mem->setValue(1e12);
        QCOMPARE(doc.problem().hardware.mem_size, std::int64_t(1000000000000));
        doc.undoStack()->undo();
        QCOMPARE(mem->value(), 80.0);
        mem->clear();
        QTest::keyClicks(mem, QStringLiteral("1234567890123"));
        QCOMPARE(doc.problem().hardware.mem_size, std::int64_t(1234567890123));
        doc.undoStack()->undo();
        QCOMPARE(doc.problem().hardware.mem_size, std::int64_t(80));

        // A figure every strategy trips over is a warning at its field.
        auto *nbop = qobject_cast<QDoubleSpinBox *>(editor.editorFor(QStringLiteral("hardware.nbop_pe")));
        nbop->setValue(20);
        QVERIFY(editor.messageAt(QStringLiteral("hardware.nbop_pe")).contains(QStringLiteral("nb_patches_max is 0")));
        doc.undoStack()->undo();
        QVERIFY(editor.messageAt(QStringLiteral("hardware.nbop_pe")).isEmpty());

        // Options.
        auto *policy = qobject_cast<QComboBox *>(editor.editorFor(QStringLiteral("options.write_policy")));
        policy->setCurrentIndex(1);
        QVERIFY(
            doc.problem().options.write_policy == WritePolicy::AsLateAsPossible); // convoffload::toString hides QTest::toString
        doc.undoStack()->undo();
        QCOMPARE(policy->currentIndex(), 0);

        // Loading another project refreshes the form without pushing anything.
        QCOMPARE(doc.load(QStringLiteral(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json")), QString());
        QCOMPARE(hk->value(), 5);
        QCOMPARE(doc.undoStack()->count(), 0);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(doc.load(kPaperExample), QString());
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        saveShot(editor, "problem-editor.png");
    }

    // The transfer model (docs/reference/model.md#transfer-cost) in the
    // hardware form: a check box makes it (the core's defaults) or drops it,
    // its fields are disabled without it, each edit is one undo step.
    void problemEditorEditsTheTransferModel()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        ProblemEditor editor(&doc);
        editor.resize(460, 900);
        editor.show();
        auto *on = qobject_cast<QCheckBox *>(editor.editorFor(QStringLiteral("hardware.transfer")));
        auto *layout = qobject_cast<QComboBox *>(editor.editorFor(QStringLiteral("hardware.transfer.layout")));
        auto *burst = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("hardware.transfer.burst")));
        auto *setup = qobject_cast<QDoubleSpinBox *>(editor.editorFor(QStringLiteral("hardware.transfer.t_setup")));
        QVERIFY(on && layout && burst && setup);
        QVERIFY(!on->isChecked()); // the sample has none: the linear model
        for (QWidget *w : {static_cast<QWidget *>(layout), static_cast<QWidget *>(burst), static_cast<QWidget *>(setup)})
            QVERIFY(!w->isEnabled());
        QCOMPARE(burst->maximum(), 1 << 30);
        QCOMPARE(burst->minimum(), 1);
        QCOMPARE(setup->minimum(), 0.0);
        QVERIFY(on->toolTip().contains(QStringLiteral("DMA descriptor")));
        QVERIFY(burst->toolTip().contains(QStringLiteral("aligned block")));

        on->setChecked(true);
        QVERIFY(doc.problem().hardware.transfer.has_value());
        QVERIFY(*doc.problem().hardware.transfer == Transfer{}); // nchw, burst 1, no set-up
        QVERIFY(layout->isEnabled() && burst->isEnabled() && setup->isEnabled());
        layout->setCurrentIndex(1);
        burst->setValue(8);
        setup->setValue(20);
        QCOMPARE(doc.undoStack()->count(), 4); // four fields, four steps
        const Transfer edited{Layout::Nhwc, 8, 20.0};
        QVERIFY(*doc.problem().hardware.transfer == edited);

        // Values the spin boxes cannot hold (a file, a script) are named at their field.
        Problem bad = doc.problem();
        bad.hardware.transfer->burst = 0;
        bad.hardware.transfer->t_setup = -1;
        doc.undoStack()->push(new EditProblemCommand(&doc, bad, QStringLiteral("hardware.transfer")));
        QVERIFY2(editor.messageAt(QStringLiteral("hardware.transfer.burst")).startsWith(QStringLiteral("transfer.burst: ")),
            qPrintable(editor.messageAt(QStringLiteral("hardware.transfer.burst"))));
        QVERIFY(editor.messageAt(QStringLiteral("hardware.transfer.t_setup")).startsWith(QStringLiteral("transfer.t_setup: ")));
        QVERIFY(editor.messageAt(QStringLiteral("hardware.t_l")).isEmpty());
        QVERIFY(editor.generalMessage().isEmpty());
        QTest::qWait(20); // the form lays out the messages' rows from the event loop
        saveShot(editor, "problem-editor-transfer-error.png");
        doc.undoStack()->undo();
        QVERIFY(editor.messageAt(QStringLiteral("hardware.transfer.burst")).isEmpty());
        QVERIFY(editor.messageAt(QStringLiteral("hardware.transfer.t_setup")).isEmpty());

        // Undo walks back field by field, the form following.
        doc.undoStack()->undo();
        QCOMPARE(doc.problem().hardware.transfer->t_setup, 0.0);
        QCOMPARE(setup->value(), 0.0);
        doc.undoStack()->undo();
        QCOMPARE(burst->value(), 1);
        doc.undoStack()->undo();
        QCOMPARE(layout->currentIndex(), 0);
        doc.undoStack()->undo();
        QVERIFY(!doc.problem().hardware.transfer.has_value());
        QVERIFY(!on->isChecked());
        QVERIFY(!burst->isEnabled());
        for (int i = 0; i < 4; ++i)
            doc.undoStack()->redo();
        QVERIFY(*doc.problem().hardware.transfer == edited);
        QVERIFY(on->isChecked());
        QCOMPARE(layout->currentIndex(), 1);
        QCOMPARE(burst->value(), 8);
        QCOMPARE(setup->value(), 20.0);
        // Unchecking drops the whole model: the linear model again.
        on->setChecked(false);
        QVERIFY(!doc.problem().hardware.transfer.has_value());
        QVERIFY(!setup->isEnabled());
        doc.undoStack()->undo();
        QVERIFY(*doc.problem().hardware.transfer == edited);
    }

    // The run columns only with a transfer model. With burst 1 every element
    // is its own aligned block, so the bursts are the elements moved, and
    // each run adds t_setup to the linear model's duration.
    void stepTableShowsTransferColumns()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        doc.setCurrentStrategy(2); // ZigZag, 121 cycles without a transfer model
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        StepTable table(&doc);
        StepTableModel *m = table.stepModel();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m->columnCount(), int(StepTableModel::LinearColumnCount));

        Problem p = doc.problem();
        p.hardware.transfer = Transfer{Layout::Nhwc, 1, 20.0};
        doc.undoStack()->push(new EditProblemCommand(&doc, p, QStringLiteral("hardware.transfer")));
        QTRY_VERIFY2(settled(doc) && doc.simulation()->problem == p, describe(doc).constData());
        QVERIFY(doc.simulation()->result.transfer_model);
        QCOMPARE(m->columnCount(), int(StepTableModel::ColumnCount));
        QCOMPARE(m->rowCount(), 6);
        for (int c = StepTableModel::LoadRunsColumn; c < StepTableModel::ColumnCount; ++c)
            QVERIFY(!m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(m->headerData(StepTableModel::LoadRunsColumn, Qt::Horizontal).toString(), QStringLiteral("Load\nruns"));
        const auto at = [&](int row, int column) { return m->index(row, column).data(StepTableModel::ValueRole).toDouble(); };
        const std::vector<StepStats> &stats = doc.simulation()->result.steps;
        double runs = 0;
        for (int row = 0; row < m->rowCount(); ++row) {
            const StepStats &s = stats[std::size_t(row)];
            QCOMPARE(at(row, StepTableModel::LoadRunsColumn), double(s.load_runs));
            QCOMPARE(at(row, StepTableModel::LoadBurstsColumn), double(s.load_bursts));
            QCOMPARE(at(row, StepTableModel::WriteRunsColumn), double(s.write_runs));
            QCOMPARE(at(row, StepTableModel::WriteBurstsColumn), double(s.write_bursts));
            QCOMPARE(at(row, StepTableModel::SetupColumn), s.setup_duration);
            // By the model: one block per element with burst 1, t_setup per run.
            QCOMPARE(at(row, StepTableModel::LoadBurstsColumn),
                at(row, StepTableModel::LoadedInputColumn) + at(row, StepTableModel::LoadedKernelsColumn));
            QCOMPARE(at(row, StepTableModel::WriteBurstsColumn), at(row, StepTableModel::WrittenColumn));
            const double stepRuns = at(row, StepTableModel::LoadRunsColumn) + at(row, StepTableModel::WriteRunsColumn);
            QCOMPARE(at(row, StepTableModel::SetupColumn), 20 * stepRuns);
            QVERIFY(at(row, StepTableModel::LoadRunsColumn) <= at(row, StepTableModel::LoadBurstsColumn));
            QVERIFY((at(row, StepTableModel::LoadRunsColumn) > 0) == (at(row, StepTableModel::LoadBurstsColumn) > 0));
            runs += stepRuns;
        }
        QVERIFY(runs > 0);
        QCOMPARE(at(5, StepTableModel::CumulativeColumn), 121 + 20 * runs);
        table.resize(1100, 240);
        table.show();
        saveShot(table, "step-table-transfer.png");

        doc.undoStack()->undo(); // the linear model: its table as before
        QTRY_VERIFY2(settled(doc) && !doc.simulation()->result.transfer_model, describe(doc).constData());
        QCOMPARE(m->columnCount(), int(StepTableModel::LinearColumnCount));
        QCOMPARE(at(5, StepTableModel::CumulativeColumn), 121.0);
    }

    void strategyActionsAndUndo()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        StrategyPanel panel(&doc);
        panel.resize(360, 420);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const std::vector<StrategySpec> original = doc.project().strategies;
        QCOMPARE(panel.view()->currentIndex().row(), doc.currentStrategy());
        saveShot(panel, "strategy-panel.png");

        // Add a heuristic through the dialog.
        panel.addHeuristicAction()->trigger();
        auto *dialog = panel.findChild<QDialog *>(QStringLiteral("addHeuristicDialog"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        auto *kind = dialog->findChild<QComboBox *>(QStringLiteral("kind"));
        auto *groupSize = dialog->findChild<QSpinBox *>(QStringLiteral("groupSize"));
        auto *nameEdit = dialog->findChild<QLineEdit *>(QStringLiteral("name"));
        QVERIFY(kind && groupSize && nameEdit);
        QCOMPARE(groupSize->value(), 2); // nb_patches_max
        QCOMPARE(nameEdit->text(), doc.uniqueStrategyName(QStringLiteral("ZigZag")));
        QVERIFY(nameEdit->text() != QStringLiteral("ZigZag"));
        kind->setCurrentIndex(kind->findText(QStringLiteral("Row-by-Row")));
        groupSize->setValue(3);
        QCOMPARE(nameEdit->text(), QStringLiteral("Row-by-Row G=3"));
        QCoreApplication::processEvents(); // lay the dialog out before grabbing it
        saveShot(*dialog, "add-heuristic-dialog.png");
        dialog->accept();
        QCOMPARE(doc.project().strategies.size(), original.size() + 1);
        const StrategySpec &added = doc.project().strategies.back();
        QCOMPARE(added.name, std::string("Row-by-Row G=3"));
        QVERIFY(added.kind == StrategyKind::RowByRow);
        QCOMPARE(added.group_size, std::optional<std::int64_t>(3));
        QCOMPARE(doc.currentStrategy(), int(original.size()));
        QCOMPARE(panel.view()->currentIndex().row(), int(original.size()));
        doc.undoStack()->undo();
        QVERIFY(doc.project().strategies == original);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());

        // Duplicate ZigZag as explicit groups.
        panel.view()->setCurrentIndex(panel.model()->index(2));
        QCOMPARE(doc.currentStrategy(), 2);
        panel.duplicateAction()->trigger();
        QCOMPARE(doc.project().strategies.size(), original.size() + 1);
        const StrategySpec &copy = doc.project().strategies[3];
        QCOMPARE(copy.name, std::string("ZigZag copy"));
        QVERIFY(copy.kind == StrategyKind::Groups);
        QCOMPARE(copy.groups, (Groups{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}}));
        QCOMPARE(doc.currentStrategy(), 3);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(panel.model()->index(3).data(StrategyListModel::DurationRole).toDouble(), 121.0);
        doc.undoStack()->undo();
        QVERIFY(doc.project().strategies == original);

        // Delete Row-by-Row.
        panel.view()->setCurrentIndex(panel.model()->index(1));
        panel.deleteAction()->trigger();
        QCOMPARE(doc.project().strategies.size(), original.size() - 1);
        QCOMPARE(name(doc, 1), QStringLiteral("ZigZag"));
        QCOMPARE(panel.model()->rowCount(), 3);
        doc.undoStack()->undo();
        QVERIFY(doc.project().strategies == original);
        QCOMPARE(panel.model()->rowCount(), 4);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());

        // Rename "Mine" with the inline editor.
        const int undoIndex = doc.undoStack()->index();
        // The add dialog has closed: let the panel be the active window again,
        // or the activation change takes the focus from the editor and closes it.
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        panel.view()->setCurrentIndex(panel.model()->index(3));
        panel.renameAction()->trigger();
        auto *editor = panel.view()->viewport()->findChild<QLineEdit *>();
        QVERIFY(editor);
        QTRY_VERIFY(editor->hasFocus());
        QCOMPARE(editor->text(), QStringLiteral("Mine"));
        editor->setText(QStringLiteral("Hand-made"));
        QTest::keyClick(editor, Qt::Key_Return); // the delegate commits on the next event loop pass
        QTRY_COMPARE(name(doc, 3), QStringLiteral("Hand-made"));
        QCOMPARE(doc.undoStack()->index(), undoIndex + 1);
        QCOMPARE(panel.model()->index(3).data().toString(), QStringLiteral("Hand-made"));
        doc.undoStack()->undo();
        QVERIFY(doc.project().strategies == original);

        // Duplicate and empty names are refused, with a message, and change nothing.
        QVERIFY(!panel.model()->setData(panel.model()->index(3), QStringLiteral("ZigZag")));
        QVERIFY(!panel.model()->setData(panel.model()->index(3), QStringLiteral("   ")));
        QVERIFY(doc.project().strategies == original);
        QCOMPARE(doc.undoStack()->index(), undoIndex);
        QVERIFY(doc.undoStack()->canRedo()); // the rename is still the next redo: nothing was pushed
        const QList<QMessageBox *> boxes = panel.findChildren<QMessageBox *>();
        QCOMPARE(boxes.size(), 2);
        QVERIFY(boxes.front()->text().contains(QStringLiteral("ZigZag")));
        for (QMessageBox *box : boxes)
            box->close();
        QTRY_VERIFY(panel.findChildren<QMessageBox *>().isEmpty()); // deleted on close

        // Adding with a taken name is refused too.
        QVERIFY(!panel.addHeuristic(StrategyKind::ZigZag, 2, QStringLiteral("ZigZag")).isEmpty());
        QVERIFY(doc.project().strategies == original);
    }

    // The list is never reset by an edit: the panel's selection stays on its
    // strategy while others are added, removed or renamed, and follows the
    // document's current strategy (a new one, the one after a deleted one).
    void strategyPanelKeepsItsSelection()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        StrategyPanel panel(&doc);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSignalSpy reset(panel.model(), &QAbstractItemModel::modelReset);
        const auto selected = [&] {
            const QModelIndexList rows = panel.view()->selectionModel()->selectedIndexes();
            return rows.size() == 1 && rows.front() == panel.view()->currentIndex() ? rows.front().data().toString() : QString();
        };
        panel.view()->setCurrentIndex(panel.model()->index(2));
        QCOMPARE(doc.currentStrategy(), 2);
        QCOMPARE(selected(), QStringLiteral("ZigZag"));

        // Renaming another strategy, and its undo.
        QVERIFY(panel.model()->setData(panel.model()->index(3), QStringLiteral("Hand-made")));
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        doc.undoStack()->undo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        QCOMPARE(name(doc, 3), QStringLiteral("Mine"));

        // Renaming the selected one keeps it selected.
        QVERIFY(panel.model()->setData(panel.model()->index(2), QStringLiteral("Zag")));
        QCOMPARE(selected(), QStringLiteral("Zag"));
        doc.undoStack()->undo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));

        // Deleting it selects the strategy after it; undo selects it again.
        panel.deleteAction()->trigger();
        QCOMPARE(doc.currentStrategy(), 2);
        QCOMPARE(selected(), QStringLiteral("Mine"));
        doc.undoStack()->undo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        QCOMPARE(doc.currentStrategy(), 2);

        // A duplicate is inserted after it and selected; undo comes back to a strategy of the list.
        panel.duplicateAction()->trigger();
        QCOMPARE(selected(), QStringLiteral("ZigZag copy"));
        QCOMPARE(panel.view()->currentIndex().row(), 3);
        doc.undoStack()->undo();
        QCOMPARE(panel.model()->rowCount(), 4);
        QCOMPARE(selected(), name(doc, doc.currentStrategy()));
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(reset.count(), 0);
    }

    void strategyCsvImportExport()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        StrategyPanel panel(&doc);
        const std::vector<StrategySpec> original = doc.project().strategies;

        QCOMPARE(panel.importCsv(QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/groups-mine.csv")), QString());
        QCOMPARE(doc.project().strategies.size(), original.size() + 1);
        QCOMPARE(doc.project().strategies.back().name, std::string("groups-mine"));
        QVERIFY(doc.project().strategies.back().kind == StrategyKind::Groups);
        QCOMPARE(doc.project().strategies.back().groups, (Groups{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}}));
        doc.undoStack()->undo();
        QVERIFY(doc.project().strategies == original);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("patch,group\n0,0\n1,x\n");
        }
        const QString error = panel.importCsv(bad);
        QVERIFY2(error.contains(QStringLiteral("line")), qPrintable(error));
        QVERIFY(doc.project().strategies == original);

        doc.setCurrentStrategy(2);
        const QString out = dir.filePath(QStringLiteral("zigzag.csv"));
        QCOMPARE(panel.exportCsv(out), QString());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Layer &layer = doc.problem().layer;
        QCOMPARE(f.readAll().toStdString(), groupsToCsv(layer, zigzag(layer, 2)));
        QVERIFY(!panel.exportCsv(dir.filePath(QStringLiteral("missing/folder/z.csv"))).isEmpty());
    }

    void diagnosticsSeekToTheirStep()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc);
        DiagnosticsPanel panel(&doc);
        QSignalSpy highlighted(&panel, &DiagnosticsPanel::elementHighlighted);
        panel.resize(520, 220);
        panel.show();

        // Groups of 3 patches need 108 MACs, more than nbop_pe = 72.
        StrategySpec big;
        big.name = "Too big";
        big.kind = StrategyKind::Groups;
        big.groups = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
        doc.undoStack()->push(new AddStrategyCommand(&doc, 4, big));
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(doc.simulation()->spec.name, big.name);
        const SimulationResult &r = doc.simulation()->result;
        QCOMPARE(r.diagnostics.front().rule, Rule::TooManyOps);
        QCOMPARE(r.diagnostics.front().step, 1);
        QTreeWidget *tree = panel.tree();
        QCOMPARE(tree->topLevelItemCount(), int(r.diagnostics.size()));
        QVERIFY(panel.summary().contains(QStringLiteral("invalid")));
        QVERIFY(tree->topLevelItem(0)->text(1).contains(QStringLiteral("nbop_pe")));
        saveShot(panel, "diagnostics-errors.png");

        doc.seek({3, Action::Compute});
        emit tree->itemActivated(tree->topLevelItem(0), 1);
        QCOMPARE(doc.moment(), (Moment{0, Action::Compute}));
        QCOMPARE(highlighted.size(), 1);
        emit tree->itemActivated(tree->topLevelItem(1), 1); // step 2
        QCOMPARE(doc.moment(), (Moment{1, Action::Compute}));

        // S1-baseline: it breaks the reload assumption. By hand (patches in
        // row-major order, one per step): pixel row 2 is loaded by the bands of
        // patch rows 0, 1 and 2, except column 2, kept from patch 2 to patch 6:
        // pixels (2,0), (2,1), (2,3), (2,4) are loaded 3 times, at steps 7
        // ((2,0), (2,1): patch 6), 8 ((2,3): patch 7) and 9 ((2,4): patch 8).
        doc.setCurrentStrategy(0);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QVERIFY2(panel.summary().contains(
                     QStringLiteral("<b>S1-baseline</b> runs correctly, breaks the reload assumption on 4 pixels")),
            qPrintable(panel.summary()));
        QCOMPARE(doc.simulation()->result.reload.patches, (std::vector<PatchId>{6, 7, 8}));
        QTreeWidgetItem *heading = tree->topLevelItem(0);
        QVERIFY(heading);
        QCOMPARE(heading->text(1), QStringLiteral("breaks the reload assumption on 4 pixels; 3 patches marked"));
        QVERIFY2(heading->toolTip(1).contains(QStringLiteral("The paper assumes at most 2 loads per pixel and per kernel")),
            qPrintable(heading->toolTip(1)));
        QCOMPARE(tree->topLevelItemCount(), 1 + 4); // the heading and the four findings
        QTreeWidgetItem *warning = tree->topLevelItem(1);
        QVERIFY(warning);
        const Diagnostic &d = doc.simulation()->result.diagnostics.front();
        QCOMPARE(d.severity, Severity::Warning);
        highlighted.clear();
        emit tree->itemActivated(warning, 0);
        QCOMPARE(doc.moment(), (Moment{d.step - 1, Action::LoadInput}));
        QCOMPARE(highlighted.size(), 1);
        QCOMPARE(highlighted.front().front().toString(), QString::fromStdString(d.element));
        QCOMPARE(highlighted.front().front().toString(), QStringLiteral("pixel (2,0)"));
        saveShot(panel, "diagnostics-warnings.png");

        // A strategy that cannot be expanded lists why.
        StrategySpec broken;
        broken.name = "Broken";
        broken.kind = StrategyKind::Groups;
        broken.groups = {{0, 1}, {42}};
        doc.undoStack()->push(new AddStrategyCommand(&doc, 5, broken));
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        QCOMPARE(tree->topLevelItemCount(), 1);
        QVERIFY(tree->topLevelItem(0)->text(1).contains(QStringLiteral("42")));
        highlighted.clear();
        emit tree->itemActivated(tree->topLevelItem(0), 1);
        QCOMPARE(highlighted.size(), 0);
    }

    // All panels side by side on the paper's Example, for a look.
    void shots()
    {
        if (qEnvironmentVariableIsEmpty("CONVOFFLOAD_PANEL_SHOTS"))
            QSKIP("set CONVOFFLOAD_PANEL_SHOTS to a folder to save the panels as PNG");
        ProjectDocument doc;
        LOAD_PAPER(doc);
        doc.setCurrentStrategy(2);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        doc.seek({1, Action::Compute});
        QWidget window;
        auto *row = new QHBoxLayout(&window);
        auto *editor = new ProblemEditor(&doc);
        auto *strategies = new StrategyPanel(&doc);
        auto *table = new StepTable(&doc);
        row->addWidget(editor);
        row->addWidget(strategies);
        row->addWidget(table, 1);
        window.resize(1500, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        saveShot(window, "all-panels.png");

        // Invalid and unexpandable strategies, and warnings in the form.
        StrategySpec big;
        big.name = "Too big";
        big.kind = StrategyKind::Groups;
        big.groups = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
        doc.undoStack()->push(new AddStrategyCommand(&doc, 4, big));
        StrategySpec broken = big;
        broken.name = "Broken";
        broken.groups = {{0, 1}, {42}};
        doc.undoStack()->push(new AddStrategyCommand(&doc, 5, broken));
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        Problem p = doc.problem();
        p.hardware.mem_size = 40;
        p.hardware.dram_size = 100;
        doc.undoStack()->push(new EditProblemCommand(&doc, p, QStringLiteral("hardware.mem_size")));
        QTRY_VERIFY(settled(doc) && !doc.comparison().front().valid); // the comparison of the new problem
        doc.setCurrentStrategy(4);
        QTRY_VERIFY2(settled(doc), describe(doc).constData());
        saveShot(window, "all-panels-invalid.png");
    }
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
