// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/CompactDoubleSpinBox.h"

namespace convoffload::ui {

QString CompactDoubleSpinBox::textFromValue(double value) const
{
    QString text = locale().toString(value, 'f', decimals());
    const QString point = locale().decimalPoint();
    if (text.contains(point)) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    if (!isGroupSeparatorShown())
        text.remove(locale().groupSeparator());
    return text;
}

} // namespace convoffload::ui
