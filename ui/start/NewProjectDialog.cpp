// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "start/NewProjectDialog.h"

#include "document/ProjectDocument.h"
#include "panels/ProblemEditor.h"
#include "start/BundledSamples.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QVBoxLayout>

namespace convoffload::ui {

namespace {

struct Heuristic {
    StrategyKind kind;
    const char *name;
    const char *label;
};

const Heuristic kHeuristics[] = {
    {StrategyKind::S1Baseline, "S1-baseline", QT_TRANSLATE_NOOP("NewProjectDialog", "S1-baseline: one patch per step")},
    {StrategyKind::RowByRow, "Row-by-Row",
        QT_TRANSLATE_NOOP("NewProjectDialog", "Row-by-Row: G = nb_patches_max patches per step")},
    {StrategyKind::ZigZag, "ZigZag", QT_TRANSLATE_NOOP("NewProjectDialog", "ZigZag: G = nb_patches_max, snake order")},
};

} // namespace

NewProjectDialog::NewProjectDialog(QWidget *parent)
    : QDialog(parent)
    , m_draft(new ProjectDocument(this))
{
    setWindowTitle(tr("New Project"));
    // Start from LeNet-5 conv1, without its strategies.
    QTemporaryDir folder;
    QString error;
    const QString sample = extractBundledSample(QStringLiteral("lenet5-conv1.json"), folder.path(), &error);
    if (!sample.isEmpty() && m_draft->load(sample).isEmpty()) {
        Project start = m_draft->project();
        start.strategies.clear();
        m_draft->resetToProject(start);
    }

    auto *intro = new QLabel(tr("The layer, the accelerator and the options of the new project (it starts as LeNet-5 "
                                "conv1). Hover a field for its meaning."),
        this);
    intro->setWordWrap(true);
    auto *editor = new ProblemEditor(m_draft, this);

    auto *heuristics = new QGroupBox(tr("Heuristics to compare"), this);
    auto *column = new QVBoxLayout(heuristics);
    for (int i = 0; i < 3; ++i) {
        m_boxes[i] = new QCheckBox(tr(kHeuristics[i].label), heuristics);
        m_boxes[i]->setChecked(true);
        column->addWidget(m_boxes[i]);
    }
    auto *more = new QLabel(tr("Add others later with Strategy › Add Heuristic or Optimise › Optimise Strategy."), heuristics);
    more->setWordWrap(true);
    column->addWidget(more);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(editor, 1);
    layout->addWidget(heuristics);
    layout->addWidget(buttons);
    resize(460, 640);
}

NewProjectDialog::~NewProjectDialog() = default;

QCheckBox *NewProjectDialog::heuristicBox(StrategyKind kind) const
{
    for (int i = 0; i < 3; ++i)
        if (kHeuristics[i].kind == kind)
            return m_boxes[i];
    return nullptr;
}

Project NewProjectDialog::project() const
{
    Project project = m_draft->project();
    project.strategies.clear();
    for (int i = 0; i < 3; ++i)
        if (m_boxes[i]->isChecked()) {
            StrategySpec spec;
            spec.name = kHeuristics[i].name;
            spec.kind = kHeuristics[i].kind;
            project.strategies.push_back(spec);
        }
    return project;
}

} // namespace convoffload::ui
