// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A double spin box that shows its value without trailing zeros ("1", "0.25"),
// so integral durations do not read "1.000000".

#include <QDoubleSpinBox>

namespace convoffload::ui {

class CompactDoubleSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override;
};

} // namespace convoffload::ui
