// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The project's strategies as a list: the name of each, a validity badge and
// the duration (from the document's comparison). Renaming through setData
// pushes an undo command.

#include <QAbstractListModel>
#include <QIcon>

namespace convoffload {
struct CompareRow;
}

namespace convoffload::ui {

class ProjectDocument;

/// A thin adapter over document->project().strategies and document->comparison().
/// Rows follow the document's strategyInserted/strategyRemoved pairs and
/// strategyChanged (dataChanged); only projectReset resets the list.
/// Display/Edit: the name (setting it pushes a rename, refused when empty or taken).
class StrategyListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        KindRole = Qt::UserRole, // QString: "zigzag", "groups", ...
        GroupSizeRole, // qint64: G of a generator (1 for s1-baseline), 0 for explicit groups
        ValidRole, // bool; invalid QVariant while not simulated yet
        DurationRole, // double; invalid QVariant while not simulated or not expandable
        ErrorCountRole, // qint64
        WarningCountRole, // qint64
        StatusRole, // int(Status)
        VerdictRole, // QString: the core's verdict ("runs correctly, breaks the reload assumption on 840 pixels")
        SummaryRole, // QString: the line under the name ("zigzag · G = 2 · 121 cycles")
    };
    /// Valid: runs correctly and meets the paper's assumptions;
    /// BreaksAssumptions: runs correctly, loads some element more often than
    /// the reload bound allows; Invalid: breaks a rule of the model.
    enum class Status { Pending, Valid, Invalid, Failed, BreaksAssumptions };

    explicit StrategyListModel(ProjectDocument *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Why the strategy at `row` cannot be called `name`; empty when it can.
    QString renameProblem(int row, const QString &name) const;
    static QIcon badge(Status status);

signals:
    /// setData refused a name; `reason` is a sentence for the user.
    void renameRefused(const QString &reason);

private:
    const CompareRow *comparisonFor(int row) const;
    Status status(int row) const;
    QString toolTip(int row) const;
    QString summary(int row) const;

    ProjectDocument *m_document;
    int m_count = 0; // what the views were last told
};

} // namespace convoffload::ui
