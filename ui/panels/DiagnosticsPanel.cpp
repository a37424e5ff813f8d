// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/DiagnosticsPanel.h"

#include "document/ProjectDocument.h"
#include "render/PaintedIcon.h"
#include "render/Palette.h"

#include "convoffload/simulate/Verdict.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace convoffload::ui {

namespace {

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

/// What a row of the list is about: a rule of the model broken (the run is
/// wrong), the paper's reload assumption broken (the run is right), or a
/// plain warning.
enum class FindingKind { Error, Assumption, Warning };

FindingKind kindOf(const Diagnostic &d)
{
    if (d.severity == Severity::Error)
        return FindingKind::Error;
    return d.rule == Rule::ReloadBound ? FindingKind::Assumption : FindingKind::Warning;
}

/// Error: a vermillion disc with a cross; warning: an amber triangle with an
/// exclamation mark; reload assumption: a black square with the grid's
/// corner mark. Shape and colour all differ.
QIcon findingIcon(FindingKind kind)
{
    static QIcon icons[3];
    QIcon &icon = icons[int(kind)];
    if (!icon.isNull())
        return icon;
    icon = paintedIcon([kind](QPainter &p, qreal s) {
        switch (kind) {
        case FindingKind::Assumption: {
            const QRectF box(s * 0.1, s * 0.1, s * 0.8, s * 0.8);
            p.setPen(QPen(Palette::assumption(), s * 0.08));
            p.setBrush(Palette::output(OutputState::Done));
            p.drawRect(box);
            QPolygonF corner;
            corner << box.topRight() << QPointF(box.right() - box.width() * 0.6, box.top())
                   << QPointF(box.right(), box.top() + box.height() * 0.6);
            p.setPen(Qt::NoPen);
            p.setBrush(Palette::assumption());
            p.drawPolygon(corner);
            break;
        }
        case FindingKind::Error: {
            p.setPen(Qt::NoPen);
            p.setBrush(Palette::capacity());
            p.drawEllipse(QRectF(s * 0.06, s * 0.06, s * 0.88, s * 0.88));
            p.setPen(QPen(Qt::white, s * 0.13, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(QPointF(s * 0.34, s * 0.34), QPointF(s * 0.66, s * 0.66));
            p.drawLine(QPointF(s * 0.66, s * 0.34), QPointF(s * 0.34, s * 0.66));
            break;
        }
        case FindingKind::Warning: {
            drawWarningTriangle(p, s, 0.05);
            p.setPen(QPen(Qt::black, s * 0.12, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(QPointF(s * 0.5, s * 0.35), QPointF(s * 0.5, s * 0.6));
            p.drawPoint(QPointF(s * 0.5, s * 0.78));
            break;
        }
        }
    });
    return icon;
}

/// The message without its "step 3, " / "step 3: " prefix, which the Step
/// column already shows.
QString withoutStep(const Diagnostic &d)
{
    QString text = fromStd(d.message);
    if (d.step > 0)
        for (const QString &prefix : {QStringLiteral("step %1, ").arg(d.step), QStringLiteral("step %1: ").arg(d.step)})
            if (text.startsWith(prefix))
                return text.mid(prefix.size());
    return text;
}

} // namespace

DiagnosticsPanel::DiagnosticsPanel(ProjectDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_summary(new QLabel)
    , m_tree(new QTreeWidget)
{
    m_summary->setWordWrap(true);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Step"), tr("Finding")});
    m_tree->headerItem()->setToolTip(0, tr("The step the finding is located at (1-based; — for the whole strategy)"));
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setWordWrap(false);
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setToolTip(tr("Double-click (or Enter) a finding to go to its step and highlight its element"));

    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_summary);
    column->addWidget(m_tree, 1);

    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) { activate(item); });
    connect(m_document, &ProjectDocument::simulationChanged, this, &DiagnosticsPanel::rebuild);
    connect(m_document, &ProjectDocument::simulationStarted, this, [this] { m_summary->setText(tr("Simulating…")); });
    rebuild();
}

QString DiagnosticsPanel::summary() const { return m_summary->text(); }

void DiagnosticsPanel::rebuild()
{
    m_tree->clear();
    const auto snapshot = m_document->simulation();
    if (!snapshot) {
        if (m_document->busy())
            m_summary->setText(tr("Simulating…"));
        else if (m_document->currentStrategy() < 0)
            m_summary->setText(tr("No strategy selected."));
        else
            m_summary->setText(tr("Not simulated: the layer or hardware has problems (see the problem editor)."));
        return;
    }

    const QString strategy = fromStd(snapshot->spec.name).toHtmlEscaped();
    QList<QTreeWidgetItem *> items;
    const auto add = [&](FindingKind kind, const QString &step, const QString &text, const QString &tip, int index) {
        auto *item = new QTreeWidgetItem({step, text});
        item->setIcon(0, findingIcon(kind));
        item->setToolTip(1, tip);
        item->setTextAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
        item->setData(0, DiagnosticIndexRole, index);
        items << item;
    };

    if (!snapshot->failure.empty()) {
        const QString failure = fromStd(snapshot->failure);
        add(FindingKind::Error, QStringLiteral("—"), failure, failure, -1);
        m_summary->setText(tr("<b>%1</b> cannot be simulated.").arg(strategy));
        m_tree->addTopLevelItems(items);
        return;
    }

    const SimulationResult &r = snapshot->result;
    const Verdict verdict = verdictOf(r);
    const int stepCount = int(r.steps.size());
    // Errors, then the reload assumption (a heading row with the full count,
    // then the findings listed), then plain warnings.
    const auto addFinding = [&](std::size_t i) {
        const Diagnostic &d = r.diagnostics[i];
        QString step = d.step <= 0 ? QStringLiteral("—") : QString::number(d.step);
        if (d.step == stepCount && stepCount > 0 && r.steps.back().drain)
            step = tr("drain");
        add(kindOf(d), step, withoutStep(d),
            QStringLiteral("%1\n(%2)")
                .arg(fromStd(d.message), QLatin1String(ruleName(d.rule).data(), qsizetype(ruleName(d.rule).size()))),
            int(i));
    };
    for (const FindingKind kind : {FindingKind::Error, FindingKind::Assumption, FindingKind::Warning}) {
        if (kind == FindingKind::Assumption && !r.reload.met()) {
            const QString heading = fromStd(reloadAssumptionText(r.reload.pixels, r.reload.kernels));
            const std::size_t marked = r.reload.patches.size();
            const QString patches = marked == 1 ? tr("1 patch") : tr("%1 patches").arg(marked);
            // Short enough for a narrow dock; the tooltip says it in full.
            const QString text = tr("%1; %2 marked").arg(heading, patches);
            const QString tip = tr("%1: %2 computed at a step that loads one of their pixels or kernels beyond the bound.\n"
                                   "The paper assumes %3.")
                                    .arg(heading, patches, fromStd(reloadAssumptionRule(r.reload.bound)));
            add(kind, QStringLiteral("—"), text, tip, -1);
            QFont bold = items.back()->font(1);
            bold.setBold(true);
            items.back()->setFont(1, bold);
        }
        for (std::size_t i = 0; i < r.diagnostics.size(); ++i)
            if (kindOf(r.diagnostics[i]) == kind)
                addFinding(i);
    }
    if (r.functional.status == FunctionalStatus::Fail) {
        const QString text = tr("functional check failed: %1").arg(fromStd(r.functional.message));
        add(FindingKind::Error, QStringLiteral("—"), text, text, -1);
    }
    if (r.suppressed_diagnostics > 0) {
        auto *more
            = new QTreeWidgetItem({QString(), tr("%1 more not listed (at most 50 per rule)").arg(r.suppressed_diagnostics)});
        more->setData(0, DiagnosticIndexRole, -1);
        more->setFlags(Qt::ItemIsEnabled);
        QFont italic = more->font(1);
        italic.setItalic(true);
        more->setFont(1, italic);
        items << more;
    }
    m_tree->addTopLevelItems(items);

    QString text = QStringLiteral("<b>%1</b> %2").arg(strategy, fromStd(verdictSummary(verdict)).toHtmlEscaped());
    if (verdict.status == StrategyStatus::Invalid)
        text = QStringLiteral("<b>%1</b> is <b>invalid</b>: %2")
                   .arg(strategy, fromStd(verdictSummary(verdict).substr(std::string("invalid: ").size())).toHtmlEscaped());
    text += QStringLiteral("; ") + tr("functional check %1.").arg(fromStd(functionalStatusName(r.functional.status)));
    m_summary->setText(text);
}

void DiagnosticsPanel::activate(QTreeWidgetItem *item)
{
    const auto snapshot = m_document->simulation();
    if (!item || !snapshot)
        return;
    const int index = item->data(0, DiagnosticIndexRole).toInt();
    if (index < 0 || index >= int(snapshot->result.diagnostics.size()))
        return;
    const Diagnostic &d = snapshot->result.diagnostics[std::size_t(index)];
    if (d.step > 0)
        m_document->seek({d.step - 1, d.has_action ? d.action : Action::Compute});
    emit elementHighlighted(fromStd(d.element));
}

} // namespace convoffload::ui
