// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "models/StepTableModel.h"

#include "document/ProjectDocument.h"
#include "render/Palette.h"

#include <QBrush>
#include <QLocale>

#include <utility>

namespace convoffload::ui {

namespace {

/// One format for every number of the table: the locale's, with its
/// thousands separators, integers without decimals.
QString formatNumber(double v)
{
    if (std::abs(v) < 9e15 && v == double(std::int64_t(v)))
        return QLocale().toString(qlonglong(v));
    return QLocale().toString(v, 'g', 6);
}

} // namespace

StepTableModel::StepTableModel(ProjectDocument *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &ProjectDocument::simulationChanged, this, &StepTableModel::follow);
    m_snapshot = m_document->simulation();
    m_cumulative = cumulative(m_snapshot.get());
}

std::vector<double> StepTableModel::cumulative(const SimulationSnapshot *snapshot)
{
    std::vector<double> sums;
    if (snapshot) {
        double sum = 0;
        for (const StepStats &s : snapshot->result.steps)
            sums.push_back(sum += s.duration());
    }
    return sums;
}

// A new simulation with as many steps (the same strategy renamed, or
// resimulated after an unrelated edit) updates the cells in place, so the
// selection survives; different steps reset the table.
void StepTableModel::follow()
{
    const std::shared_ptr<const SimulationSnapshot> next = m_document->simulation();
    if (next == m_snapshot)
        return;
    const auto steps = [](const SimulationSnapshot *s) { return s ? s->result.steps.size() : std::size_t(0); };
    // The transfer columns come and go with the transfer model: a reset.
    const auto transfer = [](const SimulationSnapshot *s) { return s && s->result.transfer_model; };
    if (steps(next.get()) == steps(m_snapshot.get()) && transfer(next.get()) == transfer(m_snapshot.get())) {
        const std::shared_ptr<const SimulationSnapshot> before = std::exchange(m_snapshot, next);
        std::vector<double> sums = cumulative(m_snapshot.get());
        // The rows that read differently: another step, cumulative duration or
        // memory size (colour and tooltip of the footprint).
        const int rows = rowCount();
        const bool allRows = !before || !m_snapshot || before->problem.hardware.mem_size != m_snapshot->problem.hardware.mem_size;
        const auto differs = [&](int row) {
            const std::size_t r = std::size_t(row);
            return allRows || before->result.steps[r] != m_snapshot->result.steps[r] || m_cumulative[r] != sums[r];
        };
        int first = 0, last = rows - 1;
        while (first < rows && !differs(first))
            ++first;
        while (last > first && !differs(last))
            --last;
        m_cumulative = std::move(sums);
        if (first < rows)
            emit dataChanged(index(first, 0), index(last, columnCount() - 1));
        return;
    }
    beginResetModel();
    m_snapshot = next;
    m_cumulative = cumulative(m_snapshot.get());
    endResetModel();
}

int StepTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_snapshot ? 0 : int(m_snapshot->result.steps.size());
}

bool StepTableModel::transferModel() const { return m_snapshot && m_snapshot->result.transfer_model; }

int StepTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : transferModel() ? ColumnCount : LinearColumnCount;
}

double StepTableModel::number(int row, int column) const
{
    const StepStats &s = m_snapshot->result.steps[std::size_t(row)];
    switch (Column(column)) {
    case StepColumn:
        return row + 1;
    case LoadedInputColumn:
        return double(s.loaded_input);
    case LoadedKernelsColumn:
        return double(s.loaded_kernels);
    case FreedInputColumn:
        return double(s.freed_input);
    case WrittenColumn:
        return double(s.written);
    case ComputedColumn:
        return double(s.computed);
    case FootprintColumn:
        return double(s.peak_footprint);
    case DurationColumn:
        return s.duration();
    case CumulativeColumn:
        return m_cumulative[std::size_t(row)];
    case LoadRunsColumn:
        return double(s.load_runs);
    case LoadBurstsColumn:
        return double(s.load_bursts);
    case WriteRunsColumn:
        return double(s.write_runs);
    case WriteBurstsColumn:
        return double(s.write_bursts);
    case SetupColumn:
        return s.setup_duration;
    case ColumnCount:
        break;
    }
    return 0;
}

QVariant StepTableModel::value(int row, int column) const
{
    if (column < 0 || column >= ColumnCount)
        return {};
    const double v = number(row, column);
    if (column == StepColumn)
        return row + 1;
    // Cycles may be fractional (t_l, t_w, t_acc are real); counts are whole.
    if (column == DurationColumn || column == CumulativeColumn || column == SetupColumn)
        return v;
    return qint64(v);
}

QVariant StepTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row(), column = index.column();
    const StepStats &s = m_snapshot->result.steps[std::size_t(row)];
    const std::int64_t memSize = m_snapshot->problem.hardware.mem_size;
    switch (role) {
    case Qt::DisplayRole: {
        if (column == StepColumn)
            return s.drain ? tr("drain") : QString::number(row + 1);
        return formatNumber(value(row, column).toDouble());
    }
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == FootprintColumn && s.peak_footprint > memSize)
            return QBrush(Palette::capacity().darker(120));
        return {};
    case Qt::ToolTipRole: {
        if (column == FootprintColumn)
            return tr("Peak over the step's six actions: %1 of mem_size %2 elements (input %3, kernels %4, output %5 "
                      "after the step)")
                .arg(s.peak_footprint)
                .arg(memSize)
                .arg(s.after.input)
                .arg(s.after.kernels)
                .arg(s.after.output);
        if (column == DurationColumn) {
            QString text
                = tr("load %1 + write %2 + compute %3 cycles")
                      .arg(formatNumber(s.load_duration), formatNumber(s.write_duration), formatNumber(s.compute_duration));
            if (transferModel())
                text += tr("; set-up of %1 DMA runs: %2 cycles of the load and write")
                            .arg(formatNumber(double(s.load_runs + s.write_runs)), formatNumber(s.setup_duration));
            return text;
        }
        if (column == StepColumn && s.drain)
            return tr("The drain: writes what is left on chip and frees everything (no compute, no t_acc)");
        return {};
    }
    case StepIndexRole:
        return row;
    case ValueRole:
        return value(row, column);
    case DrainRole:
        return s.drain;
    default:
        return {};
    }
}

std::vector<int> StepTableModel::widestRows(int column) const
{
    const int rows = rowCount();
    if (rows == 0 || column < 0 || column >= columnCount())
        return {};
    if (column == StepColumn) // the largest step number, or "drain"
        return rows == 1 ? std::vector<int>{0} : std::vector<int>{rows - 2, rows - 1};
    // Non-negative integers: the largest has the most digits, so the longest
    // text. Anything else (fractional durations): the longest text, measured.
    bool integers = true;
    int largest = 0;
    double top = -1;
    for (int row = 0; row < rows && integers; ++row) {
        const double v = number(row, column); // no QVariant: 100 000 rows are read per column
        integers = v >= 0 && v < 9e15 && v == double(std::int64_t(v));
        if (v > top) {
            top = v;
            largest = row;
        }
    }
    if (integers)
        return {largest};
    qsizetype longest = -1;
    for (int row = 0; row < rows; ++row)
        if (const qsizetype n = formatNumber(number(row, column)).size(); n > longest) {
            longest = n;
            largest = row;
        }
    return {largest};
}

QVariant StepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    // Two lines keep the numeric columns narrow enough for a dock.
    static const char *const titles[ColumnCount]
        = {QT_TR_NOOP("Step"), QT_TR_NOOP("Loaded\ninput"), QT_TR_NOOP("Loaded\nkernels"), QT_TR_NOOP("Freed\ninput"),
            QT_TR_NOOP("Written\noutputs"), QT_TR_NOOP("Computed\noutputs"), QT_TR_NOOP("Footprint\n(peak)"),
            QT_TR_NOOP("Duration\n(cycles)"), QT_TR_NOOP("Cumulative\n(cycles)"), QT_TR_NOOP("Load\nruns"),
            QT_TR_NOOP("Load\nbursts"), QT_TR_NOOP("Write\nruns"), QT_TR_NOOP("Write\nbursts"), QT_TR_NOOP("Set-up\n(cycles)")};
    static const char *const tips[ColumnCount] = {
        QT_TR_NOOP("Step number (1-based); the drain writes what is left and frees everything"),
        QT_TR_NOOP("Input elements loaded (I_slice): a pixel counts c_in elements, a slice of one of its g channel groups "
                   "c_in/g"),
        QT_TR_NOOP("Kernel weights loaded (K_sub), in elements"), QT_TR_NOOP("Input elements freed (F_inp) that were on chip"),
        QT_TR_NOOP("Output elements written back to DRAM (W)"), QT_TR_NOOP("Output elements computed (Out)"),
        QT_TR_NOOP("Largest on-chip footprint after any of the step's actions, in elements"),
        QT_TR_NOOP("Loads·t_l + writes·t_w + t_acc (no t_acc at the drain), in cycles"),
        QT_TR_NOOP("Duration of the strategy up to the end of this step, in cycles"),
        QT_TR_NOOP("DMA descriptors of the step's loads (input and paid kernel loads): one per run of consecutive DRAM "
                   "addresses"),
        QT_TR_NOOP("Aligned bursts of burst elements the step's load runs touch; each costs burst·t_l"),
        QT_TR_NOOP("DMA descriptors of the step's writes: one per run of consecutive DRAM addresses"),
        QT_TR_NOOP("Aligned bursts of burst elements the step's write runs touch; each costs burst·t_w"),
        QT_TR_NOOP("t_setup paid by every load and write run of the step, in cycles (part of its duration)")};
    switch (role) {
    case Qt::DisplayRole:
        return tr(titles[section]);
    case Qt::ToolTipRole:
        if (section == DurationColumn && transferModel())
            return tr("Load and write runs' t_setup + aligned bursts·burst·(t_l or t_w), + t_acc (no t_acc at the drain), "
                      "in cycles");
        return tr(tips[section]);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return QAbstractTableModel::headerData(section, orientation, role);
    }
}

} // namespace convoffload::ui
