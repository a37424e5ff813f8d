// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One row per step of the current simulation (the drain last): element
// counts, peak footprint, duration and cumulative duration; with a transfer
// model (docs/reference/model.md#transfer-cost) also the DMA runs and bursts
// of the loads and writes and their set-up time, columns a linear project's
// table does not have. Follows the
// document's simulation: reset when a snapshot with other steps arrives,
// updated in place when the new one has as many steps (one dataChanged over
// the rows that differ, none when no row does).

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace convoffload::ui {

class ProjectDocument;
struct SimulationSnapshot;

class StepTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        LoadedInputColumn,
        LoadedKernelsColumn,
        FreedInputColumn,
        WrittenColumn,
        ComputedColumn,
        FootprintColumn,
        DurationColumn,
        CumulativeColumn,
        LinearColumnCount, // the columns without a transfer model
        LoadRunsColumn = LinearColumnCount,
        LoadBurstsColumn,
        WriteRunsColumn,
        WriteBurstsColumn,
        SetupColumn,
        ColumnCount
    };
    enum Role {
        StepIndexRole = Qt::UserRole, // int: 0-based index into SimulationResult::steps
        ValueRole, // the cell's number (qint64 or double), for sorting and tests
        DrainRole, // bool
    };

    explicit StepTableModel(ProjectDocument *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The rows whose text in `column` is the longest (by characters: the
    /// text is digits, separators and "drain"), for sizing the column from a
    /// few cells instead of every one; empty without rows.
    std::vector<int> widestRows(int column) const;

private:
    void follow();
    bool transferModel() const;
    static std::vector<double> cumulative(const SimulationSnapshot *snapshot);
    QVariant value(int row, int column) const;
    /// The cell's value as a number (value() without the QVariant).
    double number(int row, int column) const;

    ProjectDocument *m_document;
    std::shared_ptr<const SimulationSnapshot> m_snapshot; // kept alive while shown
    std::vector<double> m_cumulative;
};

} // namespace convoffload::ui
