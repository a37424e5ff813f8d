// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// First / previous / play-pause / next / last, a slider, the play speed and
// the choice to walk the six actions of a step one at a time.

#include "convoffload/simulate/StepCursor.h"

#include <QTimer>
#include <QWidget>

class QAction;
class QBoxLayout;
class QCheckBox;
class QHBoxLayout;
class QComboBox;
class QLabel;
class QSlider;

namespace convoffload::ui {

class ProjectDocument;

class StepControls : public QWidget {
    Q_OBJECT
public:
    explicit StepControls(ProjectDocument *document, QWidget *parent = nullptr);

    // For the main window's menus and shortcuts.
    QAction *firstAction() const { return m_first; }
    QAction *previousAction() const { return m_previous; }
    QAction *playAction() const { return m_play; }
    QAction *nextAction() const { return m_next; }
    QAction *lastAction() const { return m_last; }
    bool subSteps() const;
    /// As narrow as the wider of its two parts (the buttons, slider and
    /// step; the speed and Actions): on a narrow window the second goes
    /// under the first. In one row they made the centre of a 1024×600
    /// window 501 px wide at least, and the side docks cut their fields.
    QSize minimumSizeHint() const override;

public slots:
    void first();
    void previous();
    void next();
    void last();
    void setPlaying(bool playing);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void refresh();
    QString momentText(const Moment &m, int count) const;
    int stepCount() const;

    ProjectDocument *m_document;
    QAction *m_first, *m_previous, *m_play, *m_next, *m_last;
    QSlider *m_slider;
    QLabel *m_label;
    QComboBox *m_speed;
    QCheckBox *m_subSteps;
    QBoxLayout *m_rows; // one row, or two on a narrow window
    QHBoxLayout *m_stepping, *m_options;
    QTimer m_timer;
};

} // namespace convoffload::ui
