// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "models/GroupListModel.h"

#include "document/ProjectDocument.h"
#include "models/DropPreview.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QDataStream>
#include <QIcon>
#include <QStyle>
#include <QIODevice>
#include <QMimeData>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace convoffload::ui {

namespace {

// Top-level rows have internal id 0, patches the row of their parent + 1.
constexpr quintptr kTopLevel = 0;

QString patches(std::size_t n) { return n == 1 ? GroupListModel::tr("1 patch") : GroupListModel::tr("%1 patches").arg(n); }

using Payload = PatchPayload;

// strategy (4 bytes), whole-group flag (1), group (4), patch count (4), then 4 per patch.
constexpr qint64 kHeaderBytes = 13;

constexpr int kMaxListedFindings = 6; // in a row's tooltip

QByteArray encode(const Payload &p)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << p.strategy << quint8(p.wholeGroup) << p.group << quint32(p.patches.size());
    for (PatchId id : p.patches)
        out << quint32(id);
    return bytes;
}

/// Decodes a payload; nullopt for anything malformed (the count is checked
/// against the bytes before reading, so garbage never allocates much).
std::optional<Payload> decode(const QByteArray &bytes)
{
    QDataStream in(bytes);
    Payload p;
    quint8 whole = 0;
    quint32 count = 0;
    in >> p.strategy >> whole >> p.group >> count;
    if (in.status() != QDataStream::Ok || whole > 1 || count == 0 || qint64(count) * 4 != bytes.size() - kHeaderBytes)
        return std::nullopt;
    p.wholeGroup = whole == 1;
    p.patches.reserve(count);
    for (quint32 i = 0; i < count; ++i) {
        quint32 id = 0;
        in >> id;
        p.patches.push_back(PatchId(id));
    }
    if (in.status() != QDataStream::Ok || !in.atEnd())
        return std::nullopt;
    return p;
}

} // namespace

QMimeData *GroupListModel::encodePatches(const PatchPayload &payload)
{
    auto *data = new QMimeData;
    data->setData(mimeType(), encode(payload));
    return data;
}

QMimeData *GroupListModel::encodePatches(int strategy, const PatchList &patches)
{
    PatchPayload payload;
    payload.strategy = strategy;
    payload.patches = patches;
    return encodePatches(payload);
}

std::optional<PatchPayload> GroupListModel::decodePatches(const QMimeData *data)
{
    if (!data || !data->hasFormat(mimeType()))
        return std::nullopt;
    return decode(data->data(mimeType()));
}

GroupListModel::GroupListModel(ProjectDocument *document, QObject *parent)
    : StrategyEditModel(document, parent)
    , m_preview(new DropPreview(this))
{
    // A new project or another current strategy shows other groups: reset.
    // Edits of the strategy shown (and of the problem) update the tree in
    // place, so expanded groups stay expanded and selected patches selected.
    connect(document, &ProjectDocument::projectAboutToBeReset, this, [this] {
        m_preview->clear();
        beginResetModel();
    });
    connect(document, &ProjectDocument::projectReset, this, [this] {
        assign(load());
        updateFindings();
        endResetModel();
        emit findingsChanged();
    });
    connect(document, &ProjectDocument::currentStrategyChanged, this, &GroupListModel::resetTree);
    connect(document, &ProjectDocument::problemChanged, this, &GroupListModel::updateTree);
    connect(document, &ProjectDocument::groupsChanged, this, [this](int strategy) {
        if (strategy == m_strategy)
            updateTree();
    });
    connect(document, &ProjectDocument::strategyChanged, this, [this](int strategy) {
        if (strategy == m_strategy)
            refreshFindings(); // the simulation shown is of the strategy before the edit
    });
    connect(document, &ProjectDocument::simulationChanged, this, &GroupListModel::refreshFindings);
    assign(load());
    updateFindings();
}

void GroupListModel::resetTree()
{
    m_preview->clear(); // it previewed groups that are gone
    beginResetModel();
    assign(load());
    updateFindings();
    endResetModel();
    emit findingsChanged();
}

void GroupListModel::refreshFindings()
{
    const FindingPlaces before = m_findings;
    updateFindings();
    // The rows do not change; only rows flagged before or after may read
    // differently (icon, tooltip): a row with no finding either time shows
    // exactly what it showed.
    emitFlaggedRowsChanged(before, {Qt::DecorationRole, Qt::ToolTipRole, FindingsRole});
    emit findingsChanged();
}

void GroupListModel::emitFlaggedRowsChanged(const FindingPlaces &before, const QList<int> &roles)
{
    if (m_strategy < 0)
        return;
    const auto flaggedGroup = [](const FindingPlaces &f, std::size_t g) { return g < f.groups.size() && !f.groups[g].empty(); };
    std::unordered_set<PatchId> flagged;
    for (const FindingPlaces *f : {&before, static_cast<const FindingPlaces *>(&m_findings)})
        for (const auto &[patch, finding] : f->patches)
            flagged.insert(patch);
    // One signal per run of consecutive flagged rows under `parent`.
    const auto emitRuns = [&](const QModelIndex &parent, int rows, const auto &isFlagged) {
        for (int row = 0; row < rows;) {
            if (!isFlagged(row)) {
                ++row;
                continue;
            }
            const int first = row;
            while (row < rows && isFlagged(row))
                ++row;
            emit dataChanged(index(first, 0, parent), index(row - 1, 0, parent), roles);
        }
    };
    const auto flaggedIn = [&](const PatchList &list) {
        return std::any_of(list.begin(), list.end(), [&](PatchId p) { return flagged.count(p) > 0; });
    };
    const int top = rowCount();
    emitRuns(QModelIndex(), top, [&](int row) {
        if (row == unassignedRow())
            return flaggedIn(m_unassigned); // the union of its patches' findings
        return flaggedGroup(before, std::size_t(row)) || flaggedGroup(m_findings, std::size_t(row));
    });
    if (flagged.empty())
        return;
    for (int row = 0; row < top; ++row) {
        const PatchList &list = row == unassignedRow() ? m_unassigned : m_groups[std::size_t(row)];
        if (flaggedIn(list))
            emitRuns(index(row, 0), int(list.size()), [&](int i) { return flagged.count(list[std::size_t(i)]) > 0; });
    }
}

namespace {

/// For each new group, the old group it continues (or -1): pairs of groups
/// sharing the most patches first, each group used once. A group that keeps
/// most of its patches keeps its row's state (expanded, selected).
std::vector<int> matchGroups(const Groups &before, const Groups &after)
{
    std::unordered_map<PatchId, int> oldGroup;
    for (std::size_t g = 0; g < before.size(); ++g)
        for (PatchId p : before[g])
            oldGroup[p] = int(g);
    struct Pair {
        int shared, next, old;
    };
    std::vector<Pair> pairs;
    for (std::size_t g = 0; g < after.size(); ++g) {
        std::unordered_map<int, int> shared;
        for (PatchId p : after[g])
            if (const auto it = oldGroup.find(p); it != oldGroup.end())
                ++shared[it->second];
        for (const auto &[old, count] : shared)
            pairs.push_back({count, int(g), old});
    }
    std::sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) {
        return a.shared != b.shared ? a.shared > b.shared : a.next != b.next ? a.next < b.next : a.old < b.old;
    });
    std::vector<int> origin(after.size(), -1);
    std::vector<bool> used(before.size(), false);
    for (const Pair &p : pairs)
        if (origin[std::size_t(p.next)] < 0 && !used[std::size_t(p.old)]) {
            origin[std::size_t(p.next)] = p.old;
            used[std::size_t(p.old)] = true;
        }
    return origin;
}

} // namespace

// The groups shown changed under the same strategy: one layout change that
// moves every persistent index (the views' expanded rows and selection) to
// where its group or patch is now.
void GroupListModel::updateTree()
{
    Tree next = load();
    if (next.strategy != m_strategy) {
        resetTree();
        return;
    }
    if (m_strategy < 0)
        return; // nothing shown before or after
    m_preview->clear();
    if (next.groups == m_groups && next.unassigned == m_unassigned && next.problem == m_problem) {
        if (next.layer == m_layer) {
            assign(std::move(next));
            refreshFindings();
            return;
        }
        // The same patches, named after another layer: every row reads anew.
        emit layoutAboutToBeChanged();
        assign(std::move(next));
        updateFindings();
        emit layoutChanged();
        emit findingsChanged();
        return;
    }
    emit layoutAboutToBeChanged();
    const std::vector<int> origin = matchGroups(m_groups, next.groups);
    std::vector<int> newRowOf(m_groups.size() + 1, -1);
    for (std::size_t g = 0; g < origin.size(); ++g)
        if (origin[g] >= 0)
            newRowOf[std::size_t(origin[g])] = int(g);
    newRowOf.back() = int(next.groups.size()); // "Unassigned" stays the last row
    // Where each patch is now: (top-level row, row under it).
    std::unordered_map<PatchId, std::pair<int, int>> place;
    for (std::size_t g = 0; g < next.groups.size(); ++g)
        for (std::size_t i = 0; i < next.groups[g].size(); ++i)
            place[next.groups[g][i]] = {int(g), int(i)};
    for (std::size_t i = 0; i < next.unassigned.size(); ++i)
        place[next.unassigned[i]] = {int(next.groups.size()), int(i)};

    const QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex &old : from) {
        if (old.internalId() == kTopLevel) {
            const int row = old.row() < int(newRowOf.size()) ? newRowOf[std::size_t(old.row())] : -1;
            to << (row >= 0 ? createIndex(row, old.column(), kTopLevel) : QModelIndex());
            continue;
        }
        const int top = int(old.internalId() - 1);
        const PatchList &list = top == unassignedRow() ? m_unassigned : m_groups[std::size_t(top)];
        const auto it = std::size_t(old.row()) < list.size() ? place.find(list[std::size_t(old.row())]) : place.end();
        to << (it != place.end() ? createIndex(it->second.second, old.column(), quintptr(it->second.first) + 1) : QModelIndex());
    }
    assign(std::move(next));
    updateFindings();
    changePersistentIndexList(from, to);
    emit layoutChanged();
    // Views read every row again after a layout change; other listeners learn
    // that the titles ("Group 3 — 4 patches") changed.
    emit dataChanged(index(0, 0), index(rowCount() - 1, 0));
    emit findingsChanged();
}

void GroupListModel::updateFindings()
{
    m_findingsSource.reset();
    m_findings = {};
    const auto snapshot = m_document->simulation();
    const auto &strategies = m_document->project().strategies;
    // Only a simulation of exactly the groups shown: the findings' steps are
    // these groups' indices.
    if (!snapshot || !m_problem.isEmpty() || m_strategy < 0 || m_strategy >= int(strategies.size()) || !snapshot->failure.empty()
        || snapshot->spec != strategies[std::size_t(m_strategy)] || snapshot->problem != m_document->problem())
        return;
    m_findingsSource = snapshot;
    m_findings = locateFindings(snapshot->problem, m_groups, snapshot->result.diagnostics);
}

QStringList GroupListModel::findingMessages(const std::vector<std::size_t> &findings) const
{
    QStringList messages;
    if (!m_findingsSource)
        return messages;
    const auto &diagnostics = m_findingsSource->result.diagnostics;
    for (std::size_t d : findings)
        if (d < diagnostics.size())
            messages << QString::fromStdString(diagnostics[d].message);
    return messages;
}

std::vector<std::size_t> GroupListModel::ruleFindings(const std::vector<std::size_t> &findings) const
{
    std::vector<std::size_t> out;
    if (!m_findingsSource)
        return out;
    const auto &diagnostics = m_findingsSource->result.diagnostics;
    for (std::size_t d : findings)
        if (d < diagnostics.size() && diagnostics[d].rule != Rule::ReloadBound)
            out.push_back(d);
    return out;
}

std::vector<PatchId> GroupListModel::ruleFlaggedPatches() const
{
    std::vector<PatchId> out;
    if (!m_findingsSource)
        return out;
    const auto &diagnostics = m_findingsSource->result.diagnostics;
    for (const auto &[patch, d] : m_findings.patches)
        if (d < diagnostics.size() && diagnostics[d].rule != Rule::ReloadBound && (out.empty() || out.back() != patch))
            out.push_back(patch);
    return out;
}

bool GroupListModel::hasError(const std::vector<std::size_t> &findings) const
{
    if (!m_findingsSource)
        return false;
    const auto &diagnostics = m_findingsSource->result.diagnostics;
    return std::any_of(findings.begin(), findings.end(),
        [&](std::size_t d) { return d < diagnostics.size() && diagnostics[d].severity == Severity::Error; });
}

void GroupListModel::previewJoin(int group, const PatchList &dragged)
{
    if (m_strategy < 0 || !m_problem.isEmpty() || dragged.empty()) {
        m_preview->clear();
        return;
    }
    m_preview->show(m_document->problem(), m_groups, group, dragged);
}

void GroupListModel::previewDrop(const QMimeData *data, int row, const QModelIndex &parent)
{
    const std::optional<Payload> payload = decodePatches(data);
    if (!payload || !planDrop(data, Qt::MoveAction, row, parent).error.isEmpty()) {
        m_preview->clear();
        return;
    }
    if (parent.isValid()) {
        const int top = parent.internalId() == kTopLevel ? parent.row() : int(parent.internalId() - 1);
        if (top == unassignedRow())
            m_preview->clear(); // unassigned patches have no field
        else
            previewJoin(top, payload->patches);
    } else if (payload->wholeGroup) {
        m_preview->clear(); // a reorder: no group's field changes
    } else {
        previewJoin(-1, payload->patches);
    }
}

GroupListModel::Tree GroupListModel::load() const
{
    Tree tree;
    tree.strategy = m_document->currentStrategy();
    const auto &strategies = m_document->project().strategies;
    if (tree.strategy < 0 || tree.strategy >= int(strategies.size())) {
        tree.strategy = -1;
        return tree;
    }
    const Problem &problem = m_document->problem();
    tree.layer = problem.layer;
    if (!problem.layer.problems().empty()) {
        tree.problem = tr("The layer has errors: fix them before editing groups.");
        return tree;
    }
    try {
        tree.groups = editableGroups(problem, strategies[std::size_t(tree.strategy)]);
    } catch (const StrategyError &e) {
        tree.problem = tr("This strategy cannot be edited: %1").arg(QString::fromStdString(e.what()));
    }
    tree.unassigned = unassignedPatches(problem.layer, tree.groups);
    return tree;
}

void GroupListModel::assign(Tree tree)
{
    m_strategy = tree.strategy;
    m_groups = std::move(tree.groups);
    m_unassigned = std::move(tree.unassigned);
    m_problem = std::move(tree.problem);
    m_layer = tree.layer;
}

// ---- edits ------------------------------------------------------------------

QString GroupListModel::checkPatches(const PatchList &list) const
{
    const std::int64_t count = m_document->problem().layer.patchCount();
    for (PatchId p : list)
        if (std::int64_t(p) >= count)
            return tr("Patch %1 does not exist: the layer has %2 patches.").arg(p).arg(count);
    return {};
}

GroupListModel::Edit GroupListModel::plan(const Operation &operation, const QString &text) const
{
    Edit edit;
    if (m_strategy < 0)
        edit.error = tr("No strategy is selected.");
    else if (!m_problem.isEmpty())
        edit.error = m_problem;
    if (!edit.error.isEmpty())
        return edit;
    try {
        edit.groups = operation(m_groups);
        edit.text = text;
    } catch (const StrategyError &e) {
        edit.error = sentence(e.what());
    }
    return edit;
}

QString GroupListModel::apply(const Edit &edit)
{
    if (!edit.error.isEmpty())
        return refuse(edit.error);
    StrategySpec spec = m_document->project().strategies.at(std::size_t(m_strategy));
    spec.kind = StrategyKind::Groups;
    spec.group_size.reset(); // not allowed with explicit groups (docs/reference/project-file.md)
    spec.groups = edit.groups;
    pushStrategy(spec, edit.text);
    return {};
}

QString GroupListModel::moveToGroup(const PatchList &list, int group)
{
    if (const QString bad = checkPatches(list); !bad.isEmpty())
        return apply({{}, {}, bad});
    return apply(plan([&](const Groups &g) { return movePatches(g, list, std::size_t(group)); },
        tr("Move %1 to group %2").arg(patches(list.size())).arg(group + 1)));
}

QString GroupListModel::newGroup(const PatchList &list)
{
    if (const QString bad = checkPatches(list); !bad.isEmpty())
        return apply({{}, {}, bad});
    return apply(plan([&](const Groups &g) { return moveToNewGroup(g, list, g.size()); },
        tr("Move %1 to a new group").arg(patches(list.size()))));
}

QString GroupListModel::moveGroup(int from, int to)
{
    return apply(plan([&](const Groups &g) { return reorderGroup(g, std::size_t(from), std::size_t(to)); },
        tr("Move group %1 to position %2").arg(from + 1).arg(to + 1)));
}

QString GroupListModel::split(int group, const PatchList &list)
{
    return apply(plan([&](const Groups &g) { return splitGroup(g, std::size_t(group), list); },
        tr("Split %1 off group %2").arg(patches(list.size())).arg(group + 1)));
}

QString GroupListModel::merge(int a, int b)
{
    return apply(plan([&](const Groups &g) { return mergeGroups(g, std::size_t(a), std::size_t(b)); },
        tr("Merge group %1 into group %2").arg(b + 1).arg(a + 1)));
}

QString GroupListModel::moveRefusal(const PatchList &list, int group) const
{
    if (const QString bad = checkPatches(list); !bad.isEmpty())
        return bad;
    if (group < 0)
        return plan([&](const Groups &g) { return unassign(g, list); }, {}).error;
    return plan([&](const Groups &g) { return movePatches(g, list, std::size_t(group)); }, {}).error;
}

QString GroupListModel::mergeAll(std::vector<int> groups)
{
    std::sort(groups.begin(), groups.end());
    groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
    if (groups.size() < 2)
        return apply({{}, {}, tr("Select at least two groups to merge.")});
    QStringList names;
    for (int g : groups)
        names << QString::number(g + 1);
    return apply(plan(
        [&](const Groups &g) {
            // Each merge removes a group after the first: later indices shift down by one.
            Groups out = g;
            for (std::size_t i = 1; i < groups.size(); ++i)
                out = mergeGroups(out, std::size_t(groups.front()), std::size_t(groups[i]) - (i - 1));
            return out;
        },
        tr("Merge groups %1").arg(names.join(QStringLiteral(", ")))));
}

QString GroupListModel::unassignPatches(const PatchList &list)
{
    if (const QString bad = checkPatches(list); !bad.isEmpty())
        return apply({{}, {}, bad});
    return apply(plan([&](const Groups &g) { return unassign(g, list); }, tr("Unassign %1").arg(patches(list.size()))));
}

// ---- the tree ---------------------------------------------------------------

QModelIndex GroupListModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kTopLevel);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex GroupListModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int GroupListModel::rowCount(const QModelIndex &parent) const
{
    if (m_strategy < 0)
        return 0;
    if (!parent.isValid())
        return int(m_groups.size()) + 1;
    if (parent.column() != 0 || parent.internalId() != kTopLevel)
        return 0;
    if (parent.row() == unassignedRow())
        return int(m_unassigned.size());
    return int(m_groups[std::size_t(parent.row())].size());
}

int GroupListModel::columnCount(const QModelIndex &) const { return 1; }

QVariant GroupListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const bool topLevel = index.internalId() == kTopLevel;
    const int top = topLevel ? index.row() : int(index.internalId() - 1);
    const bool isUnassigned = top == unassignedRow();
    const PatchList &list = isUnassigned ? m_unassigned : m_groups[std::size_t(top)];
    // The findings of this row: a group's own, or every finding of its patches.
    const auto rowFindings = [&] {
        if (!topLevel)
            return m_findings.ofPatch(list[std::size_t(index.row())]);
        if (!isUnassigned) // no findings at all while no simulation of these groups is ready
            return std::size_t(top) < m_findings.groups.size() ? m_findings.groups[std::size_t(top)] : std::vector<std::size_t>{};
        std::vector<std::size_t> all;
        for (PatchId p : list)
            for (std::size_t d : m_findings.ofPatch(p))
                if (std::find(all.begin(), all.end(), d) == all.end())
                    all.push_back(d);
        return all;
    };
    switch (role) {
    case Qt::DisplayRole:
        if (!topLevel)
            return QString::fromStdString(patchName(m_document->problem().layer, list[std::size_t(index.row())]));
        if (isUnassigned)
            return tr("Unassigned (%1)").arg(list.size());
        return tr("Group %1 — %2").arg(top + 1).arg(patches(list.size()));
    case Qt::ToolTipRole: {
        QStringList lines{data(index, Qt::DisplayRole).toString()};
        const QStringList messages = findingMessages(rowFindings());
        for (qsizetype i = 0; i < messages.size() && i < kMaxListedFindings; ++i)
            lines << QStringLiteral("⚠ ") + messages[i];
        if (messages.size() > kMaxListedFindings)
            lines << tr("… and %1 more").arg(messages.size() - kMaxListedFindings);
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::DecorationRole: {
        const std::vector<std::size_t> findings = rowFindings();
        if (findings.empty())
            return {};
        return QApplication::style()->standardIcon(
            hasError(findings) ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning);
    }
    case Qt::FontRole:
        if (topLevel && top == m_currentGroup) {
            QFont font = QApplication::font();
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        if (topLevel && top == m_currentGroup) {
            QColor tint = QApplication::palette().color(QPalette::Highlight);
            tint.setAlpha(60); // the selection stays the stronger mark
            return tint;
        }
        return {};
    case FindingsRole:
        return findingMessages(rowFindings());
    case GroupIndexRole:
        return isUnassigned ? -1 : top;
    case PatchIdRole:
        return topLevel ? QVariant() : QVariant(int(list[std::size_t(index.row())]));
    case IsUnassignedRole:
        return isUnassigned;
    case PatchCountRole:
        return topLevel ? QVariant(int(list.size())) : QVariant();
    default:
        return {};
    }
}

void GroupListModel::setCurrentGroup(int group)
{
    // Kept as asked, beyond the groups too: the tree of the step's strategy
    // may come after the step.
    group = std::max(group, -1);
    if (group == m_currentGroup)
        return;
    const int old = std::exchange(m_currentGroup, group);
    for (const int row : {old, group})
        if (row >= 0 && row < rowCount())
            emit dataChanged(index(row, 0), index(row, 0), {Qt::FontRole, Qt::BackgroundRole});
}

QModelIndexList GroupListModel::indexesOfPatches(const PatchList &patches) const
{
    QModelIndexList found;
    if (patches.empty())
        return found;
    const std::unordered_set<PatchId> wanted(patches.begin(), patches.end());
    for (int top = 0; top <= unassignedRow(); ++top) {
        const PatchList &list = top == unassignedRow() ? m_unassigned : m_groups[std::size_t(top)];
        for (std::size_t row = 0; row < list.size(); ++row)
            if (wanted.count(list[row]))
                found << index(int(row), 0, index(top, 0));
    }
    return found;
}

Qt::ItemFlags GroupListModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::ItemIsDropEnabled; // between top-level rows and below the last one
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDropEnabled;
    if (index.internalId() != kTopLevel)
        return f | Qt::ItemIsDragEnabled | Qt::ItemNeverHasChildren;
    if (index.row() != unassignedRow() || !m_unassigned.empty())
        f |= Qt::ItemIsDragEnabled;
    return f;
}

// ---- drag and drop ----------------------------------------------------------

QMimeData *GroupListModel::mimeData(const QModelIndexList &indexes) const
{
    Payload payload;
    payload.strategy = m_strategy;
    std::unordered_set<PatchId> seen;
    const auto add = [&](PatchId p) {
        if (seen.insert(p).second)
            payload.patches.push_back(p);
    };
    int groupRows = 0, otherRows = 0;
    for (const QModelIndex &index : indexes) {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid) || index.column() != 0)
            continue;
        if (index.internalId() != kTopLevel) {
            ++otherRows;
            add(PatchId(index.data(PatchIdRole).toInt()));
        } else if (index.row() == unassignedRow()) {
            ++otherRows;
            std::for_each(m_unassigned.begin(), m_unassigned.end(), add);
        } else {
            ++groupRows;
            payload.group = index.row();
            const Group &g = m_groups[std::size_t(index.row())];
            std::for_each(g.begin(), g.end(), add);
        }
    }
    if (payload.patches.empty())
        return nullptr;
    payload.wholeGroup = groupRows == 1 && otherRows == 0;
    if (!payload.wholeGroup)
        payload.group = -1;
    return encodePatches(payload);
}

GroupListModel::Edit GroupListModel::planDrop(
    const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) const
{
    const auto refuse = [](const QString &why) { return Edit{{}, {}, why}; };
    if (!data || !data->hasFormat(mimeType()))
        return refuse(tr("Only patches and groups can be dropped here."));
    if (action != Qt::MoveAction)
        return refuse(tr("Patches can only be moved."));
    const std::optional<Payload> payload = decodePatches(data);
    if (!payload)
        return refuse(tr("The dragged data is damaged."));
    if (payload->strategy != m_strategy || m_strategy < 0)
        return refuse(tr("These patches come from another strategy."));
    if (const QString bad = checkPatches(payload->patches); !bad.isEmpty())
        return refuse(bad);
    const PatchList &list = payload->patches;

    if (parent.isValid()) {
        if (!checkIndex(parent, CheckIndexOption::IndexIsValid))
            return refuse(tr("There is nothing to drop on here."));
        // On a patch, or between the patches of a group: join that group.
        const int top = parent.internalId() == kTopLevel ? parent.row() : int(parent.internalId() - 1);
        if (top == unassignedRow())
            return plan([&](const Groups &g) { return unassign(g, list); }, tr("Unassign %1").arg(patches(list.size())));
        return plan([&](const Groups &g) { return movePatches(g, list, std::size_t(top)); },
            tr("Move %1 to group %2").arg(patches(list.size())).arg(top + 1));
    }

    // Between top-level rows (or below the last one): a new group there.
    const std::size_t position = row < 0 ? m_groups.size() : std::min(std::size_t(row), m_groups.size());
    if (payload->wholeGroup) {
        const std::size_t from = std::size_t(payload->group);
        if (payload->group < 0 || from >= m_groups.size() || m_groups[from] != list)
            return refuse(tr("The dragged group has changed since the drag started."));
        const std::size_t to = position > from ? position - 1 : position;
        return plan([&](const Groups &g) { return reorderGroup(g, from, to); },
            tr("Move group %1 to position %2").arg(from + 1).arg(to + 1));
    }
    return plan([&](const Groups &g) { return moveToNewGroup(g, list, position); },
        tr("Move %1 to a new group").arg(patches(list.size())));
}

QString GroupListModel::dropRefusal(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) const
{
    return planDrop(data, action, row, parent).error;
}

QString GroupListModel::applyDrop(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent)
{
    return apply(planDrop(data, action, row, parent));
}

void GroupListModel::clearDropPreview() { m_preview->clear(); }

} // namespace convoffload::ui
