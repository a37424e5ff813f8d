// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "models/StrategyListModel.h"

#include "document/ChangeStrategyCommand.h"
#include "document/ProjectDocument.h"
#include "render/PaintedIcon.h"
#include "render/Palette.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <cmath>

namespace convoffload::ui {

namespace {

bool refusedForWork(const CompareRow &row) { return row.failure.starts_with(kNotSimulatedPrefix); }

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

QString formatNumber(double v)
{
    if (std::abs(v) < 9e15 && v == double(std::int64_t(v)))
        return QString::number(qlonglong(v));
    return QString::number(v, 'g', 6);
}

bool problemIsSound(const Problem &p) { return p.layer.problems().empty() && p.hardware.problems().empty(); }

/// The badge: a disc whose shape differs as well as its colour (a tick, a
/// cross, an exclamation mark, an empty ring), so it reads without colour.
void drawBadge(QPainter &p, qreal s, StrategyListModel::Status status)
{
    const QRectF disc(s * 0.06, s * 0.06, s * 0.88, s * 0.88);
    QPen mark(Qt::white, s * 0.14, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    switch (status) {
    case StrategyListModel::Status::Pending:
        p.setPen(QPen(QColor(0x99, 0x99, 0x99), s * 0.1));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(disc.adjusted(s * 0.05, s * 0.05, -s * 0.05, -s * 0.05));
        break;
    case StrategyListModel::Status::Valid: {
        p.setPen(Qt::NoPen);
        p.setBrush(Palette::compute()); // bluish green
        p.drawEllipse(disc);
        p.setPen(mark);
        QPainterPath tick;
        tick.moveTo(s * 0.28, s * 0.52);
        tick.lineTo(s * 0.44, s * 0.68);
        tick.lineTo(s * 0.72, s * 0.34);
        p.drawPath(tick);
        break;
    }
    case StrategyListModel::Status::Invalid:
        p.setPen(Qt::NoPen);
        p.setBrush(Palette::capacity()); // vermillion
        p.drawEllipse(disc);
        p.setPen(mark);
        p.drawLine(QPointF(s * 0.33, s * 0.33), QPointF(s * 0.67, s * 0.67));
        p.drawLine(QPointF(s * 0.67, s * 0.33), QPointF(s * 0.33, s * 0.67));
        break;
    case StrategyListModel::Status::BreaksAssumptions: {
        // A triangle (the warning shape) in orange with the tick: runs
        // correctly, but not within the paper's assumptions.
        drawWarningTriangle(p, s, 0.04);
        p.setPen(QPen(Qt::black, s * 0.11, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        QPainterPath tick;
        tick.moveTo(s * 0.32, s * 0.62);
        tick.lineTo(s * 0.45, s * 0.75);
        tick.lineTo(s * 0.68, s * 0.45);
        p.drawPath(tick);
        break;
    }
    case StrategyListModel::Status::Failed:
        p.setPen(Qt::NoPen);
        p.setBrush(Palette::capacity());
        p.drawEllipse(disc);
        p.setPen(mark);
        p.drawLine(QPointF(s * 0.5, s * 0.26), QPointF(s * 0.5, s * 0.56));
        p.drawPoint(QPointF(s * 0.5, s * 0.74));
        break;
    }
}

} // namespace

StrategyListModel::StrategyListModel(ProjectDocument *document, QObject *parent)
    : QAbstractListModel(parent)
    , m_document(document)
    , m_count(int(document->project().strategies.size()))
{
    // Rows follow the document's insertions and removals one by one, so views
    // keep their selection and open editors; a redefined strategy is one row
    // of dataChanged; only a new project resets the list.
    connect(document, &ProjectDocument::strategyAboutToBeInserted, this, [this](int row) { beginInsertRows({}, row, row); });
    connect(document, &ProjectDocument::strategyInserted, this, [this] {
        ++m_count;
        endInsertRows();
    });
    connect(document, &ProjectDocument::strategyAboutToBeRemoved, this, [this](int row) { beginRemoveRows({}, row, row); });
    connect(document, &ProjectDocument::strategyRemoved, this, [this] {
        --m_count;
        endRemoveRows();
    });
    connect(document, &ProjectDocument::strategyChanged, this, [this](int row) { emit dataChanged(index(row), index(row)); });
    connect(document, &ProjectDocument::projectAboutToBeReset, this, &StrategyListModel::beginResetModel);
    connect(document, &ProjectDocument::projectReset, this, [this] {
        m_count = int(m_document->project().strategies.size());
        endResetModel();
    });
    const auto allChanged = [this] {
        if (m_count > 0)
            emit dataChanged(index(0), index(m_count - 1));
    };
    connect(document, &ProjectDocument::comparisonChanged, this, allChanged);
    connect(document, &ProjectDocument::problemChanged, this, allChanged); // group sizes follow nb_patches_max
}

int StrategyListModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : m_count; }

Qt::ItemFlags StrategyListModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> StrategyListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(KindRole, "kind");
    names.insert(GroupSizeRole, "groupSize");
    names.insert(ValidRole, "valid");
    names.insert(DurationRole, "duration");
    names.insert(ErrorCountRole, "errorCount");
    names.insert(WarningCountRole, "warningCount");
    names.insert(StatusRole, "status");
    names.insert(SummaryRole, "summary");
    return names;
}

const CompareRow *StrategyListModel::comparisonFor(int row) const
{
    const StrategySpec &spec = m_document->project().strategies[std::size_t(row)];
    // The comparison runs on a worker: match by name and kind, so a row of an
    // older project is not shown against a different strategy.
    for (const CompareRow &r : m_document->comparison())
        if (r.name == spec.name && r.kind == strategyKindName(spec.kind))
            return &r;
    return nullptr;
}

StrategyListModel::Status StrategyListModel::status(int row) const
{
    const CompareRow *r = comparisonFor(row);
    if (!r)
        return Status::Pending;
    if (!r->failure.empty())
        return Status::Failed;
    if (!r->valid)
        return Status::Invalid;
    return verdictOf(*r).status == StrategyStatus::BreaksAssumptions ? Status::BreaksAssumptions : Status::Valid;
}

QVariant StrategyListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    if (row >= int(m_document->project().strategies.size()))
        return {}; // the document changed and the signal is on its way
    const StrategySpec &spec = m_document->project().strategies[std::size_t(row)];
    const CompareRow *r = comparisonFor(row);
    const bool simulated = r && r->failure.empty();
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return fromStd(spec.name);
    case Qt::ToolTipRole:
        return toolTip(row);
    case Qt::DecorationRole:
        return badge(status(row));
    case KindRole:
        return fromStd(strategyKindName(spec.kind));
    case GroupSizeRole:
        if (spec.kind == StrategyKind::Groups)
            return qint64(0);
        if (spec.kind == StrategyKind::S1Baseline)
            return qint64(1);
        return qint64(spec.group_size.value_or(m_document->problem().nbPatchesMax()));
    case ValidRole:
        return r ? QVariant(simulated && r->valid) : QVariant();
    case DurationRole:
        return simulated ? QVariant(r->total_duration) : QVariant();
    case ErrorCountRole:
        return simulated ? QVariant(qint64(r->errors)) : QVariant();
    case WarningCountRole:
        return simulated ? QVariant(qint64(r->warnings)) : QVariant();
    case StatusRole:
        return int(status(row));
    case VerdictRole:
        return simulated ? fromStd(verdictText(verdictOf(*r))) : QVariant();
    case SummaryRole:
        return summary(row);
    default:
        return {};
    }
}

QString StrategyListModel::summary(int row) const
{
    const StrategySpec &spec = m_document->project().strategies[std::size_t(row)];
    QStringList parts;
    if (spec.kind == StrategyKind::Groups) // "5 groups" says the kind already
        parts << (spec.groups.size() == 1 ? tr("1 group") : tr("%1 groups").arg(spec.groups.size()));
    else
        parts << fromStd(strategyKindName(spec.kind));
    if (spec.kind == StrategyKind::RowByRow || spec.kind == StrategyKind::ZigZag)
        parts << tr("G = %1").arg(data(index(row), GroupSizeRole).toLongLong());
    const CompareRow *r = comparisonFor(row);
    if (!r)
        parts << (problemIsSound(m_document->problem()) ? tr("simulating…") : tr("not simulated"));
    else if (refusedForWork(*r))
        parts << tr("not simulated: too much work");
    else if (!r->failure.empty())
        parts << tr("cannot be expanded");
    else {
        parts << tr("%1 cycles").arg(formatNumber(r->total_duration));
        const Verdict verdict = verdictOf(*r);
        if (!r->valid)
            parts << (r->errors == 1 ? tr("1 error") : tr("%1 errors").arg(r->errors));
        else if (verdict.status == StrategyStatus::BreaksAssumptions)
            parts << fromStd(reloadAssumptionText(verdict.reload_pixels, verdict.reload_kernels));
    }
    return parts.join(QStringLiteral(" · "));
}

QString StrategyListModel::toolTip(int row) const
{
    const StrategySpec &spec = m_document->project().strategies[std::size_t(row)];
    QString tip = QStringLiteral("<b>%1</b> — %2").arg(fromStd(spec.name).toHtmlEscaped(), summary(row).toHtmlEscaped());
    const CompareRow *r = comparisonFor(row);
    if (!r) {
        tip += QStringLiteral("<br>")
            + (problemIsSound(m_document->problem()) ? tr("Not simulated yet.")
                                                     : tr("Not simulated: the layer or hardware has problems."));
    } else if (refusedForWork(*r)) {
        tip += QStringLiteral("<br>")
            + tr("Not simulated: the work estimate is over the budget (%1).")
                  .arg(fromStd(r->failure.substr(kNotSimulatedPrefix.size())).toHtmlEscaped());
    } else if (!r->failure.empty()) {
        tip += QStringLiteral("<br>") + tr("Cannot be expanded: %1").arg(fromStd(r->failure).toHtmlEscaped());
    } else {
        const Verdict verdict = verdictOf(*r);
        QString state = fromStd(verdictSummary(verdict)).toHtmlEscaped();
        state[0] = state[0].toUpper();
        if (verdict.status == StrategyStatus::Invalid)
            state = tr("<b>Invalid</b>: breaks the rules of the model (see Errors and warnings): %1")
                        .arg(fromStd(verdictSummary(verdict).substr(std::string("invalid: ").size())).toHtmlEscaped());
        else if (verdict.status == StrategyStatus::BreaksAssumptions)
            state += tr(" (the paper assumes %1).").arg(fromStd(reloadAssumptionRule(verdict.bound)).toHtmlEscaped());
        else
            state += QLatin1Char('.');
        tip += QStringLiteral("<br>") + state + QStringLiteral("<br>")
            + tr("Duration %1 cycles over %2 steps; peak footprint %3 / %4 elements.")
                  .arg(formatNumber(r->total_duration))
                  .arg(r->steps)
                  .arg(r->peak_footprint)
                  .arg(m_document->problem().hardware.mem_size);
    }
    return tip;
}

QString StrategyListModel::renameProblem(int row, const QString &name) const
{
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return tr("A strategy needs a name.");
    const auto &strategies = m_document->project().strategies;
    for (std::size_t i = 0; i < strategies.size(); ++i)
        if (int(i) != row && fromStd(strategies[i].name) == trimmed)
            return tr("A strategy named “%1” already exists: choose another name.").arg(trimmed);
    return {};
}

bool StrategyListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid()
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const int row = index.row();
    StrategySpec after = m_document->project().strategies.at(std::size_t(row));
    const QString name = value.toString().trimmed();
    if (name == fromStd(after.name))
        return false; // nothing to do, nothing to refuse
    if (const QString problem = renameProblem(row, name); !problem.isEmpty()) {
        emit renameRefused(problem);
        return false;
    }
    const QString before = fromStd(after.name);
    after.name = name.toStdString();
    // The command's redo() replaces the strategy; strategyChanged updates the row.
    m_document->undoStack()->push(
        new ChangeStrategyCommand(m_document, row, after, tr("Rename strategy %1 to %2").arg(before, name)));
    return true;
}

QIcon StrategyListModel::badge(Status status)
{
    static QIcon icons[int(Status::BreaksAssumptions) + 1];
    QIcon &icon = icons[int(status)];
    if (icon.isNull())
        icon = paintedIcon([status](QPainter &p, qreal s) { drawBadge(p, s, status); });
    return icon;
}

} // namespace convoffload::ui
