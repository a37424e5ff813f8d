// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload: the desktop application. With no display (no X11/Wayland and
// no QT_QPA_PLATFORM), or with --report, it writes a report of figures for the
// project instead of opening a window.

#include "mainwindow/DockTitles.h"
#include "mainwindow/MainWindow.h"
#include "network/NetworkPanel.h"
#include "document/ProjectDocument.h"
#include "export/FigureExport.h"
#include "export/HeadlessPlatform.h"
#include "export/HeadlessReport.h"

#include "convoffload/Version.h"
#include "convoffload/io/FormatError.h"
#include "convoffload/io/OutOfMemory.h"
#include "convoffload/io/ProjectFile.h"

#include <QApplication>
#include <QDockWidget>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <optional>

namespace {

int writeReport(const QString &project, const QString &folder, bool workLimit)
{
    QString error;
    const QStringList files = convoffload::ui::writeHeadlessReport(
        project, folder, &error, workLimit ? std::optional<convoffload::WorkBudget>(convoffload::WorkBudget{}) : std::nullopt);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "convoffload: %s\n", convoffload::printable(error.toStdString()).c_str());
        return 1;
    }
    std::printf("Wrote %lld figures for %s:\n", static_cast<long long>(files.size()), qPrintable(project));
    for (const QString &f : files)
        std::printf("  %s\n", qPrintable(QDir::toNativeSeparators(f)));
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    const bool headless = convoffload::ui::noDisplay();
    if (headless)
        convoffload::ui::useOffscreenPlatform();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ConvOffload"));
    QApplication::setApplicationName(QStringLiteral("ConvOffload"));
    QApplication::setApplicationVersion(QStringLiteral(CONVOFFLOAD_VERSION));
    // The icon of every window and of the About box; the desktop file (and
    // its installed icon) share the AppStream id.
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/convoffload.svg")));
    QApplication::setDesktopFileName(QStringLiteral("org.convoffload.ConvOffload"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Step through, compare and export convolution offloading strategies."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("Project file to open (.json)."));
    const QCommandLineOption report(
        QStringLiteral("report"), QStringLiteral("Write the figures of PROJECT into DIR and exit."), QStringLiteral("dir"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Open PROJECT, show step STEP (--step), save the window as PNG and exit."), QStringLiteral("file"));
    const QCommandLineOption step(
        QStringLiteral("step"), QStringLiteral("1-based step for --screenshot."), QStringLiteral("n"), QStringLiteral("2"));
    const QCommandLineOption strategy(
        QStringLiteral("strategy"), QStringLiteral("Strategy to select for --screenshot."), QStringLiteral("name"));
    const QCommandLineOption dock(QStringLiteral("dock"),
        QStringLiteral("Dock to bring to the front for --screenshot (its title, e.g. \"Errors and warnings\")."),
        QStringLiteral("title"));
    const QCommandLineOption noWorkLimit(QStringLiteral("no-work-limit"),
        QStringLiteral("With --report: write it even when the work estimate puts it over 10 minutes or 3/4 of the memory."));
    parser.addOptions({report, screenshot, step, strategy, dock, noWorkLimit});
    parser.process(app);
    const QString project = parser.positionalArguments().value(0);

    if (parser.isSet(report) || headless) {
        if (project.isEmpty()) {
            std::fprintf(stderr, "convoffload: no display; give a project file to write its figures (see --help)\n");
            return 1;
        }
        const QString folder = parser.isSet(report) ? parser.value(report) : QStringLiteral("report");
        if (headless && !parser.isSet(report))
            std::printf("No display: writing the figures instead of opening the window.\n");
        return writeReport(project, folder, !parser.isSet(noWorkLimit));
    }

    convoffload::ui::MainWindow window;
    // A dock or strategy that is not there is said, not ignored: the
    // screenshot would otherwise show something else than was asked.
    QDockWidget *raised = nullptr;
    if (parser.isSet(dock)) {
        raised = convoffload::ui::dockTitled(window, parser.value(dock));
        if (!raised) {
            std::fprintf(stderr, "convoffload: --dock: no dock is titled '%s'; the docks are: %s\n",
                qPrintable(parser.value(dock)), qPrintable(convoffload::ui::dockTitles(window).join(QStringLiteral(", "))));
            return 1;
        }
    }
    // A model opens the Import Network dialog, which waits for a user: not
    // with --screenshot, which nobody may be there to answer.
    if (parser.isSet(screenshot) && project.endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive)) {
        std::fprintf(stderr,
            "convoffload: --screenshot: %s is an ONNX model, not a project: import it first "
            "(convoffload-cli import-onnx) and give the network project\n",
            qPrintable(project));
        return 1;
    }
    // Nor may an unreadable project (a FIFO, /dev/zero, a directory, bad
    // JSON): the window would say so in a dialog that waits for a user.
    // It is read here first, and what is wrong goes to stderr, as --report does.
    if (parser.isSet(screenshot) && !project.isEmpty()) {
        try {
            const std::string path = project.toStdString();
            if (convoffload::isNetworkProjectFile(path))
                convoffload::loadNetwork(path);
            else
                convoffload::loadProject(path);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "convoffload: --screenshot: %s\n",
                convoffload::printable(convoffload::errorMessage(e, "reading the project", project.toStdString())).c_str());
            return 1;
        }
    }
    window.show();
    if (!project.isEmpty() && !window.openFile(project) && parser.isSet(screenshot))
        return 1;
    if (parser.isSet(strategy)) {
        const auto &strategies = window.document()->project().strategies;
        QStringList names;
        for (const auto &s : strategies)
            names << QString::fromStdString(s.name);
        const qsizetype index = names.indexOf(parser.value(strategy));
        if (index < 0) {
            std::fprintf(stderr, "convoffload: --strategy: %s has no strategy named '%s'; its strategies are: %s\n",
                qPrintable(project.isEmpty() ? QStringLiteral("no project") : project), qPrintable(parser.value(strategy)),
                qPrintable(names.isEmpty() ? QStringLiteral("(none)") : names.join(QStringLiteral(", "))));
            return 1;
        }
        window.document()->setCurrentStrategy(int(index));
    }
    if (raised) {
        raised->show();
        raised->raise();
    }
    if (parser.isSet(screenshot)) {
        // Wait for the worker's simulation (or its refusal), then grab the window.
        const QString file = parser.value(screenshot);
        const int wanted = std::max(1, parser.value(step).toInt()) - 1;
        // A network project opens in the Network dock: wait for its analysis.
        auto *network = window.findChild<convoffload::ui::NetworkPanel *>();
        const bool networkOpened = network && network->network().has_value();
        if (networkOpened)
            network->parentWidget()->raise();
        auto *poll = new QTimer(&window);
        // A big layer's sweep runs for minutes after its simulation: once the
        // simulation is in, the comparison and sweep get 20 s more at most.
        auto *shown = new QElapsedTimer;
        QObject::connect(poll, &QObject::destroyed, [shown] { delete shown; });
        QObject::connect(poll, &QTimer::timeout, &window, [&window, file, wanted, poll, network, networkOpened, shown] {
            const auto *doc = window.document();
            if (!networkOpened && doc->simulation() && !shown->isValid())
                shown->start();
            const bool waited = shown->isValid() && shown->elapsed() > 20'000;
            if (networkOpened ? network->busy() : !doc->simulation() || (doc->busy() && !waited))
                return;
            poll->stop();
            if (window.document()->cursor())
                window.document()->seek({wanted, convoffload::Action::Compute});
            QTimer::singleShot(300, &window, [&window, file] {
                // Saved as every file is (exportFigure: atomically, a link
                // followed only where the kernel would), not by QPixmap::save.
                const QPixmap shot = window.grab();
                const auto result = convoffload::ui::exportFigure(
                    [&shot](QPainter &painter, const QRectF &r) { painter.drawPixmap(r, shot, QRectF(shot.rect())); },
                    shot.size(), file, QStringLiteral("ConvOffload"));
                if (result)
                    std::printf("Saved %s\n", qPrintable(file));
                else
                    std::fprintf(stderr, "convoffload: --screenshot: %s\n", qPrintable(result.error));
                QApplication::exit(result ? 0 : 1);
            });
        });
        poll->start(50);
    }
    return QApplication::exec();
}
