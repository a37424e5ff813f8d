// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "start/StartPage.h"

#include "start/BundledSamples.h"

#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace convoffload::ui {

namespace {

constexpr int kPathRole = Qt::UserRole + 1;

QLabel *heading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    label->setFont(font);
    return label;
}

} // namespace

StartPage::StartPage(QWidget *parent)
    : QWidget(parent)
    , m_recent(new QListWidget(this))
    , m_samples(new QListWidget(this))
{
    setObjectName(QStringLiteral("startPage"));
    auto *title = new QLabel(tr("<h2>ConvOffload</h2>"
                                "<p>Step through, compare and optimise the strategies that offload a convolution layer to "
                                "an accelerator with a small on-chip memory.</p>"),
        this);
    title->setWordWrap(true);

    auto *newButton = new QPushButton(tr("New Project…"), this);
    newButton->setToolTip(tr("A layer and hardware of your own, with the heuristics to compare (Ctrl+N)"));
    auto *openButton = new QPushButton(tr("Open…"), this);
    openButton->setToolTip(tr("Open a project file (.json) (Ctrl+O)"));
    auto *guideButton = new QPushButton(tr("Guide"), this);
    guideButton->setToolTip(tr("The model in two paragraphs, the colours and what to do first (F1)"));
    connect(newButton, &QPushButton::clicked, this, &StartPage::newProjectRequested);
    connect(openButton, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(guideButton, &QPushButton::clicked, this, &StartPage::guideRequested);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(newButton);
    buttons->addWidget(openButton);
    buttons->addWidget(guideButton);
    buttons->addStretch();

    m_recent->setObjectName(QStringLiteral("recentFiles"));
    m_samples->setObjectName(QStringLiteral("samples"));
    for (const BundledSample &s : bundledSamples()) {
        auto *item = new QListWidgetItem(s.label, m_samples);
        item->setData(kPathRole, s.file);
    }
    m_samples->setToolTip(tr("Double-click (or Enter) to open a copy of the sample"));
    connect(m_recent, &QListWidget::itemActivated, this,
        [this](QListWidgetItem *item) { emit fileRequested(item->data(kPathRole).toString()); });
    connect(m_samples, &QListWidget::itemActivated, this,
        [this](QListWidgetItem *item) { emit sampleRequested(item->data(kPathRole).toString()); });

    auto *lists = new QGridLayout;
    lists->addWidget(heading(tr("Recent files"), this), 0, 0);
    lists->addWidget(heading(tr("Samples"), this), 0, 1);
    lists->addWidget(m_recent, 1, 0);
    lists->addWidget(m_samples, 1, 1);
    lists->setColumnStretch(0, 1);
    lists->setColumnStretch(1, 1);

    auto *hint = new QLabel(tr("First time? Open <b>paper-example</b> (the paper's 5×5 layer) or <b>lenet5-conv1</b>, "
                               "pick a strategy on the left and press → to step through it."),
        this);
    hint->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 16, 24, 16);
    layout->addWidget(title);
    layout->addLayout(buttons);
    layout->addSpacing(8);
    layout->addLayout(lists, 1);
    layout->addWidget(hint);
    refresh();
}

void StartPage::refresh()
{
    m_recent->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString &f : files) {
        auto *item = new QListWidgetItem(QFileInfo(f).fileName(), m_recent);
        item->setToolTip(QDir::toNativeSeparators(f));
        item->setData(kPathRole, f);
    }
    if (files.isEmpty()) {
        auto *item = new QListWidgetItem(tr("(none yet)"), m_recent);
        item->setFlags(Qt::NoItemFlags);
    }
}

} // namespace convoffload::ui
