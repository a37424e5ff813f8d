// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Every text a user sees in the main window, its menus, its docks' tabs and
// its dialogs: no mnemonic shown literally ("Si&ze:", "&File:") and no "& "
// turned into an underlined space ("Errors _warnings", "Layer _hardware").
//
// Where Qt reads '&' as a mnemonic (buttons, menus, actions, tabs, group
// boxes, labels with a buddy) every '&' must be followed by a letter, a digit
// or a second '&'. Where it shows text as it is (labels without a buddy,
// headers, dock titles in their title bar) an '&' followed by a letter is a
// mnemonic shown literally. Dock titles are both (title bar and tab): no '&'.

#include "mainwindow/ExportDialog.h"
#include "mainwindow/MainWindow.h"
#include "document/ProjectDocument.h"
#include "optimise/ExperimentsDialog.h"
#include "optimise/OptimiseDialog.h"
#include "panels/AddHeuristicDialog.h"
#include "start/HelpDialog.h"
#include "start/HelpText.h"
#include "start/NewProjectDialog.h"

#include <QAbstractButton>
#include <QDockWidget>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QTabBar>
#include <QTextDocumentFragment>
#include <QTest>

using namespace convoffload::ui;

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

QString withoutEntities(const QString &text)
{
    static const QRegularExpression entity(QStringLiteral("&(#[0-9]+|[a-zA-Z]+);"));
    return Qt::mightBeRichText(text) ? QString(text).remove(entity) : text;
}

/// A text where '&' marks a mnemonic: each '&' precedes a letter, a digit or '&'.
bool mnemonicOk(const QString &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (i + 1 >= text.size())
            return false;
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;
            continue;
        }
        if (!text[i + 1].isLetterOrNumber())
            return false;
    }
    return true;
}

/// A text shown as it is: no '&' right before a letter (a mnemonic that shows).
bool plainOk(const QString &text)
{
    static const QRegularExpression literalMnemonic(QStringLiteral("&[A-Za-z0-9]"));
    return !withoutEntities(text).contains(literalMnemonic);
}

/// No underscore standing alone or starting a word ("Errors _warnings");
/// identifiers such as c_in and mem_size are fine.
bool underscoreOk(const QString &text)
{
    static const QRegularExpression stray(QStringLiteral("(^|\\s)_|_(\\s|$)"));
    return !text.contains(stray);
}

class TextWalker {
public:
    QStringList bad;

    void check(const QString &where, const QString &text, bool mnemonic)
    {
        if (text.isEmpty())
            return;
        const bool ok = (mnemonic ? mnemonicOk(text) : plainOk(text)) && underscoreOk(text);
        if (!ok)
            bad << QStringLiteral("%1: \"%2\"").arg(where, text);
    }

    void menu(const QString &where, QMenu *menu)
    {
        check(where, menu->title(), true);
        for (QAction *a : menu->actions()) {
            check(where + QStringLiteral(" › action"), a->text(), true);
            if (a->menu())
                this->menu(where + QStringLiteral(" › ") + a->text(), a->menu());
        }
    }

    void widget(QWidget *root)
    {
        const QString name = QString::fromLatin1(root->metaObject()->className());
        for (QLabel *l : root->findChildren<QLabel *>())
            check(QStringLiteral("%1 label").arg(name), l->text(), l->buddy() != nullptr);
        for (QAbstractButton *b : root->findChildren<QAbstractButton *>())
            check(QStringLiteral("%1 button").arg(name), b->text(), true);
        for (QGroupBox *g : root->findChildren<QGroupBox *>())
            check(QStringLiteral("%1 group box").arg(name), g->title(), true);
        for (QTabBar *t : root->findChildren<QTabBar *>())
            for (int i = 0; i < t->count(); ++i)
                check(QStringLiteral("%1 tab").arg(name), t->tabText(i), true);
        for (QHeaderView *h : root->findChildren<QHeaderView *>())
            if (h->model())
                for (int i = 0; i < h->count(); ++i)
                    check(QStringLiteral("%1 header").arg(name), h->model()->headerData(i, h->orientation()).toString(), false);
        for (QDockWidget *d : root->findChildren<QDockWidget *>())
            if (d->windowTitle().contains(QLatin1Char('&')))
                bad << QStringLiteral("dock title: \"%1\"").arg(d->windowTitle());
        for (QMenu *m : root->findChildren<QMenu *>())
            menu(QStringLiteral("%1 menu").arg(name), m);
        check(QStringLiteral("%1 window title").arg(name), root->windowTitle(), false);
    }
};

} // namespace

class TestVisibleText : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadTextTests"));
        QSettings().clear();
    }

    // The rules themselves, on the texts the issue saw.
    void rules()
    {
        QVERIFY(mnemonicOk(QStringLiteral("&File")));
        QVERIFY(mnemonicOk(QStringLiteral("Layer && hardware")));
        QVERIFY(!mnemonicOk(QStringLiteral("Layer & hardware")));
        QVERIFY(!mnemonicOk(QStringLiteral("Errors & warnings")));
        QVERIFY(!plainOk(QStringLiteral("Si&ze:")));
        QVERIFY(!plainOk(QStringLiteral("&File:")));
        QVERIFY(plainOk(QStringLiteral("Layer & hardware")));
        QVERIFY(plainOk(QStringLiteral("<b>A</b> &amp; B &#8212;")));
        QVERIFY(!underscoreOk(QStringLiteral("Errors _warnings")));
        QVERIFY(underscoreOk(QStringLiteral("c_in × h_in, mem_size")));
    }

    void mainWindowAndDialogs()
    {
        {
            // The start page, as at a start with no file.
            MainWindow first;
            first.show();
            QVERIFY(first.startPageShown());
            TextWalker start;
            start.widget(&first);
            QVERIFY2(start.bad.isEmpty(), qPrintable(start.bad.join(QLatin1Char('\n'))));
        }
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(sample("paper-example.json")));
        QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy() && window.document()->cursor(), 20000);

        TextWalker walker;
        walker.widget(&window);
        for (QAction *a : window.menuBar()->actions())
            if (a->menu())
                walker.menu(QStringLiteral("menu bar"), a->menu());

        ExportDialog exportDialog(window.document(), &window);
        walker.widget(&exportDialog);
        AddHeuristicDialog addDialog(window.document(), &window);
        walker.widget(&addDialog);
        OptimiseDialog optimiseDialog(window.document()->problem(), {}, &window);
        walker.widget(&optimiseDialog);
        ExperimentsDialog experiments(&window);
        walker.widget(&experiments);
        NewProjectDialog newProject(&window);
        walker.widget(&newProject);
        HelpDialog guide(QStringLiteral("Guide"), guideHtml(), &window);
        walker.widget(&guide);
        walker.check(
            QStringLiteral("shortcuts"), QTextDocumentFragment::fromHtml(shortcutsHtml(window.menuBar())).toPlainText(), false);
        walker.check(
            QStringLiteral("about"), QTextDocumentFragment::fromHtml(aboutHtml(QStringLiteral("1.0"))).toPlainText(), false);
        QVERIFY2(walker.bad.isEmpty(), qPrintable(walker.bad.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestVisibleText)
#include "tst_visibletext.moc"
