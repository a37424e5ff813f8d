// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// File › New: a layer, its hardware and options (the Layer and hardware
// editor, with its messages at the fields), and the heuristics the new
// project starts with. Starts from LeNet-5 conv1 (a bundled sample).

#include "convoffload/model/Project.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
QT_END_NAMESPACE

namespace convoffload::ui {

class ProjectDocument;

class NewProjectDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewProjectDialog(QWidget *parent = nullptr);
    ~NewProjectDialog() override;

    /// The project to start: the problem edited here, the heuristics ticked.
    Project project() const;
    ProjectDocument *draft() const { return m_draft; }
    QCheckBox *heuristicBox(StrategyKind kind) const;

private:
    ProjectDocument *m_draft;
    QCheckBox *m_boxes[3] = {};
};

} // namespace convoffload::ui
