#pragma once
// The gain heat map of the paper's experiments as a widget (the drawing itself
// is paintGainHeatMap, shared with the exports).

#include "convoffload/optimise/PaperExperiments.h"

#include <QWidget>

#include <vector>

namespace convoffload::ui {

/// Paints the gain heat map of the rows it is given.
class GainHeatMapWidget : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    void setRows(std::vector<ExperimentRow> rows);
    const std::vector<ExperimentRow> &rows() const { return m_rows; }
    QSize sizeHint() const override { return {640, 460}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<ExperimentRow> m_rows;
};

} // namespace convoffload::ui
