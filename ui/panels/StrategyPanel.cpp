#include "panels/StrategyPanel.h"

#include "document/AddStrategyCommand.h"
#include "document/ChangeStrategyCommand.h"
#include "document/ProjectDocument.h"
#include "document/RemoveStrategyCommand.h"
#include "render/Palette.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/io/StrategyCsv.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace convoffload::ui {

namespace {

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

QString formatNumber(double v)
{
    if (std::abs(v) < 9e15 && v == double(std::int64_t(v)))
        return QString::number(qlonglong(v));
    return QString::number(v, 'g', 6);
}

QString kindLabel(StrategyKind kind)
{
    switch (kind) {
    case StrategyKind::S1Baseline:
        return QStringLiteral("S1-baseline");
    case StrategyKind::RowByRow:
        return QStringLiteral("Row-by-Row");
    case StrategyKind::ZigZag:
        return QStringLiteral("ZigZag");
    case StrategyKind::Groups:
        return QStringLiteral("Groups");
    }
    return {};
}

bool problemIsSound(const Problem &p) { return p.layer.problems().empty() && p.hardware.problems().empty(); }

std::string localPath(const QString &path) { return QFile::encodeName(path).toStdString(); }

/// The badge: a disc whose shape differs as well as its colour (a tick, a
/// cross, an exclamation mark, an empty ring), so it reads without colour.
QPixmap badgePixmap(StrategyListModel::Status status, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal s = size;
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
    case StrategyListModel::Status::Failed:
        p.setPen(Qt::NoPen);
        p.setBrush(Palette::capacity());
        p.drawEllipse(disc);
        p.setPen(mark);
        p.drawLine(QPointF(s * 0.5, s * 0.26), QPointF(s * 0.5, s * 0.56));
        p.drawPoint(QPointF(s * 0.5, s * 0.74));
        break;
    }
    return pixmap;
}

/// Two lines per strategy: badge and name, then kind, group size and duration.
class StrategyDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        const int lines = option.fontMetrics.lineSpacing() * 2 + 3 * kMargin;
        return {size.width(), std::max(size.height(), lines)};
    }

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QWidget *widget = opt.widget;
        QStyle *style = widget ? widget->style() : QApplication::style();
        const QString name = opt.text;
        opt.text.clear();
        opt.icon = QIcon();
        opt.features &= ~QStyleOptionViewItem::HasDecoration;
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus

        const QRect r = opt.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
        const int line = opt.fontMetrics.lineSpacing();
        const int badgeSize = std::min(line, 16);
        const auto status = StrategyListModel::Status(index.data(StrategyListModel::StatusRole).toInt());
        const QRect badgeRect(r.left(), r.top() + (line - badgeSize) / 2, badgeSize, badgeSize);
        StrategyListModel::badge(status).paint(painter, badgeRect);

        const bool selected = opt.state & QStyle::State_Selected;
        const QPalette::ColorGroup group = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
        QColor text = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
        const int textLeft = badgeRect.right() + kMargin + 2;
        painter->save();
        painter->setPen(text);
        QFont bold = opt.font;
        bold.setBold(true);
        painter->setFont(bold);
        const QRect nameRect(textLeft, r.top(), r.right() - textLeft, line);
        painter->drawText(
            nameRect, Qt::AlignLeft | Qt::AlignVCenter, QFontMetrics(bold).elidedText(name, Qt::ElideRight, nameRect.width()));
        painter->setFont(opt.font);
        text.setAlphaF(selected ? 0.85 : 0.65);
        painter->setPen(text);
        const QRect summaryRect(textLeft, r.top() + line + kMargin, r.right() - textLeft, line);
        painter->drawText(summaryRect, Qt::AlignLeft | Qt::AlignVCenter,
            opt.fontMetrics.elidedText(
                index.data(StrategyListModel::SummaryRole).toString(), Qt::ElideRight, summaryRect.width()));
        painter->restore();
    }

    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &) const override
    {
        // Over the name only, so the summary stays readable while renaming.
        const int line = option.fontMetrics.lineSpacing();
        const int left = kMargin + std::min(line, 16) + kMargin;
        QRect r = option.rect.adjusted(left, 0, -kMargin, 0);
        r.setHeight(std::max(editor->sizeHint().height(), line + 2 * kMargin));
        editor->setGeometry(r);
    }

private:
    static constexpr int kMargin = 4;
};

/// Asks for a heuristic, its group size and a name.
class AddHeuristicDialog : public QDialog {
public:
    AddHeuristicDialog(ProjectDocument *document, QWidget *parent)
        : QDialog(parent)
        , m_document(document)
    {
        setWindowTitle(tr("Add Heuristic Strategy"));
        setObjectName(QStringLiteral("addHeuristicDialog"));
        const Problem &problem = document->problem();
        const bool sound = problem.layer.problems().empty();
        m_nbPatchesMax = sound ? problem.nbPatchesMax() : 0;
        const std::int64_t patches = sound ? problem.layer.patchCount() : std::numeric_limits<int>::max();

        m_kind = new QComboBox;
        m_kind->setObjectName(QStringLiteral("kind"));
        for (StrategyKind k : {StrategyKind::S1Baseline, StrategyKind::RowByRow, StrategyKind::ZigZag})
            m_kind->addItem(kindLabel(k), int(k));
        m_kind->setCurrentIndex(2);
        m_kind->setToolTip(tr("S1-baseline: one patch per step, row-major.\n"
                              "Row-by-Row: row-major order cut into groups of G patches.\n"
                              "ZigZag: even output rows left to right, odd rows right to left, cut into groups of G."));
        m_groupSize = new QSpinBox;
        m_groupSize->setObjectName(QStringLiteral("groupSize"));
        m_groupSize->setRange(1, int(std::clamp<std::int64_t>(patches, 1, std::numeric_limits<int>::max())));
        m_groupSize->setValue(int(std::clamp<std::int64_t>(m_nbPatchesMax, 1, m_groupSize->maximum())));
        m_groupSize->setToolTip(
            tr("G: patches per step. nb_patches_max = %1 is the most one compute can do (nbop_pe).").arg(m_nbPatchesMax));
        m_name = new QLineEdit;
        m_name->setObjectName(QStringLiteral("name"));
        m_hint = new QLabel;
        m_hint->setWordWrap(true);
        QPalette hintPalette = m_hint->palette();
        hintPalette.setColor(QPalette::WindowText, QColor(0x80, 0x58, 0x00)); // dark amber, readable on grey
        m_hint->setPalette(hintPalette);
        // Room for the hint, so the dialog does not jump when it appears.
        m_hint->setMinimumHeight(m_hint->fontMetrics().lineSpacing() * 3);
        m_hint->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 52);

        auto *form = new QFormLayout;
        form->addRow(tr("&Kind"), m_kind);
        form->addRow(tr("&Group size G"), m_groupSize);
        form->addRow(tr("&Name"), m_name);
        m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        auto *column = new QVBoxLayout(this);
        column->addLayout(form);
        column->addWidget(m_hint);
        column->addWidget(m_buttons);

        connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        connect(m_name, &QLineEdit::textEdited, this, [this] { m_nameEdited = true; });
        connect(m_name, &QLineEdit::textChanged, this, &AddHeuristicDialog::check);
        connect(m_kind, &QComboBox::currentIndexChanged, this, &AddHeuristicDialog::update);
        connect(m_groupSize, &QSpinBox::valueChanged, this, &AddHeuristicDialog::update);
        update();
    }

    StrategyKind kind() const { return StrategyKind(m_kind->currentData().toInt()); }
    std::int64_t groupSize() const { return m_groupSize->value(); }
    QString name() const { return m_name->text().trimmed(); }

private:
    void update()
    {
        m_groupSize->setEnabled(kind() != StrategyKind::S1Baseline);
        if (!m_nameEdited) {
            QString base = kindLabel(kind());
            if (kind() != StrategyKind::S1Baseline && groupSize() != m_nbPatchesMax)
                base += QStringLiteral(" G=%1").arg(groupSize());
            m_name->setText(m_document->uniqueStrategyName(base));
        }
        check();
    }

    void check()
    {
        QString problem;
        if (name().isEmpty())
            problem = tr("Give the strategy a name.");
        else if (m_document->project().findStrategy(name().toStdString()))
            problem = tr("A strategy named “%1” already exists.").arg(name());
        QString note;
        if (problem.isEmpty() && kind() != StrategyKind::S1Baseline && groupSize() > m_nbPatchesMax)
            note = tr("G = %1 is more than nb_patches_max = %2: its steps exceed nbop_pe and the strategy will be "
                      "invalid (useful to compare).")
                       .arg(groupSize())
                       .arg(m_nbPatchesMax);
        m_hint->setText(problem.isEmpty() ? note : problem);
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    }

    ProjectDocument *m_document;
    std::int64_t m_nbPatchesMax = 0;
    QComboBox *m_kind;
    QSpinBox *m_groupSize;
    QLineEdit *m_name;
    QLabel *m_hint;
    QDialogButtonBox *m_buttons;
    bool m_nameEdited = false;
};

} // namespace

// ---- StrategyListModel --------------------------------------------------------

StrategyListModel::StrategyListModel(ProjectDocument *document, QObject *parent)
    : QAbstractListModel(parent)
    , m_document(document)
    , m_count(int(document->project().strategies.size()))
{
    connect(document, &ProjectDocument::strategiesChanged, this, &StrategyListModel::onStrategiesChanged);
    const auto allChanged = [this] {
        if (m_count > 0)
            emit dataChanged(index(0), index(m_count - 1));
    };
    connect(document, &ProjectDocument::comparisonChanged, this, allChanged);
    connect(document, &ProjectDocument::problemChanged, this, allChanged); // group sizes follow nb_patches_max
}

// The document only says "the list changed" after the fact. A rename or a
// redefinition keeps the count: rows are updated in place (selection and open
// editors survive); an insertion or a removal resets the list.
void StrategyListModel::onStrategiesChanged()
{
    const int count = int(m_document->project().strategies.size());
    if (count != m_count) {
        beginResetModel();
        m_count = count;
        endResetModel();
    } else if (count > 0) {
        emit dataChanged(index(0), index(count - 1));
    }
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
    return r->valid ? Status::Valid : Status::Invalid;
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
    else if (!r->failure.empty())
        parts << tr("cannot be expanded");
    else {
        parts << tr("%1 cycles").arg(formatNumber(r->total_duration));
        if (!r->valid)
            parts << (r->errors == 1 ? tr("1 error") : tr("%1 errors").arg(r->errors));
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
    } else if (!r->failure.empty()) {
        tip += QStringLiteral("<br>") + tr("Cannot be expanded: %1").arg(fromStd(r->failure).toHtmlEscaped());
    } else {
        tip += QStringLiteral("<br>")
            + (r->valid ? tr("Valid.") : tr("<b>Invalid</b>: breaks the rules of the model (see Diagnostics)."))
            + QStringLiteral("<br>")
            + tr("Duration %1 cycles over %2 steps; peak footprint %3 / %4 elements.")
                  .arg(formatNumber(r->total_duration))
                  .arg(r->steps)
                  .arg(r->peak_footprint)
                  .arg(m_document->problem().hardware.mem_size)
            + QStringLiteral("<br>") + (r->errors == 1 ? tr("1 error") : tr("%1 errors").arg(r->errors)) + QStringLiteral(", ")
            + (r->warnings == 1 ? tr("1 warning.") : tr("%1 warnings.").arg(r->warnings));
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
    // The command's redo() replaces the strategy; strategiesChanged updates the row.
    m_document->undoStack()->push(
        new ChangeStrategyCommand(m_document, row, after, tr("Rename strategy %1 to %2").arg(before, name)));
    return true;
}

QIcon StrategyListModel::badge(Status status)
{
    static QIcon icons[4];
    QIcon &icon = icons[int(status)];
    if (icon.isNull())
        for (int size : {16, 32, 64})
            icon.addPixmap(badgePixmap(status, size));
    return icon;
}

// ---- StrategyPanel ---------------------------------------------------------------

StrategyPanel::StrategyPanel(ProjectDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new StrategyListModel(document, this))
    , m_view(new QListView)
{
    m_view->setModel(m_model);
    m_view->setItemDelegate(new StrategyDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->setUniformItemSizes(true);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    const auto makeAction
        = [this](const QString &text, const QString &iconText, const QKeySequence &key, const QString &tip, auto slot) {
              auto *action = new QAction(text, this);
              action->setIconText(iconText);
              action->setShortcut(key);
              action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
              action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
              action->setStatusTip(tip);
              connect(action, &QAction::triggered, this, slot);
              addAction(action);
              m_view->addAction(action);
              return action;
          };
    m_add = makeAction(tr("&Add Heuristic…"), tr("Add…"), QKeySequence(Qt::Key_Insert),
        tr("Add an S1-baseline, Row-by-Row or ZigZag strategy"), &StrategyPanel::showAddDialog);
    m_duplicate = makeAction(tr("D&uplicate as Groups"), tr("Duplicate"), QKeySequence(Qt::CTRL | Qt::Key_D),
        tr("Copy the selected strategy as explicit groups, to edit by hand"), [this] {
            if (const QString error = duplicateCurrent(); !error.isEmpty())
                showError(tr("Duplicate Strategy"), error);
        });
    m_rename = makeAction(
        tr("&Rename"), tr("Rename"), QKeySequence(Qt::Key_F2), tr("Rename the selected strategy"), &StrategyPanel::renameCurrent);
    m_delete
        = makeAction(tr("&Delete"), tr("Delete"), QKeySequence(QKeySequence::Delete), tr("Delete the selected strategy"), [this] {
              if (const QString error = deleteCurrent(); !error.isEmpty())
                  showError(tr("Delete Strategy"), error);
          });
    m_import = makeAction(tr("&Import CSV…"), tr("Import…"), QKeySequence(),
        tr("Add a strategy from a CSV of groups (patch,group / row,col,group / 0-1 matrix)"), &StrategyPanel::showImportDialog);
    m_export = makeAction(tr("&Export CSV…"), tr("Export…"), QKeySequence(),
        tr("Save the selected strategy's groups as patch,row,col,group"), &StrategyPanel::showExportDialog);
    for (QAction *a : {m_import, m_export})
        a->setToolTip(a->statusTip());

    auto *buttons = new QGridLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(2);
    QAction *const order[] = {m_add, m_duplicate, m_rename, m_delete, m_import, m_export};
    for (int i = 0; i < 6; ++i) {
        auto *button = new QToolButton;
        button->setDefaultAction(order[i]);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        buttons->addWidget(button, i / 3, i % 3);
    }

    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_view, 1);
    column->addLayout(buttons);

    connect(m_model, &StrategyListModel::renameRefused, this,
        [this](const QString &reason) { showError(tr("Rename Strategy"), reason); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (!m_selecting && current.isValid())
            m_document->setCurrentStrategy(current.row());
        updateActions();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &StrategyPanel::selectCurrent);
    connect(m_document, &ProjectDocument::currentStrategyChanged, this, &StrategyPanel::selectCurrent);
    connect(m_document, &ProjectDocument::problemChanged, this, &StrategyPanel::updateActions);
    connect(m_document, &ProjectDocument::strategiesChanged, this, &StrategyPanel::updateActions);
    selectCurrent();
}

void StrategyPanel::selectCurrent()
{
    const int current = m_document->currentStrategy();
    const QModelIndex index = current >= 0 && current < m_model->rowCount() ? m_model->index(current) : QModelIndex();
    m_selecting = true;
    if (index.isValid())
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    else
        m_view->selectionModel()->clear();
    m_selecting = false;
    updateActions();
}

void StrategyPanel::updateActions()
{
    const int current = m_document->currentStrategy();
    const bool selected = current >= 0 && current < int(m_document->project().strategies.size());
    const bool sound = problemIsSound(m_document->problem());
    m_duplicate->setEnabled(selected && sound);
    m_rename->setEnabled(selected);
    m_delete->setEnabled(selected);
    m_export->setEnabled(selected && sound);
    m_import->setEnabled(m_document->problem().layer.problems().empty());
}

// Failed actions are reported in a window-modal box that does not block the
// caller (open(), not exec()), so tests and scripts can drive the panel.
void StrategyPanel::showError(const QString &title, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString StrategyPanel::addHeuristic(StrategyKind kind, std::int64_t groupSize, const QString &name)
{
    const QString trimmed = name.trimmed();
    if (const QString problem = m_model->renameProblem(-1, trimmed); !problem.isEmpty())
        return problem;
    if (kind == StrategyKind::Groups)
        return tr("Explicit groups are added by duplicating a strategy or importing a CSV.");
    StrategySpec spec;
    spec.name = trimmed.toStdString();
    spec.kind = kind;
    if (kind != StrategyKind::S1Baseline) {
        if (groupSize < 1)
            return tr("The group size must be at least 1.");
        spec.group_size = groupSize;
    }
    const int at = int(m_document->project().strategies.size());
    m_document->undoStack()->push(new AddStrategyCommand(m_document, at, spec));
    return {};
}

QString StrategyPanel::duplicateCurrent()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return tr("Select a strategy to duplicate.");
    const StrategySpec &source = m_document->project().strategies[std::size_t(current)];
    StrategySpec copy;
    try {
        copy.groups = groupsOf(m_document->problem(), source);
    } catch (const std::exception &e) {
        return tr("“%1” cannot be expanded into groups: %2").arg(fromStd(source.name), fromStd(e.what()));
    }
    copy.kind = StrategyKind::Groups;
    copy.name = m_document->uniqueStrategyName(fromStd(source.name) + tr(" copy")).toStdString();
    m_document->undoStack()->push(new AddStrategyCommand(m_document, current + 1, copy));
    return {};
}

QString StrategyPanel::deleteCurrent()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return tr("Select a strategy to delete.");
    m_document->undoStack()->push(new RemoveStrategyCommand(m_document, current));
    return {};
}

void StrategyPanel::renameCurrent()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= m_model->rowCount())
        return;
    const QModelIndex index = m_model->index(current);
    m_view->setFocus();
    m_view->scrollTo(index);
    m_view->edit(index);
}

QString StrategyPanel::importCsv(const QString &path)
{
    Groups groups;
    try {
        groups = loadGroupsCsv(m_document->problem().layer, localPath(path));
    } catch (const std::exception &e) {
        return fromStd(e.what());
    }
    StrategySpec spec;
    spec.kind = StrategyKind::Groups;
    spec.groups = std::move(groups);
    const QString base = QFileInfo(path).completeBaseName();
    spec.name = m_document->uniqueStrategyName(base.isEmpty() ? tr("Imported") : base).toStdString();
    const int at = int(m_document->project().strategies.size());
    m_document->undoStack()->push(new AddStrategyCommand(m_document, at, spec));
    return {};
}

QString StrategyPanel::exportCsv(const QString &path) const
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return tr("Select a strategy to export.");
    const Problem &problem = m_document->problem();
    try {
        const Groups groups = groupsOf(problem, m_document->project().strategies[std::size_t(current)]);
        writeTextFileAtomically(localPath(path), groupsToCsv(problem.layer, groups));
    } catch (const std::exception &e) {
        return fromStd(e.what());
    }
    return {};
}

void StrategyPanel::showAddDialog()
{
    auto *dialog = new AddHeuristicDialog(m_document, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const QString error = addHeuristic(dialog->kind(), dialog->groupSize(), dialog->name()); !error.isEmpty())
            showError(tr("Add Strategy"), error);
    });
    dialog->open();
}

void StrategyPanel::showImportDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Strategy CSV"), QFileInfo(m_document->filePath()).path(),
        tr("Strategy CSV (*.csv *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString error = importCsv(path); !error.isEmpty())
        showError(tr("Import Strategy CSV"), error);
}

void StrategyPanel::showExportDialog()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return;
    QString name = fromStd(m_document->project().strategies[std::size_t(current)].name);
    name.replace(QLatin1Char('/'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    const QString folder = QFileInfo(m_document->filePath()).path();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Strategy CSV"), folder + QLatin1Char('/') + name + QStringLiteral(".csv"), tr("Strategy CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (const QString error = exportCsv(path); !error.isEmpty())
        showError(tr("Export Strategy CSV"), error);
}

} // namespace convoffload::ui
