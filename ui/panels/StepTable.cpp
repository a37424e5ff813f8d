// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/StepTable.h"

#include "document/ProjectDocument.h"
#include "models/StepTableModel.h"

#include <QEvent>
#include <QHeaderView>

#include <algorithm>

namespace convoffload::ui {

StepTable::StepTable(ProjectDocument *document, QWidget *parent)
    : QTableView(parent)
    , m_document(document)
    , m_model(new StepTableModel(document, this))
{
    setModel(m_model);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setWordWrap(false);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // Every column as wide as its contents, none stretched: a stretched last
    // column of right-aligned numbers left a wide empty gap before them.
    // Sized here (fitColumns) rather than by ResizeToContents, which measured
    // every cell after every edit.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);

    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { userPicked(current); });
    // A click on the row already selected still goes back to the step's end
    // (the moment may be at an earlier action of that step).
    connect(this, &QAbstractItemView::clicked, this, &StepTable::userPicked);
    connect(m_model, &QAbstractItemModel::modelReset, this, &StepTable::showMoment);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        fitRows();
        fitColumns();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &StepTable::fitColumns);
    connect(m_document, &ProjectDocument::momentChanged, this, &StepTable::showMoment);
    fitRows();
    fitColumns();
    showMoment();
}

void StepTable::changeEvent(QEvent *event)
{
    QTableView::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_rowsFitted = false;
        fitRows();
        fitColumns();
    }
}

// As QHeaderView's ResizeToContents: the larger of the header's and the
// cells' size hints, within the header's bounds; the cells measured are the
// widest (QTableView::sizeHintForColumn adds the grid line the same way).
void StepTable::fitColumns()
{
    QHeaderView *header = horizontalHeader();
    for (int column = 0; column < m_model->columnCount(); ++column) {
        int width = header->sectionSizeHint(column);
        for (int row : m_model->widestRows(column))
            width = std::max(width, sizeHintForIndex(m_model->index(row, column)).width() + (showGrid() ? 1 : 0));
        width = std::clamp(width, header->minimumSectionSize(), header->maximumSectionSize());
        if (header->sectionSize(column) != width)
            header->resizeSection(column, width);
    }
}

// Every cell is one line of the same font: one row measured gives them all.
void StepTable::fitRows()
{
    if (m_rowsFitted || m_model->rowCount() == 0)
        return;
    QHeaderView *header = verticalHeader();
    const int height = std::clamp(
        std::max(sizeHintForRow(0), header->sectionSizeHint(0)), header->minimumSectionSize(), header->maximumSectionSize());
    header->setDefaultSectionSize(height); // every section, existing ones too
    m_rowsFitted = true;
}

void StepTable::userPicked(const QModelIndex &index)
{
    if (m_following || !index.isValid())
        return;
    m_document->seek({index.data(StepTableModel::StepIndexRole).toInt(), Action::Compute});
}

void StepTable::showMoment()
{
    const int row = m_document->moment().step;
    m_following = true;
    if (m_document->cursor() && row >= 0 && row < m_model->rowCount()) {
        const QModelIndex index = m_model->index(row, 0);
        selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        scrollTo(index);
    } else {
        selectionModel()->clear();
    }
    m_following = false;
}

} // namespace convoffload::ui
