// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// File > Export Figure: any figure of the catalogue (grids, charts,
// storyboard) at a chosen size to PNG, SVG or PDF, and the per-step metrics
// to CSV or JSON — the same drawings as `convoffload-cli export`. A preset
// (paper column, paper full width, slide — the CLI's --preset) sets the
// printed size and the font in points; "Custom" takes a size in pixels.
// The figure, the preset and "leave out the title" are remembered across
// runs (QSettings), the file name per project.

#include "export/ExportPreset.h"
#include "export/Figures.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace convoffload::ui {

class ProjectDocument;
class StepSpinBox;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(ProjectDocument *document, QWidget *parent = nullptr);

    void setFigure(FigureKind kind);
    /// Chooses an export preset by its CLI name ("paper-column", ...), or the
    /// custom size in pixels for an empty or unknown name.
    void setPreset(const QString &name);
    /// The figure's layout size: the preset's printed size in CSS pixels, or
    /// the custom size.
    QSize figureSize() const;
    /// Exports with the dialog's current choices; returns an error message.
    QString exportFigureTo(const QString &path);
    QString exportMetricsTo(const QString &path);
    /// Keeps the figure, preset, title choice and (for this project) the file
    /// name for the next time the dialog opens; done by Export and Close.
    void rememberChoices() const;

    void done(int result) override;

private:
    void browse();
    void exportNow();
    void exportMetrics();
    void updateEnabled();
    void applyPreset();
    void restoreChoices();

    ProjectDocument *m_document;
    QComboBox *m_figure, *m_strategy, *m_versus, *m_preset;
    StepSpinBox *m_step;
    QSpinBox *m_storySteps, *m_width, *m_height;
    QCheckBox *m_heatMap;
    QCheckBox *m_cursor;
    QCheckBox *m_noTitle;
    QLineEdit *m_path;
    QLabel *m_result;
};

} // namespace convoffload::ui
