// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "mainwindow/ExportDialog.h"

#include "document/ProjectDocument.h"
#include "export/Figures.h"
#include "panels/StepSpinBox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace convoffload::ui {

namespace {
constexpr char kFigureKey[] = "export/figure";
constexpr char kPresetKey[] = "export/preset";
constexpr char kNoTitleKey[] = "export/noTitle";
// The file names, one per project path ("" for an unsaved project): a
// figure of another project must not overwrite this one's.
constexpr char kFilesKey[] = "export/files";
constexpr int kMostRememberedFiles = 50;
} // namespace

ExportDialog::ExportDialog(ProjectDocument *document, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
{
    setWindowTitle(tr("Export Figure"));
    auto *form = new QFormLayout;
    m_figure = new QComboBox(this);
    const std::pair<FigureKind, QString> figures[] = {
        {FigureKind::Grid, tr("Input and output grids")},
        {FigureKind::InputGrid, tr("Input grid")},
        {FigureKind::OutputGrid, tr("Output grid")},
        {FigureKind::Memory, tr("Footprint per step")},
        {FigureKind::MemoryPerAction, tr("Footprint per action")},
        {FigureKind::Durations, tr("Duration per step")},
        {FigureKind::Cumulative, tr("Cumulative duration")},
        {FigureKind::Compare, tr("Strategy comparison")},
        {FigureKind::Sweep, tr("Group-size sweep (ZigZag vs Row-by-Row)")},
        {FigureKind::Storyboard, tr("Storyboard: first steps of two strategies")},
    };
    for (const auto &[kind, label] : figures)
        m_figure->addItem(label, int(kind));
    form->addRow(tr("&Figure:"), m_figure);

    m_strategy = new QComboBox(this);
    m_versus = new QComboBox(this);
    for (const StrategySpec &s : document->project().strategies) {
        m_strategy->addItem(QString::fromStdString(s.name));
        m_versus->addItem(QString::fromStdString(s.name));
    }
    m_strategy->setCurrentIndex(document->currentStrategy());
    m_versus->setCurrentIndex(m_versus->count() > 1 && document->currentStrategy() == 0 ? 1 : 0);
    form->addRow(tr("&Strategy:"), m_strategy);
    form->addRow(tr("&Versus:"), m_versus);

    m_step = new StepSpinBox(this);
    // The simulation on show numbers the steps of its own strategy (the
    // drain included); another strategy's count is not known here.
    const auto stepRange = [this, document] {
        const auto snapshot = document->simulation();
        const bool known = snapshot && snapshot->failure.empty() && !snapshot->result.steps.empty()
            && QString::fromStdString(snapshot->spec.name) == m_strategy->currentText();
        m_step->setSteps(known ? int(snapshot->result.steps.size()) : 0, known && snapshot->result.steps.back().drain);
    };
    stepRange();
    connect(m_strategy, &QComboBox::currentIndexChanged, this, stepRange);
    m_step->setValue(document->moment().step + 1);
    m_step->setToolTip(tr("Step shown by grids and marked by the cursor of charts (1 = first step)"));
    form->addRow(tr("S&tep:"), m_step);
    m_storySteps = new QSpinBox(this);
    m_storySteps->setRange(1, 32);
    m_storySteps->setValue(4);
    form->addRow(tr("Storyboard ste&ps:"), m_storySteps);
    m_heatMap = new QCheckBox(tr("Colour input pixels by load count (heat map)"), this);
    form->addRow(QString(), m_heatMap);
    m_cursor = new QCheckBox(tr("Mark the step on charts (the dashed cursor line)"), this);
    m_cursor->setToolTip(tr("Off for figures in a report: the cursor is an on-screen mark"));
    form->addRow(QString(), m_cursor);
    m_noTitle = new QCheckBox(tr("Leave out the title (a paper's caption gives it)"), this);
    m_noTitle->setToolTip(tr("The figure without its built-in title; the file's metadata keep it "
                             "(as convoffload-cli export --no-title)"));
    form->addRow(QString(), m_noTitle);

    m_preset = new QComboBox(this);
    m_preset->addItem(tr("Custom size in pixels"), QString());
    for (const ExportPreset &preset : exportPresets())
        m_preset->addItem(preset.label, preset.name);
    m_preset->setToolTip(tr("A printed size and a font size in points, so that text reads 7–10 pt in the report "
                            "(as convoffload-cli export --preset)"));
    form->addRow(tr("Pr&eset:"), m_preset);

    auto *size = new QHBoxLayout;
    m_width = new QSpinBox(this);
    m_height = new QSpinBox(this);
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(100, kMaxFigureSide);
        box->setSuffix(tr(" px"));
        size->addWidget(box);
    }
    m_width->setValue(1600);
    m_height->setValue(900);
    // A row of several widgets: the label's mnemonic goes to the first.
    auto *sizeLabel = new QLabel(tr("Si&ze:"), this);
    sizeLabel->setBuddy(m_width);
    form->addRow(sizeLabel, size);

    auto *pathRow = new QHBoxLayout;
    m_path = new QLineEdit(this);
    m_path->setPlaceholderText(tr("figure.png, figure.svg or figure.pdf"));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    auto *pathLabel = new QLabel(tr("&File:"), this);
    pathLabel->setBuddy(m_path);
    form->addRow(pathLabel, pathRow);

    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *exportButton = buttons->addButton(tr("&Export"), QDialogButtonBox::ActionRole);
    QPushButton *metricsButton = buttons->addButton(tr("Export &Metrics…"), QDialogButtonBox::ActionRole);
    metricsButton->setToolTip(tr("Per-step metrics of the strategy as CSV or JSON"));
    exportButton->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_result);
    layout->addWidget(buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(exportButton, &QPushButton::clicked, this, &ExportDialog::exportNow);
    connect(metricsButton, &QPushButton::clicked, this, &ExportDialog::exportMetrics);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_figure, &QComboBox::currentIndexChanged, this, &ExportDialog::updateEnabled);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ExportDialog::applyPreset);
    restoreChoices();
    updateEnabled();
}

void ExportDialog::restoreChoices()
{
    const QSettings settings;
    if (const std::optional<FigureKind> kind = figureKindFromName(settings.value(QLatin1String(kFigureKey)).toString()))
        setFigure(*kind);
    if (settings.contains(QLatin1String(kPresetKey)))
        setPreset(settings.value(QLatin1String(kPresetKey)).toString());
    m_noTitle->setChecked(settings.value(QLatin1String(kNoTitleKey), false).toBool());
    m_path->setText(settings.value(QLatin1String(kFilesKey)).toMap().value(m_document->filePath()).toString());
}

void ExportDialog::rememberChoices() const
{
    QSettings settings;
    settings.setValue(QLatin1String(kFigureKey), figureName(FigureKind(m_figure->currentData().toInt())));
    settings.setValue(QLatin1String(kPresetKey), m_preset->currentData().toString());
    settings.setValue(QLatin1String(kNoTitleKey), m_noTitle->isChecked());
    QVariantMap files = settings.value(QLatin1String(kFilesKey)).toMap();
    if (m_path->text().isEmpty())
        files.remove(m_document->filePath());
    else
        files.insert(m_document->filePath(), m_path->text());
    while (files.size() > kMostRememberedFiles) // no date kept: forget an arbitrary other project's
        files.erase(files.begin() == files.find(m_document->filePath()) ? std::next(files.begin()) : files.begin());
    settings.setValue(QLatin1String(kFilesKey), files);
}

void ExportDialog::done(int result)
{
    rememberChoices();
    QDialog::done(result);
}

void ExportDialog::setFigure(FigureKind kind) { m_figure->setCurrentIndex(m_figure->findData(int(kind))); }

void ExportDialog::setPreset(const QString &name)
{
    const int index = m_preset->findData(name);
    m_preset->setCurrentIndex(name.isEmpty() || index < 0 ? 0 : index);
}

QSize ExportDialog::figureSize() const { return QSize(m_width->value(), m_height->value()); }

void ExportDialog::applyPreset()
{
    // A preset fixes the size (shown, in the pixels the figure is laid out
    // in); the custom size is the user's again.
    const std::optional<ExportPreset> preset = exportPresetFromName(m_preset->currentData().toString());
    if (preset) {
        const QSize size = presetLayoutSize(*preset);
        m_width->setValue(size.width());
        m_height->setValue(size.height());
    }
    m_width->setEnabled(!preset);
    m_height->setEnabled(!preset);
}

void ExportDialog::updateEnabled()
{
    const auto kind = FigureKind(m_figure->currentData().toInt());
    m_strategy->setEnabled(figureNeedsStrategy(kind));
    m_versus->setEnabled(kind == FigureKind::Storyboard);
    m_storySteps->setEnabled(kind == FigureKind::Storyboard);
    m_step->setEnabled(figureNeedsStrategy(kind) && kind != FigureKind::Storyboard);
    m_heatMap->setEnabled(kind == FigureKind::Grid || kind == FigureKind::InputGrid);
    m_cursor->setEnabled(kind == FigureKind::Memory || kind == FigureKind::MemoryPerAction || kind == FigureKind::Durations
        || kind == FigureKind::Cumulative);
}

void ExportDialog::browse()
{
    const QString start = m_path->text().isEmpty() ? QFileInfo(m_document->filePath()).path() : m_path->text();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export figure"), start, tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!path.isEmpty())
        m_path->setText(path);
}

QString ExportDialog::exportFigureTo(const QString &path)
{
    try {
        FigureSource source(m_document->project(), m_document->filePath().toStdString());
        // Reuse what the document's workers computed for the same project.
        const auto snapshot = m_document->simulation();
        if (snapshot && snapshot->failure.empty() && snapshot->problem == m_document->problem()
            && m_document->project().findStrategy(snapshot->spec.name)
            && *m_document->project().findStrategy(snapshot->spec.name) == snapshot->spec)
            source.provideSimulation(snapshot->spec.name, snapshot->result);
        if (!m_document->busy()) {
            source.provideComparison(m_document->comparison());
            source.provideSweep(m_document->sweep());
        }
        FigureRequest request;
        request.kind = FigureKind(m_figure->currentData().toInt());
        request.strategy = m_strategy->currentText().toStdString();
        request.versus = m_versus->currentText().toStdString();
        request.moment = {m_step->value() - 1, Action::Compute};
        request.storyboardSteps = m_storySteps->value();
        request.heatMap = m_heatMap->isChecked();
        request.cursor = m_cursor->isChecked();
        request.title = !m_noTitle->isChecked();
        request.size = figureSize();
        qreal pngScale = 1.0;
        if (const std::optional<ExportPreset> preset = exportPresetFromName(m_preset->currentData().toString())) {
            request.font = presetFont(*preset);
            pngScale = presetPngScale(*preset);
        }
        const Figure figure = makeFigure(source, request);
        const ExportResult result = exportFigure(figure.paint, figureSize(), path, figure.title, figure.description, pngScale);
        return result ? QString() : result.error;
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
}

QString ExportDialog::exportMetricsTo(const QString &path)
{
    const auto snapshot = m_document->simulation();
    if (!snapshot || !snapshot->failure.empty())
        return tr("No simulation of the current strategy to export.");
    const QString name = QString::fromStdString(snapshot->spec.name);
    const QString text = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
        ? exportMetricsJson(snapshot->problem, name, snapshot->result)
        : exportMetricsCsv(snapshot->result);
    const ExportResult result = exportText(text, path);
    return result ? QString() : result.error;
}

void ExportDialog::exportNow()
{
    if (m_path->text().isEmpty()) {
        browse();
        if (m_path->text().isEmpty())
            return;
    }
    setCursor(Qt::WaitCursor);
    const QString error = exportFigureTo(m_path->text());
    unsetCursor();
    if (error.isEmpty())
        rememberChoices();
    m_result->setText(error.isEmpty() ? tr("Wrote %1").arg(QDir::toNativeSeparators(m_path->text())) : error);
    m_result->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #D55E00"));
}

void ExportDialog::exportMetrics()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export metrics"), QFileInfo(m_document->filePath()).path(), tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = exportMetricsTo(path);
    m_result->setText(error.isEmpty() ? tr("Wrote %1").arg(QDir::toNativeSeparators(path)) : error);
    m_result->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #D55E00"));
}

} // namespace convoffload::ui
