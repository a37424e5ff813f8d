// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Compare tab: the ComparisonPlot of the current rows, drawn at the
// widget's size with its font, or a short message when there is nothing to
// compare.

#include "charts/ComparisonPlot.h"

#include <QWidget>

#include <optional>

namespace convoffload::ui {

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget *parent = nullptr);

    /// Empty rows show `emptyText` instead.
    void setRows(std::vector<CompareRow> rows, const QString &emptyText = {});
    const ComparisonPlot *plot() const { return m_plot ? &*m_plot : nullptr; }
    QString emptyText() const { return m_emptyText; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::optional<ComparisonPlot> m_plot;
    QString m_emptyText;
};

} // namespace convoffload::ui
