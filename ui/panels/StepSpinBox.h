// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A spin box over a simulation's steps in the paper's numbering (StepName.h):
// 1..n are the compute steps, and a last step that is the drain reads
// "drain", as the step control and the grid titles call it, not n + 1.

#include <QSpinBox>

namespace convoffload::ui {

class StepSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit StepSpinBox(QWidget *parent = nullptr);
    /// `count` steps (1-based values 1..count), the last the drain when
    /// `lastIsDrain`; count 0: unknown, any step from 1.
    void setSteps(int count, bool lastIsDrain);

protected:
    QString textFromValue(int value) const override;
    int valueFromText(const QString &text) const override;
    QValidator::State validate(QString &text, int &pos) const override;

private:
    bool isDrain(int value) const { return m_lastIsDrain && value == maximum(); }
    QString drainText() const;

    bool m_lastIsDrain = false;
};

} // namespace convoffload::ui
