// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A heat map of the paper's experiments as a widget: the gain map or the gap
// map (the drawing itself is paintExperimentHeatMap, shared with the exports).

#include "convoffload/optimise/PaperExperiments.h"
#include "optimise/GainHeatMap.h"

#include <QWidget>

#include <vector>

namespace convoffload::ui {

/// Paints one heat map of the rows it is given.
class GainHeatMapWidget : public QWidget {
    Q_OBJECT
public:
    explicit GainHeatMapWidget(ExperimentHeatMap map = ExperimentHeatMap::Gain, QWidget *parent = nullptr)
        : QWidget(parent)
        , m_map(map)
    {
    }
    ExperimentHeatMap map() const { return m_map; }
    void setRows(std::vector<ExperimentRow> rows);
    const std::vector<ExperimentRow> &rows() const { return m_rows; }
    QSize sizeHint() const override { return {640, 460}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override; // a tooltip per cell

private:
    ExperimentHeatMap m_map;
    std::vector<ExperimentRow> m_rows;
};

} // namespace convoffload::ui
