// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/AddHeuristicDialog.h"

#include "document/ProjectDocument.h"

#include "convoffload/io/ProjectFile.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace convoffload::ui {

namespace {

QString kindLabel(StrategyKind kind)
{
    switch (kind) {
    case StrategyKind::S1Baseline:
        return QStringLiteral("S1-baseline");
    case StrategyKind::RowByRow:
        return QStringLiteral("Row-by-Row");
    case StrategyKind::ZigZag:
        return QStringLiteral("ZigZag");
    case StrategyKind::Groups:
        return QStringLiteral("Groups");
    case StrategyKind::Steps:
        return QStringLiteral("Steps");
    case StrategyKind::KernelBlocked:
        return QStringLiteral("Kernel-blocked");
    }
    return {};
}

} // namespace

AddHeuristicDialog::AddHeuristicDialog(ProjectDocument *document, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
{
    setWindowTitle(tr("Add Heuristic Strategy"));
    setObjectName(QStringLiteral("addHeuristicDialog"));
    const Problem &problem = document->problem();
    const bool sound = problem.layer.problems().empty();
    m_nbPatchesMax = sound ? problem.nbPatchesMax() : 0;
    const std::int64_t patches = sound ? problem.layer.patchCount() : std::numeric_limits<int>::max();

    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("kind"));
    for (StrategyKind k : {StrategyKind::S1Baseline, StrategyKind::RowByRow, StrategyKind::ZigZag})
        m_kind->addItem(kindLabel(k), int(k));
    m_kind->setCurrentIndex(2);
    m_kind->setToolTip(tr("S1-baseline: one patch per step, row-major.\n"
                          "Row-by-Row: row-major order cut into groups of G patches.\n"
                          "ZigZag: even output rows left to right, odd rows right to left, cut into groups of G."));
    m_groupSize = new QSpinBox;
    m_groupSize->setObjectName(QStringLiteral("groupSize"));
    m_groupSize->setRange(1, int(std::clamp<std::int64_t>(patches, 1, std::numeric_limits<int>::max())));
    m_groupSize->setValue(int(std::clamp<std::int64_t>(m_nbPatchesMax, 1, m_groupSize->maximum())));
    m_groupSize->setToolTip(
        tr("G: patches per step. nb_patches_max = %1 is the most one compute can do (nbop_pe).").arg(m_nbPatchesMax));
    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("name"));
    m_hint = new QLabel;
    m_hint->setWordWrap(true);
    QPalette hintPalette = m_hint->palette();
    hintPalette.setColor(QPalette::WindowText, QColor(0x80, 0x58, 0x00)); // dark amber, readable on grey
    m_hint->setPalette(hintPalette);
    // Room for the hint, so the dialog does not jump when it appears.
    m_hint->setMinimumHeight(m_hint->fontMetrics().lineSpacing() * 3);
    m_hint->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 52);

    auto *form = new QFormLayout;
    form->addRow(tr("&Kind"), m_kind);
    form->addRow(tr("&Group size G"), m_groupSize);
    form->addRow(tr("&Name"), m_name);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto *column = new QVBoxLayout(this);
    column->addLayout(form);
    column->addWidget(m_hint);
    column->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textEdited, this, [this] { m_nameEdited = true; });
    connect(m_name, &QLineEdit::textChanged, this, &AddHeuristicDialog::check);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &AddHeuristicDialog::update);
    connect(m_groupSize, &QSpinBox::valueChanged, this, &AddHeuristicDialog::update);
    update();
}

StrategyKind AddHeuristicDialog::kind() const { return StrategyKind(m_kind->currentData().toInt()); }

std::int64_t AddHeuristicDialog::groupSize() const { return m_groupSize->value(); }

QString AddHeuristicDialog::name() const { return m_name->text().trimmed(); }

void AddHeuristicDialog::update()
{
    m_groupSize->setEnabled(kind() != StrategyKind::S1Baseline);
    if (!m_nameEdited) {
        QString base = kindLabel(kind());
        if (kind() != StrategyKind::S1Baseline && groupSize() != m_nbPatchesMax)
            base += QStringLiteral(" G=%1").arg(groupSize());
        m_name->setText(m_document->uniqueStrategyName(base));
    }
    check();
}

void AddHeuristicDialog::check()
{
    QString problem;
    if (name().isEmpty())
        problem = tr("Give the strategy a name.");
    else if (m_document->project().findStrategy(name().toStdString()))
        problem = tr("A strategy named “%1” already exists.").arg(name());
    QString note;
    if (problem.isEmpty() && kind() != StrategyKind::S1Baseline && groupSize() > m_nbPatchesMax)
        note = tr("G = %1 is more than nb_patches_max = %2: its steps exceed nbop_pe and the strategy will be "
                  "invalid (useful to compare).")
                   .arg(groupSize())
                   .arg(m_nbPatchesMax);
    m_hint->setText(problem.isEmpty() ? note : problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace convoffload::ui
