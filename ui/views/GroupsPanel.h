#pragma once
// The current strategy's groups as a tree to edit by hand: drag patches
// between groups, onto "Unassigned" or between groups (a new group); drag
// groups to reorder them; or use the keyboard actions. Refused edits say why.

#include <QWidget>

class QAction;
class QLabel;
class QTreeView;

namespace convoffload::ui {

class GroupListModel;
class ProjectDocument;

class GroupsPanel : public QWidget {
    Q_OBJECT
public:
    explicit GroupsPanel(ProjectDocument *document, QWidget *parent = nullptr);

    GroupListModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QString lastMessage() const;
    /// The live feedback line: validity, duration, difference from the best heuristic.
    QString feedback() const;

public slots:
    void newGroupFromSelection();
    void unassignSelection();
    void moveGroupUp();
    void moveGroupDown();

private:
    std::vector<std::uint32_t> selectedPatches() const;
    int currentGroup() const;
    void show(const QString &error);
    void updateFeedback();

    ProjectDocument *m_document;
    GroupListModel *m_model;
    QTreeView *m_view;
    QLabel *m_message;
    QLabel *m_feedback;
};

} // namespace convoffload::ui
