// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "models/StepKernelModel.h"

#include "document/ProjectDocument.h"

#include "convoffload/model/KernelEdit.h"
#include "convoffload/model/KernelStreaming.h"

#include <QApplication>
#include <QDataStream>
#include <QIODevice>
#include <QLocale>
#include <QIcon>
#include <QMimeData>
#include <QStyle>

#include <algorithm>

namespace convoffload::ui {

namespace {

// Step rows have internal id 0, kernel rows the row of their step + 1.
constexpr quintptr kTopLevel = 0;
constexpr qint64 kHeaderBytes = 12; // strategy, step, count
constexpr int kMaxListedFindings = 6;
constexpr std::size_t kMaxListedIds = 8; // in a step's title

bool streamsKernels(const StrategySpec &spec)
{
    return spec.kind == StrategyKind::Steps || spec.kind == StrategyKind::KernelBlocked;
}

// "0–3" for a run, "0, 2, 5" for a few, "0, 2, … (12)" for many.
template <typename Id> QString idList(const std::vector<Id> &ids)
{
    if (ids.empty())
        return QStringLiteral("none");
    std::vector<Id> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    const bool run = sorted.back() - sorted.front() + 1 == Id(sorted.size());
    if (run && sorted.size() > 2)
        return QStringLiteral("%1–%2").arg(sorted.front()).arg(sorted.back());
    QStringList parts;
    for (std::size_t i = 0; i < sorted.size() && i < kMaxListedIds; ++i)
        parts << QString::number(sorted[i]);
    if (sorted.size() > kMaxListedIds)
        parts << QStringLiteral("… (%1)").arg(sorted.size());
    return parts.join(QStringLiteral(", "));
}

QString kernelsText(std::size_t n) { return n == 1 ? StepKernelModel::tr("1 kernel") : StepKernelModel::tr("%1 kernels").arg(n); }

} // namespace

QMimeData *StepKernelModel::encodeKernels(const KernelPayload &payload)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << payload.strategy << payload.step << quint32(payload.kernels.size());
    for (KernelId k : payload.kernels)
        out << quint32(k);
    auto *data = new QMimeData;
    data->setData(mimeType(), bytes);
    return data;
}

std::optional<KernelPayload> StepKernelModel::decodeKernels(const QMimeData *data)
{
    if (!data || !data->hasFormat(mimeType()))
        return std::nullopt;
    const QByteArray bytes = data->data(mimeType());
    QDataStream in(bytes);
    KernelPayload p;
    quint32 count = 0;
    in >> p.strategy >> p.step >> count;
    if (in.status() != QDataStream::Ok || count == 0 || qint64(count) * 4 != bytes.size() - kHeaderBytes)
        return std::nullopt;
    for (quint32 i = 0; i < count; ++i) {
        quint32 k = 0;
        in >> k;
        p.kernels.push_back(KernelId(k));
    }
    if (in.status() != QDataStream::Ok || !in.atEnd())
        return std::nullopt;
    return p;
}

StepKernelModel::StepKernelModel(ProjectDocument *document, QObject *parent)
    : StrategyEditModel(document, parent)
{
    connect(document, &ProjectDocument::projectAboutToBeReset, this, [this] { beginResetModel(); });
    connect(document, &ProjectDocument::projectReset, this, [this] {
        load();
        endResetModel();
    });
    connect(document, &ProjectDocument::currentStrategyChanged, this, &StepKernelModel::reset);
    connect(document, &ProjectDocument::problemChanged, this, &StepKernelModel::reset);
    connect(document, &ProjectDocument::strategyChanged, this, [this](int strategy) {
        if (strategy == m_strategy)
            reset();
    });
    connect(document, &ProjectDocument::simulationChanged, this, [this] {
        loadFindings(); // same steps: only the findings change
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, 0));
    });
    load();
}

void StepKernelModel::reset()
{
    beginResetModel();
    load();
    endResetModel();
}

void StepKernelModel::load()
{
    const int current = m_document->currentStrategy();
    const auto &strategies = m_document->project().strategies;
    const bool shown = current >= 0 && current < int(strategies.size()) && streamsKernels(strategies[std::size_t(current)]);
    ComputeSteps steps;
    QString problem;
    if (shown) {
        const Problem &p = m_document->problem();
        if (!p.layer.problems().empty()) {
            problem = tr("The layer has errors: fix them before editing steps.");
        } else if (p.layer.patchCount() > kMaxPatchesListed) {
            // Expanding the steps here, on the GUI thread, cost 100-300 ms a
            // keystroke when h_in was typed up to 99999 (tst_guistalls); the
            // simulation expands them on its worker.
            problem = tr("This layer has %1 outputs, too many to list and edit its steps here (at most %2); the "
                         "simulation, the Steps table and the charts still show every step.")
                          .arg(QLocale().toString(qint64(p.layer.patchCount())), QLocale().toString(qint64(kMaxPatchesListed)));
        } else {
            try {
                steps = computeStepsOf(p, strategies[std::size_t(current)]);
            } catch (const StrategyError &e) {
                problem = tr("This strategy cannot be edited: %1").arg(QString::fromStdString(e.what()));
            }
        }
    }
    m_strategy = shown ? current : -1;
    m_steps = std::move(steps);
    m_problem = problem;
    loadFindings();
}

void StepKernelModel::loadFindings()
{
    // Only a simulation of exactly the strategy and problem shown locates findings.
    const auto snapshot = m_document->simulation();
    const auto &strategies = m_document->project().strategies;
    m_findingsSource = snapshot && m_strategy >= 0 && m_strategy < int(strategies.size())
            && snapshot->spec == strategies[std::size_t(m_strategy)] && snapshot->problem == m_document->problem()
            && snapshot->failure.empty()
        ? snapshot
        : nullptr;
}

QStringList StepKernelModel::findings(int step) const
{
    QStringList messages;
    if (!m_findingsSource)
        return messages;
    for (const Diagnostic &d : m_findingsSource->result.diagnostics)
        if (d.step == step + 1)
            messages << QString::fromStdString(d.message);
    return messages;
}

bool StepKernelModel::hasError(int step) const
{
    if (!m_findingsSource)
        return false;
    return std::any_of(m_findingsSource->result.diagnostics.begin(), m_findingsSource->result.diagnostics.end(),
        [&](const Diagnostic &d) { return d.step == step + 1 && d.severity == Severity::Error; });
}

// ---- edits ----------------------------------------------------------------------

StepKernelModel::Edit StepKernelModel::plan(
    const std::function<ComputeSteps(const ComputeSteps &)> &operation, const QString &text) const
{
    Edit edit;
    if (m_strategy < 0)
        edit.error = tr("The current strategy does not stream kernels: it has no steps to edit.");
    else if (!m_problem.isEmpty())
        edit.error = m_problem;
    if (!edit.error.isEmpty())
        return edit;
    try {
        edit.steps = operation(m_steps);
        edit.text = text;
    } catch (const StrategyError &e) {
        edit.error = sentence(e.what());
    }
    return edit;
}

QString StepKernelModel::apply(const Edit &edit)
{
    if (!edit.error.isEmpty())
        return refuse(edit.error);
    StrategySpec spec = m_document->project().strategies.at(std::size_t(m_strategy));
    spec.kind = StrategyKind::Steps;
    spec.group_size.reset();
    spec.kernel_block.reset();
    spec.groups.clear();
    spec.steps = edit.steps;
    pushStrategy(spec, edit.text);
    return {};
}

QString StepKernelModel::moveKernels(int from, const std::vector<KernelId> &kernels, int to)
{
    return apply(
        plan([&](const ComputeSteps &s) { return convoffload::moveKernels(s, std::size_t(from), kernels, std::size_t(to)); },
            tr("Move %1 from step %2 to step %3").arg(kernelsText(kernels.size())).arg(from + 1).arg(to + 1)));
}

QString StepKernelModel::moveKernelsToNewStep(int from, const std::vector<KernelId> &kernels, int position)
{
    return apply(plan(
        [&](const ComputeSteps &s) {
            return convoffload::moveKernelsToNewStep(s, std::size_t(from), kernels, std::size_t(position));
        },
        tr("Move %1 of step %2 to a new step").arg(kernelsText(kernels.size())).arg(from + 1)));
}

QString StepKernelModel::moveRefusal(int from, const std::vector<KernelId> &kernels, int to) const
{
    return plan(
        [&](const ComputeSteps &s) { return convoffload::moveKernels(s, std::size_t(from), kernels, std::size_t(to)); }, {})
        .error;
}

StepKernelModel::Edit StepKernelModel::planDrop(const QMimeData *data, int row, const QModelIndex &parent) const
{
    const std::optional<KernelPayload> payload = decodeKernels(data);
    if (!payload)
        return {{}, {}, tr("Only kernels of a step can be dropped here.")};
    if (payload->strategy != m_strategy)
        return {{}, {}, tr("These kernels come from another strategy.")};
    const int from = payload->step;
    if (from < 0 || from >= int(m_steps.size()))
        return {{}, {}, tr("Step %1 does not exist any more.").arg(from + 1)};
    if (parent.isValid()) {
        const int to = parent.data(StepIndexRole).toInt();
        return plan(
            [&](const ComputeSteps &s) {
                return convoffload::moveKernels(s, std::size_t(from), payload->kernels, std::size_t(to));
            },
            tr("Move %1 from step %2 to step %3").arg(kernelsText(payload->kernels.size())).arg(from + 1).arg(to + 1));
    }
    if (row < 0)
        return {{}, {}, tr("Drop the kernels on a step, or between two steps for a new step.")};
    return plan(
        [&](const ComputeSteps &s) {
            return convoffload::moveKernelsToNewStep(s, std::size_t(from), payload->kernels, std::size_t(row));
        },
        tr("Move %1 of step %2 to a new step").arg(kernelsText(payload->kernels.size())).arg(from + 1));
}

// ---- QAbstractItemModel ---------------------------------------------------------

QModelIndex StepKernelModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column != 0 || row < 0)
        return {};
    if (!parent.isValid())
        return row < int(m_steps.size()) ? createIndex(row, 0, kTopLevel) : QModelIndex();
    if (parent.internalId() != kTopLevel || parent.row() >= int(m_steps.size()))
        return {};
    return row < int(m_steps[std::size_t(parent.row())].kernels.size()) ? createIndex(row, 0, quintptr(parent.row()) + 1)
                                                                        : QModelIndex();
}

QModelIndex StepKernelModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int StepKernelModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_steps.size());
    if (parent.internalId() != kTopLevel || parent.row() >= int(m_steps.size()))
        return 0;
    return int(m_steps[std::size_t(parent.row())].kernels.size());
}

int StepKernelModel::columnCount(const QModelIndex &) const { return 1; }

QVariant StepKernelModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const bool topLevel = index.internalId() == kTopLevel;
    const int step = topLevel ? index.row() : int(index.internalId() - 1);
    const ComputeStep &s = m_steps[std::size_t(step)];
    switch (role) {
    case Qt::DisplayRole:
        if (!topLevel)
            return tr("kernel %1").arg(s.kernels[std::size_t(index.row())]);
        return tr("Step %1 — patches %2 × kernels %3").arg(step + 1).arg(idList(s.patches), idList(s.kernels));
    case Qt::ToolTipRole: {
        QStringList lines{data(index, Qt::DisplayRole).toString()};
        if (topLevel)
            lines << tr("%1 patches × %2").arg(s.patches.size()).arg(kernelsText(s.kernels.size()));
        const QStringList messages = findings(step);
        for (qsizetype i = 0; i < messages.size() && i < kMaxListedFindings; ++i)
            lines << QStringLiteral("⚠ ") + messages[i];
        if (messages.size() > kMaxListedFindings)
            lines << tr("… and %1 more").arg(messages.size() - kMaxListedFindings);
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::DecorationRole:
        if (!topLevel || findings(step).isEmpty())
            return {};
        return QApplication::style()->standardIcon(hasError(step) ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning);
    case FindingsRole:
        return topLevel ? findings(step) : QStringList();
    case StepIndexRole:
        return step;
    case KernelIdRole:
        return topLevel ? QVariant() : QVariant(int(s.kernels[std::size_t(index.row())]));
    default:
        return {};
    }
}

Qt::ItemFlags StepKernelModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return isActive() ? Qt::ItemIsDropEnabled : Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDropEnabled;
    if (index.internalId() != kTopLevel)
        f |= Qt::ItemIsDragEnabled;
    return f;
}

QMimeData *StepKernelModel::mimeData(const QModelIndexList &indexes) const
{
    // Kernels of one step only: a step's own kernels move together.
    KernelPayload payload;
    payload.strategy = m_strategy;
    for (const QModelIndex &i : indexes) {
        if (!i.isValid() || i.internalId() == kTopLevel)
            continue;
        const int step = i.data(StepIndexRole).toInt();
        if (payload.step >= 0 && step != payload.step)
            return nullptr;
        payload.step = step;
        const auto k = KernelId(i.data(KernelIdRole).toInt());
        if (std::find(payload.kernels.begin(), payload.kernels.end(), k) == payload.kernels.end())
            payload.kernels.push_back(k);
    }
    if (payload.kernels.empty())
        return nullptr;
    return encodeKernels(payload);
}

QString StepKernelModel::dropRefusal(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) const
{
    if (action != Qt::MoveAction)
        return tr("Kernels can only be moved between steps.");
    return planDrop(data, row, parent).error;
}

QString StepKernelModel::applyDrop(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent)
{
    if (action == Qt::IgnoreAction)
        return {};
    if (action != Qt::MoveAction)
        return refuse(tr("Kernels can only be moved between steps."));
    // The edit happens through the undo command (the model has no removeRows for the view to call).
    return apply(planDrop(data, row, parent));
}

// ---- drop preview -----------------------------------------------------------------

void StepKernelModel::previewDrop(const QMimeData *data, int row, const QModelIndex &parent)
{
    const Edit edit = planDrop(data, row, parent);
    const std::optional<KernelPayload> payload = decodeKernels(data);
    if (!edit.error.isEmpty() || !payload) {
        setDropPreview(
            QStringLiteral("✗ ") + (edit.error.isEmpty() ? tr("Only kernels of a step can be dropped here.") : edit.error));
        return;
    }
    // The step that would compute the dragged kernels: the target with the
    // kernels added, or a new step on the source's patches.
    const Problem &problem = m_document->problem();
    const ComputeStep &from = m_steps[std::size_t(payload->step)];
    QString who;
    std::size_t patches = 0, kernels = 0;
    if (parent.isValid()) {
        const int to = parent.data(StepIndexRole).toInt();
        const ComputeStep &target = m_steps[std::size_t(to)];
        who = tr("Step %1").arg(to + 1);
        patches = target.patches.size();
        kernels = target.kernels.size() + payload->kernels.size();
    } else {
        who = tr("A new step at position %1").arg(row + 1);
        patches = from.patches.size();
        kernels = payload->kernels.size();
    }
    const qint64 macs = qint64(patches) * qint64(kernels) * problem.layer.opsPerOutput();
    QString text = tr("%1 would compute %2 patches × %3: %4 of %5 MACs, %6 (%7 elements) on chip")
                       .arg(who)
                       .arg(patches)
                       .arg(kernelsText(kernels))
                       .arg(macs)
                       .arg(problem.hardware.nbop_pe)
                       .arg(kernelsText(kernels))
                       .arg(qint64(kernels) * problem.layer.kernelElements());
    if (macs > problem.hardware.nbop_pe)
        text += tr(" — over the op limit");
    const std::size_t left = from.kernels.size() - payload->kernels.size();
    text += left == 0 ? tr("; step %1 would be removed").arg(payload->step + 1)
                      : tr("; step %1 keeps %2").arg(payload->step + 1).arg(kernelsText(left));
    setDropPreview(text);
}

void StepKernelModel::clearDropPreview() { setDropPreview({}); }

void StepKernelModel::setDropPreview(const QString &text)
{
    if (text == m_preview)
        return;
    m_preview = text;
    emit dropPreviewChanged(text);
}

} // namespace convoffload::ui
