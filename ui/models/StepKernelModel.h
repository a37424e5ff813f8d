// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The compute steps of the document's current strategy when it streams kernels
// (kinds `steps` and `kernel-blocked`, docs/reference/strategies.md) as a two-level tree: one
// top-level row per step ("Step 3 — patches 4–7 × kernels 2, 3") whose
// children are its kernels ("kernel 2"). Kernels of one step are dragged (MIME
// type mimeType()) and dropped on another step (or one of its kernels) to move
// there, or between steps to become a new step on the same patches. Every
// accepted edit pushes ONE command (pushStrategyEdit) that turns the strategy
// into explicit `steps`: in place for hand-made steps, as an edited copy of a
// kernel-blocked member, which stays as it was; refused ones change nothing and say why
// (editRefused, the core's KernelEdit sentences). Steps where the current
// simulation breaks a rule carry a warning icon and the core's messages.
// Reset whenever the strategy shown, its definition or the problem changes.
// While kernels are dragged over a step, the drop preview says what the step
// would compute (patches × kernels, MACs against nbop_pe, kernel elements on
// chip) or why the drop is refused.

#include "models/StrategyEditModel.h"

#include "convoffload/model/ComputeStep.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

class QMimeData;

namespace convoffload::ui {

class ProjectDocument;
struct SimulationSnapshot;

/// What a drag of kernels carries: the strategy, the step and its kernels.
struct KernelPayload {
    qint32 strategy = -1;
    qint32 step = -1;
    std::vector<KernelId> kernels;
};

/// Layers with more outputs are not expanded into steps on the GUI thread.
inline constexpr std::int64_t kMaxPatchesListed = 10'000;

class StepKernelModel : public StrategyEditModel {
    Q_OBJECT
public:
    enum Role {
        StepIndexRole = Qt::UserRole, // int: the 0-based step of a row (its parent's for kernel rows)
        KernelIdRole, // int: the kernel of a kernel row; invalid on step rows
        FindingsRole, // QStringList: the core's messages about this step
    };

    explicit StepKernelModel(ProjectDocument *document, QObject *parent = nullptr);

    static QString mimeType() { return QStringLiteral("application/x-convoffload-kernels"); }
    static QMimeData *encodeKernels(const KernelPayload &payload);
    static std::optional<KernelPayload> decodeKernels(const QMimeData *data);

    /// True when the current strategy streams kernels (the tree shows its steps).
    bool isActive() const { return m_strategy >= 0 && m_problem.isEmpty(); }
    /// True when the current strategy is of a kernel-streaming kind, even one that cannot be expanded.
    bool showsSteps() const { return m_strategy >= 0; }
    /// Why the current strategy's steps cannot be shown (empty when they can).
    QString problem() const { return m_problem; }
    const ComputeSteps &steps() const { return m_steps; }

    // ---- edits: each pushes one command, or returns why not ------------------
    QString moveKernels(int from, const std::vector<KernelId> &kernels, int to);
    QString moveKernelsToNewStep(int from, const std::vector<KernelId> &kernels, int position);
    /// Why moveKernels(from, kernels, to) would be refused; empty when accepted.
    QString moveRefusal(int from, const std::vector<KernelId> &kernels, int to) const;

    // ---- drop preview ---------------------------------------------------------
    /// What the drop hovering now would do ("Step 4 would compute 8 patches ×
    /// 3 kernels: 1728 of 2048 MACs, 3 kernels (54 elements) on chip"), or
    /// "✗ " and why it is refused; empty while no drag hovers.
    QString dropPreview() const { return m_preview; }
    void previewDrop(const QMimeData *data, int row, const QModelIndex &parent) override;
    void clearDropPreview() override;

    // ---- QAbstractItemModel -------------------------------------------------
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    QMimeData *mimeData(const QModelIndexList &indexes) const override;

signals:
    void dropPreviewChanged(const QString &text);

protected:
    QString editMimeType() const override { return mimeType(); }
    QString dropRefusal(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) const override;
    QString applyDrop(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) override;

private:
    struct Edit {
        ComputeSteps steps;
        QString text, error;
    };
    void reset();
    void load();
    void loadFindings();
    Edit planDrop(const QMimeData *data, int row, const QModelIndex &parent) const;
    Edit plan(const std::function<ComputeSteps(const ComputeSteps &)> &operation, const QString &text) const;
    QString apply(const Edit &edit);
    QStringList findings(int step) const;
    bool hasError(int step) const;

    void setDropPreview(const QString &text);

    ComputeSteps m_steps;
    QString m_problem;
    std::shared_ptr<const SimulationSnapshot> m_findingsSource; // a simulation of exactly these steps, or null
    QString m_preview;
};

} // namespace convoffload::ui
