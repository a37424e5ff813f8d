// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Asks for a heuristic (S1-baseline, Row-by-Row, ZigZag), its group size and a
// name; proposes a free name and refuses an empty or taken one. StrategyPanel
// adds the strategy once the dialog is accepted.

#include "convoffload/model/S1Strategy.h"

#include <QDialog>

#include <cstdint>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace convoffload::ui {

class ProjectDocument;

class AddHeuristicDialog : public QDialog {
    Q_OBJECT
public:
    AddHeuristicDialog(ProjectDocument *document, QWidget *parent);

    StrategyKind kind() const;
    std::int64_t groupSize() const;
    QString name() const;

private:
    void update();
    void check();

    ProjectDocument *m_document;
    std::int64_t m_nbPatchesMax = 0;
    QComboBox *m_kind;
    QSpinBox *m_groupSize;
    QLineEdit *m_name;
    QLabel *m_hint;
    QDialogButtonBox *m_buttons;
    bool m_nameEdited = false;
};

} // namespace convoffload::ui
