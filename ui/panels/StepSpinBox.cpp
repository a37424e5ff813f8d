// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/StepSpinBox.h"

namespace convoffload::ui {

StepSpinBox::StepSpinBox(QWidget *parent)
    : QSpinBox(parent)
{
    setSteps(0, false);
}

void StepSpinBox::setSteps(int count, bool lastIsDrain)
{
    m_lastIsDrain = count > 0 && lastIsDrain;
    setRange(1, count > 0 ? count : 1 << 30);
    // The drain's word is wider than its number: let the box size for it.
    updateGeometry();
}

QString StepSpinBox::drainText() const { return tr("drain"); }

QString StepSpinBox::textFromValue(int value) const { return isDrain(value) ? drainText() : QSpinBox::textFromValue(value); }

int StepSpinBox::valueFromText(const QString &text) const
{
    if (m_lastIsDrain && drainText().startsWith(text.trimmed(), Qt::CaseInsensitive) && !text.trimmed().isEmpty())
        return maximum();
    return QSpinBox::valueFromText(text);
}

QValidator::State StepSpinBox::validate(QString &text, int &pos) const
{
    const QString t = text.trimmed();
    if (m_lastIsDrain && !t.isEmpty() && drainText().startsWith(t, Qt::CaseInsensitive))
        return t.size() == drainText().size() ? QValidator::Acceptable : QValidator::Intermediate;
    return QSpinBox::validate(text, pos);
}

} // namespace convoffload::ui
