#pragma once
// The step table: follows the document's moment (its step's row is selected)
// and moves the document to a step when the user picks a row.

#include <QTableView>

namespace convoffload::ui {

class ProjectDocument;
class StepTableModel;

class StepTable : public QTableView {
    Q_OBJECT
public:
    explicit StepTable(ProjectDocument *document, QWidget *parent = nullptr);

    StepTableModel *stepModel() const { return m_model; }

private:
    void showMoment();
    void userPicked(const QModelIndex &index);

    ProjectDocument *m_document;
    StepTableModel *m_model;
    bool m_following = false; // selecting the moment's row: do not seek back
};

} // namespace convoffload::ui
