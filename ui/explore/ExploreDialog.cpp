// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "explore/ExploreDialog.h"

#include "explore/ParetoPlotView.h"
#include "optimise/DialogSize.h"

#include "convoffload/explore/Exploration.h"
#include "convoffload/explore/ExploreFile.h"
#include "convoffload/io/OutOfMemory.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/simulate/SimulationOptions.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace convoffload::ui {

namespace {

struct FieldSpec {
    const char *option; // as the CLI names it, in errors
    const char *label;
    const char *tip;
};
const FieldSpec kFields[ExploreDialog::FieldCount] = {
    {"--mem-size", "On-chip memory (mem_size)", "Elements; e.g. 4k..256k*2 (doublings), 16k,64k,1M (k = 1024, M = 1024\u00B2)"},
    {"--nbop-pe", "MACs per step (nbop_pe)", "e.g. 256,1024 or 64..4096*4"},
    {"--t-l", "Load cost (t_l)", "Cycles per element loaded, e.g. 1,2; empty: the project's"},
    {"--layout", "DRAM layout", "nchw, nhwc or both (the transfer model); empty: the project's"},
    {"--burst", "Burst (elements)", "e.g. 1,8,64 (the transfer model); empty: the project's"},
    {"--t-setup", "DMA set-up", "Cycles per DMA run, e.g. 0,20; empty: the project's"},
};

QString errorText(const std::exception &e) { return QString::fromStdString(e.what()); }

} // namespace

Hardware withPointHardware(Hardware current, const Hardware &point)
{
    current.mem_size = point.mem_size;
    current.nbop_pe = point.nbop_pe;
    current.t_l = point.t_l;
    current.transfer = point.transfer;
    return current;
}

ExploreDialog::ExploreDialog(ExploreTarget target, QWidget *parent)
    : QDialog(parent)
    , m_target(std::move(target))
{
    setWindowTitle(tr("Explore hardware \u2014 %1").arg(m_target.name));
    setObjectName(QStringLiteral("exploreDialog"));

    auto *form = new QGridLayout;
    form->setColumnStretch(1, 1);
    for (int f = 0; f < FieldCount; ++f) {
        auto *label = new QLabel(tr(kFields[f].label), this);
        m_fields[f] = new QLineEdit(this);
        m_fields[f]->setObjectName(QString::fromLatin1(kFields[f].option + 2));
        m_fields[f]->setToolTip(tr(kFields[f].tip));
        m_fields[f]->setPlaceholderText(f <= NbopPe ? QString() : tr("the project's"));
        label->setBuddy(m_fields[f]);
        m_errors[f] = new QLabel(this);
        m_errors[f]->setWordWrap(true);
        m_errors[f]->setStyleSheet(QStringLiteral("color: #b00020"));
        m_errors[f]->setVisible(false);
        form->addWidget(label, 2 * f, 0);
        form->addWidget(m_fields[f], 2 * f, 1);
        form->addWidget(m_errors[f], 2 * f + 1, 1);
        connect(m_fields[f], &QLineEdit::textChanged, this, &ExploreDialog::updateCount);
    }

    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("pointCount"));
    m_count->setWordWrap(true);
    m_run = new QPushButton(tr("&Run"), this);
    m_run->setToolTip(tr("Analyse the target at every design point (each layer's best strategy, as `network` chooses it)"));
    m_stop = new QPushButton(tr("S&top"), this);
    m_stop->setToolTip(tr("Stop after the point being analysed; the finished points are kept"));
    m_save = new QPushButton(tr("&Save results\u2026"), this);
    m_save->setToolTip(tr("Write the points as JSON Lines, as convoffload-cli explore writes them"));
    m_open = new QPushButton(tr("&Open results\u2026"), this);
    m_open->setToolTip(tr("Show an explore file (.jsonl) written by the CLI, merge or this dialog"));
    m_saveChart = new QPushButton(tr("Save &chart\u2026"), this);
    m_saveChart->setToolTip(tr("Export the chart as PNG, SVG or PDF, as convoffload-cli export --figure pareto draws it"));
    m_progress = new QProgressBar(this);
    m_progress->setFormat(tr("no run yet")); // "%v of %m points" once there are points
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("exploreStatus"));
    m_status->setWordWrap(true);
    m_status->setText(
        tr("Click a point of the chart to apply its hardware to what is explored: the open project (Edit \u203A Undo "
           "takes it back) or network (Save network keeps it)."));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    auto *files = new QHBoxLayout;
    files->addWidget(m_open);
    files->addWidget(m_save);

    auto *left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(m_count);
    left->addLayout(buttons);
    left->addWidget(m_progress);
    left->addLayout(files);
    left->addWidget(m_saveChart);
    left->addWidget(m_status);
    left->addStretch(1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    left->addWidget(close);

    m_view = new ParetoPlotView(this);
    m_view->setPlot(nullptr, tr("Run the lists, or open an explore file: the Pareto chart fills in as the points finish."));
    auto *layout = new QHBoxLayout(this);
    auto *leftWidget = new QWidget(this);
    leftWidget->setLayout(left);
    leftWidget->setMaximumWidth(420);
    layout->addWidget(leftWidget);
    layout->addWidget(m_view, 1);

    connect(m_run, &QPushButton::clicked, this, [this] { run(); });
    connect(m_stop, &QPushButton::clicked, this, &ExploreDialog::stop);
    connect(m_save, &QPushButton::clicked, this, &ExploreDialog::chooseAndSave);
    connect(m_open, &QPushButton::clicked, this, &ExploreDialog::chooseAndOpen);
    connect(m_saveChart, &QPushButton::clicked, this, &ExploreDialog::chooseAndSaveChart);
    connect(m_view, &ParetoPlotView::pointClicked, this, [this](int index) { m_status->setText(applyPoint(index)); });
    m_job.setProgressHandler([this](const Step &step) { takeLine(step); });
    m_job.setFinishedHandler([this](Outcome outcome) { finish(std::move(outcome)); });

    // A first sweep that answers the usual question: memory in doublings,
    // two compute sizes (docs/user/explore.md#a-first-sweep).
    m_fields[MemSize]->setText(QStringLiteral("4k..256k*2"));
    m_fields[NbopPe]->setText(QStringLiteral("256,1024"));
    setRunning(false);
    updateCount();
    fitDialogToScreen(this, QSize(1100, 640), 0.8, 0.8);
}

ExploreDialog::~ExploreDialog() = default;

QString ExploreDialog::fieldError(Field f) const { return m_errors[f]->isHidden() ? QString() : m_errors[f]->text(); }

QString ExploreDialog::pointCountText() const { return m_count->text(); }

bool ExploreDialog::isRunning() const { return m_job.isRunning(); }

std::optional<DesignSpace> ExploreDialog::readSpace()
{
    DesignSpace space;
    bool ok = true;
    for (int f = 0; f < FieldCount; ++f) {
        const std::string text = m_fields[f]->text().trimmed().toStdString();
        QString error;
        try {
            if (text.empty()) {
                if (f <= NbopPe)
                    error = tr("%1 needs a list, e.g. %2")
                                .arg(QString::fromLatin1(kFields[f].option),
                                    f == MemSize ? QStringLiteral("16k..256k*2") : QStringLiteral("256,1024"));
            } else {
                // The CLI's parsers, so the same text means the same list.
                switch (Field(f)) {
                case MemSize:
                    space.mem_sizes = parseIntegerList(text, kFields[f].option, 1);
                    break;
                case NbopPe:
                    space.nbop_pes = parseIntegerList(text, kFields[f].option, 1);
                    break;
                case TL:
                    space.t_ls = parseNumberList(text, kFields[f].option);
                    break;
                case Layout:
                    space.layouts = parseLayoutList(text, kFields[f].option);
                    break;
                case Burst:
                    space.bursts = parseIntegerList(text, kFields[f].option, 1);
                    break;
                case TSetup:
                    space.t_setups = parseNumberList(text, kFields[f].option);
                    break;
                case FieldCount:
                    break;
                }
            }
        } catch (const DesignSpaceError &e) {
            error = errorText(e);
        }
        m_errors[f]->setText(error);
        m_errors[f]->setVisible(!error.isEmpty());
        ok = ok && error.isEmpty();
    }
    if (!ok)
        return std::nullopt;
    return space;
}

void ExploreDialog::updateCount()
{
    const std::optional<DesignSpace> space = readSpace();
    bool runnable = false;
    if (!space) {
        m_count->setText(tr("Correct the lists to see the number of design points."));
    } else {
        try {
            const std::int64_t n = space->pointCount();
            m_count->setText(n == 1 ? tr("1 design point") : tr("%1 design points").arg(n));
            runnable = true;
            // Every point's hardware must be one the model accepts, as the
            // CLI checks before its first point.
            for (std::int64_t k = 0; k < n; ++k)
                if (const auto problems = space->hardwareAt(m_target.network.hardware, k).problems(); !problems.empty()) {
                    m_count->setText(tr("Design point %1: %2").arg(k).arg(QString::fromStdString(problems.front())));
                    runnable = false;
                    break;
                }
        } catch (const DesignSpaceError &e) {
            m_count->setText(errorText(e));
        }
    }
    m_run->setEnabled(runnable && !isRunning());
}

bool ExploreDialog::run()
{
    if (isRunning())
        return false;
    updateCount();
    const std::optional<DesignSpace> space = readSpace();
    if (!space || !m_run->isEnabled())
        return false;
    const std::int64_t points = space->pointCount();
    ExploreOptions options; // the CLI's defaults: every generated strategy, no search, seed 1
    // The run id as the CLI computes it for the same target, lists and
    // version, so the saved file merges with the CLI's shards.
    const std::string run
        = exploreRunId(m_target.bytes, *space, kDefaultMaxPoints, options, QCoreApplication::applicationVersion().toStdString());
    m_lines.clear();
    m_records.clear();
    m_points = points;
    rebuildPlot();
    m_progress->setFormat(tr("%v of %m points"));
    m_progress->setRange(0, int(std::min<std::int64_t>(points, 1 << 30)));
    m_progress->setValue(0);
    m_status->setText(tr("Exploring %1 points\u2026").arg(points));
    const Network network = m_target.network;
    const DesignSpace copy = *space;
    const bool started
        = m_job.start([network, copy, points, run, options, name = m_target.name.toStdString()](const auto &control) {
              ExploreOptions o = options;
              o.cancel = control.cancelFlag();
              Outcome outcome;
              try {
                  for (std::int64_t k = 0; k < points; ++k) {
                      if (control.isCancelled()) {
                          outcome.cancelled = true;
                          break;
                      }
                      std::string line = exploreLine(run, points, explorePoint(network, copy, k, o));
                      ++outcome.done;
                      control.report(Step{outcome.done, std::move(line)});
                  }
              } catch (const Cancelled &) {
                  outcome.cancelled = true;
              } catch (const std::exception &e) {
                  outcome.error = QString::fromStdString(errorMessage(e, "exploring the design space", name));
              }
              return outcome;
          });
    setRunning(started);
    return started;
}

void ExploreDialog::stop()
{
    if (isRunning())
        m_job.cancel();
}

void ExploreDialog::setRunning(bool running)
{
    m_stop->setEnabled(running);
    m_save->setEnabled(!running && !m_lines.empty());
    m_saveChart->setEnabled(!running && m_plot != nullptr);
    m_open->setEnabled(!running);
    for (QLineEdit *f : m_fields)
        f->setReadOnly(running);
    m_run->setEnabled(!running);
    if (!running)
        updateCount();
}

void ExploreDialog::takeLine(const Step &step)
{
    m_lines.push_back(step.line);
    m_records.push_back(parseExploreLine("run", std::int64_t(m_lines.size()), step.line));
    m_progress->setValue(int(step.done));
    m_status->setText(tr("Exploring: %1 of %2 points done\u2026").arg(step.done).arg(m_points));
    // Once per batch of lines, not per line: the chart is rebuilt from every
    // point so far.
    if (!m_rebuildPending) {
        m_rebuildPending = true;
        QTimer::singleShot(0, this, [this] {
            if (m_rebuildPending)
                rebuildPlot();
        });
    }
}

void ExploreDialog::finish(Outcome outcome)
{
    if (m_rebuildPending)
        rebuildPlot();
    setRunning(false);
    if (!outcome.error.isEmpty())
        m_status->setText(
            tr("The exploration failed after %1 of %2 points: %3").arg(m_lines.size()).arg(m_points).arg(outcome.error));
    else if (outcome.cancelled)
        m_status->setText(tr("Stopped after %1 of %2 points; Save results\u2026 keeps them (merge names the missing ones).")
                              .arg(m_lines.size())
                              .arg(m_points));
    else
        m_status->setText(tr("Explored %1 points; %2 on the Pareto front. Click a point to apply its hardware.")
                              .arg(m_lines.size())
                              .arg(m_plot ? m_plot->front().size() : 0));
    emit runFinished();
}

void ExploreDialog::rebuildPlot()
{
    m_rebuildPending = false;
    m_plot = m_records.empty() ? nullptr : std::make_shared<const ParetoPlot>(m_records);
    m_view->setPlot(m_plot, tr("The first point is being analysed\u2026"));
}

std::string ExploreDialog::resultsText() const
{
    std::string text;
    for (const std::string &line : m_lines)
        text += line + "\n";
    return text;
}

QString ExploreDialog::saveResults(const QString &path) const
{
    try {
        writeTextFileAtomically(path.toStdString(), resultsText());
    } catch (const std::exception &e) {
        return errorText(e);
    }
    return {};
}

QString ExploreDialog::saveChart(const QString &path, QSize size) const
{
    if (!m_plot)
        return tr("no points to draw yet");
    const QFont font;
    if (!m_plot->fitsIn(QRectF(QPointF(0, 0), QSizeF(size)), font))
        size = m_plot->sizeToFit(size, font);
    const Figure figure = paretoFigure(m_plot, font, size);
    const ExportResult result = exportFigure(figure.paint, size, path, figure.title, figure.description);
    return result ? QString() : result.error;
}

void ExploreDialog::chooseAndSaveChart()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save chart"), QString(), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (const QString error = saveChart(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Cannot save chart"), error);
    else
        m_status->setText(tr("Saved the chart to %1").arg(QFileInfo(path).fileName()));
}

QString ExploreDialog::openResults(const QString &path)
{
    if (isRunning())
        return tr("a run is under way");
    try {
        std::vector<ExploreRecord> records = readExploreFile(path.toStdString());
        auto plot = std::make_shared<const ParetoPlot>(records);
        m_records = std::move(records);
        m_lines.clear();
        for (const ExploreRecord &r : m_records)
            m_lines.push_back(r.line);
        m_points = plot->runPoints();
        m_plot = plot;
        m_view->setPlot(m_plot);
        m_progress->setFormat(tr("%v of %m points"));
        m_progress->setRange(0, int(std::min<std::int64_t>(m_points, 1 << 30)));
        m_progress->setValue(int(plot->points().size()));
        m_status->setText(tr("%1: %2 of %3 points, %4 on the Pareto front. Click a point to apply its hardware.")
                              .arg(QFileInfo(path).fileName())
                              .arg(plot->points().size())
                              .arg(m_points)
                              .arg(plot->front().size()));
        setRunning(false);
    } catch (const std::exception &e) {
        return errorText(e);
    }
    return {};
}

QString ExploreDialog::applyPoint(int index)
{
    if (!m_plot || index < 0 || index >= int(m_plot->points().size()))
        return {};
    const ParetoPlotPoint &p = m_plot->points()[std::size_t(index)];
    if (!m_target.apply)
        return tr("Open a project (or a layer of the network) to apply point %1's hardware to it.").arg(p.point);
    Hardware point;
    try {
        nlohmann::json file{{"hardware", p.hardware}};
        point = acceleratorFromJson(file.dump()).hardware;
    } catch (const std::exception &e) {
        return tr("Point %1's hardware cannot be read: %2").arg(p.point).arg(errorText(e));
    }
    return m_target.apply(point);
}

void ExploreDialog::chooseAndSave()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Save exploration results"), QString(), tr("JSON Lines (*.jsonl)"));
    if (path.isEmpty())
        return;
    if (const QString error = saveResults(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Cannot save results"), error);
    else
        m_status->setText(tr("Saved %1 points to %2").arg(m_lines.size()).arg(path));
}

void ExploreDialog::chooseAndOpen()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open exploration results"), QString(), tr("JSON Lines (*.jsonl)"));
    if (path.isEmpty())
        return;
    if (const QString error = openResults(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Cannot open results"), error);
}

} // namespace convoffload::ui
