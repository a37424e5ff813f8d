// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/StepControls.h"

#include "document/ProjectDocument.h"
#include "render/StepName.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace convoffload::ui {

StepControls::StepControls(ProjectDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    const auto makeAction = [this](QStyle::StandardPixmap icon, const QString &text, const QKeySequence &key, auto slot) {
        auto *action = new QAction(style()->standardIcon(icon), text, this);
        action->setShortcut(key);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_first = makeAction(QStyle::SP_MediaSkipBackward, tr("First step"), QKeySequence(Qt::Key_Home), &StepControls::first);
    m_previous = makeAction(QStyle::SP_MediaSeekBackward, tr("Previous"), QKeySequence(Qt::Key_Left), &StepControls::previous);
    m_next = makeAction(QStyle::SP_MediaSeekForward, tr("Next"), QKeySequence(Qt::Key_Right), &StepControls::next);
    m_last = makeAction(QStyle::SP_MediaSkipForward, tr("Last step"), QKeySequence(Qt::Key_End), &StepControls::last);
    m_play = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play"), this);
    m_play->setCheckable(true);
    m_play->setShortcut(QKeySequence(Qt::Key_Space));
    m_play->setToolTip(tr("Play / pause (Space)"));
    connect(m_play, &QAction::toggled, this, &StepControls::setPlaying);

    m_rows = new QBoxLayout(QBoxLayout::LeftToRight, this);
    m_rows->setContentsMargins(4, 2, 4, 2);
    m_stepping = new QHBoxLayout;
    m_options = new QHBoxLayout;
    m_rows->addLayout(m_stepping, 1);
    m_rows->addLayout(m_options);
    QHBoxLayout *layout = m_stepping;
    for (QAction *action : {m_first, m_previous, m_play, m_next, m_last}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setAutoRaise(true);
        layout->addWidget(button);
    }
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setToolTip(tr("Step"));
    m_slider->setMinimumWidth(60);
    layout->addWidget(m_slider, 1);
    m_label = new QLabel(this);
    layout->addWidget(m_label);
    m_speed = new QComboBox(this);
    for (int perSecond : {1, 2, 5, 10, 25, 60})
        m_speed->addItem(tr("%1 / s").arg(perSecond), perSecond);
    m_speed->setCurrentIndex(2);
    m_speed->setToolTip(tr("Play speed: steps (or actions) per second"));
    m_options->addStretch(1); // under the stepping row, at the right
    m_options->addWidget(m_speed);
    m_subSteps = new QCheckBox(tr("Actions"), this);
    m_subSteps->setToolTip(tr("Walk the six actions of each step one at a time:\n"
                              "a1 free input, a2 free kernels, a3 write, a4 load input, a5 load kernels, a6 compute"));
    m_options->addWidget(m_subSteps);

    connect(m_slider, &QSlider::valueChanged, this, [this](int step) {
        m_document->seek({step, subSteps() ? m_document->moment().action : Action::Compute});
    });
    connect(m_subSteps, &QCheckBox::toggled, this, [this](bool on) {
        if (!on)
            m_document->seek({m_document->moment().step, Action::Compute});
        refresh();
    });
    connect(
        m_speed, &QComboBox::currentIndexChanged, this, [this] { m_timer.setInterval(1000 / m_speed->currentData().toInt()); });
    m_timer.setInterval(1000 / m_speed->currentData().toInt());
    connect(&m_timer, &QTimer::timeout, this, [this] {
        const Moment before = m_document->moment();
        next();
        if (m_document->moment() == before)
            m_play->setChecked(false); // reached the end
    });
    connect(m_document, &ProjectDocument::momentChanged, this, &StepControls::refresh);
    connect(m_document, &ProjectDocument::simulationChanged, this, &StepControls::refresh);
    refresh();
}

bool StepControls::subSteps() const { return m_subSteps->isChecked(); }

int StepControls::stepCount() const { return m_document->cursor() ? m_document->cursor()->stepCount() : 0; }

void StepControls::first() { m_document->seek({0, subSteps() ? Action::FreeInput : Action::Compute}); }
void StepControls::last() { m_document->seek({stepCount() - 1, Action::Compute}); }

void StepControls::next()
{
    const Moment m = m_document->moment();
    if (!subSteps())
        m_document->seek({m.step + 1, Action::Compute});
    else if (m.action == Action::Compute)
        m_document->seek({m.step + 1, Action::FreeInput});
    else
        m_document->seek({m.step, Action(int(m.action) + 1)});
}

void StepControls::previous()
{
    const Moment m = m_document->moment();
    if (!subSteps())
        m_document->seek({std::max(0, m.step - 1), Action::Compute});
    else if (m.action == Action::FreeInput)
        m_document->seek({std::max(0, m.step - 1), m.step > 0 ? Action::Compute : Action::FreeInput});
    else
        m_document->seek({m.step, Action(int(m.action) - 1)});
}

void StepControls::setPlaying(bool playing)
{
    if (playing && m_document->moment().step >= stepCount() - 1 && m_document->moment().action == Action::Compute)
        first(); // play from the start when at the end
    playing ? m_timer.start() : m_timer.stop();
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    if (m_play->isChecked() != playing)
        m_play->setChecked(playing);
}

QSize StepControls::minimumSizeHint() const
{
    const QMargins margins = m_rows->contentsMargins();
    const int width = std::max(m_stepping->minimumSize().width(), m_options->minimumSize().width());
    return {width + margins.left() + margins.right(), QWidget::minimumSizeHint().height()};
}

void StepControls::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const QMargins margins = m_rows->contentsMargins();
    const int oneRow = m_stepping->minimumSize().width() + m_rows->spacing() + m_options->minimumSize().width() + margins.left()
        + margins.right();
    const QBoxLayout::Direction want = width() >= oneRow ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_rows->direction() != want)
        m_rows->setDirection(want);
}

void StepControls::refresh()
{
    const int count = stepCount();
    const Moment m = m_document->moment();
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, std::max(0, count - 1));
        m_slider->setValue(m.step);
    }
    for (QAction *a : {m_first, m_previous, m_play, m_next, m_last})
        a->setEnabled(count > 0);
    if (count == 0) {
        m_label->setText(tr("no simulation"));
        return;
    }
    m_label->setText(momentText(m, count));
    // As wide as the longest text of this simulation, so the slider does not
    // jump while stepping; an action's name only when actions are walked
    // (always counting it made the window's centre 100 px wider than it
    // needs, and at 1024×600 the side docks cut their fields).
    const QFontMetrics metrics(m_label->font());
    const Action widestAction = subSteps() ? Action::LoadKernels : Action::Compute;
    const int widest = std::max(metrics.horizontalAdvance(momentText({count - 2, widestAction}, count)),
        metrics.horizontalAdvance(momentText({count - 1, widestAction}, count)));
    m_label->setFixedWidth(widest + 4);
}

QString StepControls::momentText(const Moment &m, int count) const
{
    // The paper's numbering, as on the grids: compute steps 1..n, then the drain.
    const StepCursor *cursor = m_document->cursor();
    const bool lastIsDrain = cursor && !cursor->result().steps.empty() && cursor->result().steps.back().drain;
    const bool drain = lastIsDrain && m.step == count - 1;
    QString text = stepName(m.step, count, lastIsDrain);
    if (subSteps() && !drain)
        text += QStringLiteral(" — ") + QString::fromLatin1(actionName(m.action).data(), qsizetype(actionName(m.action).size()));
    return text;
}

} // namespace convoffload::ui
