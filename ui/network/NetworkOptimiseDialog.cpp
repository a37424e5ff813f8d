// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/NetworkOptimiseDialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace convoffload::ui {

namespace {

QLabel *note(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setIndent(24); // under its radio button's text
    return label;
}

} // namespace

NetworkOptimiseDialog::NetworkOptimiseDialog(const NetworkOptimiseChoice &choice, QWidget *parent)
    : QDialog(parent)
    , m_byTime(new QRadioButton(tr("&Time limit for the whole network")))
    , m_byMoves(new QRadioButton(tr("&Moves per layer, with a seed (reproducible)")))
    , m_seconds(new QDoubleSpinBox)
    , m_moves(new QSpinBox)
    , m_seed(new QSpinBox)
{
    setWindowTitle(tr("Optimise network"));
    m_byTime->setObjectName(QStringLiteral("byTime"));
    m_byMoves->setObjectName(QStringLiteral("byMoves"));
    m_seconds->setRange(0.1, 86400);
    m_seconds->setDecimals(1);
    m_seconds->setSuffix(tr(" s"));
    m_seconds->setValue(choice.time_limit_s);
    m_moves->setRange(1, 2'000'000'000);
    m_moves->setGroupSeparatorShown(true);
    m_moves->setValue(int(std::clamp<std::int64_t>(choice.moves, 1, 2'000'000'000)));
    m_moves->setObjectName(QStringLiteral("moves"));
    m_seed->setRange(0, 1'000'000'000);
    m_seed->setValue(int(std::min<std::uint64_t>(choice.seed, 1'000'000'000)));
    (choice.reproducible ? m_byMoves : m_byTime)->setChecked(true);

    auto *time = new QFormLayout;
    time->addRow(tr("Seconds:"), m_seconds);
    auto *moves = new QFormLayout;
    moves->addRow(tr("Moves:"), m_moves);
    moves->addRow(tr("Seed:"), m_seed);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_byTime);
    layout->addWidget(note(tr("Shared among the layers in proportion to their durations. Not reproducible: how far "
                              "the search gets in its time depends on the machine and its load, so two runs can "
                              "end with different strategies.")));
    layout->addLayout(time);
    layout->addWidget(m_byMoves);
    layout->addWidget(note(tr("Every layer's search makes this many moves on one thread: the same seed and moves give "
                              "the same strategies on any machine, as <tt>convoffload-cli network FILE --optimize "
                              "--seed S --moves N --threads 1</tt>. How long the moves take depends on the layer and "
                              "the machine, never what they find.")));
    layout->addLayout(moves);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_byTime, &QRadioButton::toggled, this, &NetworkOptimiseDialog::updateEnabled);
    updateEnabled();
}

void NetworkOptimiseDialog::updateEnabled()
{
    m_seconds->setEnabled(m_byTime->isChecked());
    m_moves->setEnabled(m_byMoves->isChecked());
    m_seed->setEnabled(m_byMoves->isChecked());
}

NetworkOptimiseChoice NetworkOptimiseDialog::choice() const
{
    return {m_byMoves->isChecked(), m_seconds->value(), std::int64_t(m_moves->value()), std::uint64_t(m_seed->value())};
}

QString NetworkOptimiseDialog::cliCommand(const NetworkOptimiseChoice &choice, const QString &file)
{
    return QStringLiteral("convoffload-cli network %1 --optimize --seed %2 --moves %3 --threads 1")
        .arg(file.isEmpty() ? QStringLiteral("FILE") : file)
        .arg(choice.seed)
        .arg(choice.moves);
}

} // namespace convoffload::ui
