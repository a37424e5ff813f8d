#include "panels/StepTable.h"

#include "document/ProjectDocument.h"
#include "models/StepTableModel.h"

#include <QHeaderView>

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
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Every column as wide as its contents, none stretched: a stretched last
    // column of right-aligned numbers left a wide empty gap before them.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);

    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { userPicked(current); });
    // A click on the row already selected still goes back to the step's end
    // (the moment may be at an earlier action of that step).
    connect(this, &QAbstractItemView::clicked, this, &StepTable::userPicked);
    connect(m_model, &QAbstractItemModel::modelReset, this, &StepTable::showMoment);
    connect(m_document, &ProjectDocument::momentChanged, this, &StepTable::showMoment);
    showMoment();
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
