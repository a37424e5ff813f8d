#include "panels/ProblemEditor.h"

#include "document/EditProblemCommand.h"
#include "document/ProjectDocument.h"
#include "panels/CompactDoubleSpinBox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace convoffload::ui {

namespace {

// Layer::problems() refuses dimensions above 2^20; the spin boxes stop there.
constexpr int kMaxDimension = 1 << 20;
// 64-bit hardware sizes are edited as doubles with no decimals: exact up to 2^53.
constexpr double kMaxInt64Edit = 9007199254740992.0;

const QColor kErrorText(0xA8, 0x3A, 0x00); // dark vermillion: readable on white
const QColor kWarningText(0x80, 0x58, 0x00); // dark amber
const QColor kErrorBase(0xFB, 0xE3, 0xD6);

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

QString number(std::int64_t v) { return QLocale().toString(qlonglong(v)); }

} // namespace

ProblemEditor::ProblemEditor(ProjectDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto *content = new QWidget;
    scroll->setWidget(content);
    auto *column = new QVBoxLayout(content);

    m_general = new QLabel;
    m_general->setWordWrap(true);
    m_general->setVisible(false);
    QPalette generalPalette = m_general->palette();
    generalPalette.setColor(QPalette::WindowText, kErrorText);
    m_general->setPalette(generalPalette);
    column->addWidget(m_general);

    const auto layerInt = [](const char *name, int Layer::*member, const QString &tip) {
        Field f{QStringLiteral("layer.") + QLatin1String(name), QLatin1String(name), EditorKind::Int, nullptr, tip,
            [member](const Problem &p) { return double(p.layer.*member); },
            [member](Problem &p, double v) { p.layer.*member = int(std::llround(v)); }, -1, {}, {}};
        return f;
    };
    const auto hwInt64 = [](const char *name, std::int64_t Hardware::*member, const QString &tip) {
        Field f{QStringLiteral("hardware.") + QLatin1String(name), QLatin1String(name), EditorKind::Int64, nullptr, tip,
            [member](const Problem &p) { return double(p.hardware.*member); },
            [member](Problem &p, double v) { p.hardware.*member = std::int64_t(std::llround(v)); }, -1, {}, {}};
        return f;
    };
    const auto hwReal = [](const char *name, double Hardware::*member, const QString &tip) {
        Field f{QStringLiteral("hardware.") + QLatin1String(name), QLatin1String(name), EditorKind::Real, nullptr, tip,
            [member](const Problem &p) { return p.hardware.*member; }, [member](Problem &p, double v) { p.hardware.*member = v; },
            -1, {}, {}};
        return f;
    };
    const auto optionBool = [](const char *name, bool Options::*member, const QString &tip) {
        Field f{QStringLiteral("options.") + QLatin1String(name), QLatin1String(name), EditorKind::Check, nullptr, tip,
            [member](const Problem &p) { return p.options.*member ? 1.0 : 0.0; },
            [member](Problem &p, double v) { p.options.*member = v != 0; }, -1, {}, {}};
        return f;
    };

    // ---- layer ----------------------------------------------------------
    auto *layerBox = new QGroupBox(tr("Layer"));
    auto *layerForm = new QFormLayout(layerBox);
    layerForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    addRow(layerForm, tr("Input c_in × h_in × w_in"), tr("The input tensor: channels × height × width, before padding."),
        {layerInt("c_in", &Layer::c_in, tr("c_in: input channels. A pixel carries c_in elements (one per channel).")),
            layerInt("h_in", &Layer::h_in, tr("h_in: input height in pixels, padding not included.")),
            layerInt("w_in", &Layer::w_in, tr("w_in: input width in pixels, padding not included."))});
    addRow(layerForm, tr("Kernels n × h_k × w_k"),
        tr("n kernels (= output channels) of h_k × w_k pixels; each kernel has c_in·h_k·w_k weights (elements)."),
        {layerInt("n", &Layer::n, tr("n: number of kernels = output channels. Each output position has n output elements.")),
            layerInt("h_k", &Layer::h_k, tr("h_k: kernel height in pixels; at most the padded input height.")),
            layerInt("w_k", &Layer::w_k, tr("w_k: kernel width in pixels; at most the padded input width."))});
    addRow(layerForm, tr("Stride stride_h × stride_w"), tr("Distance in pixels between neighbouring patches."),
        {layerInt("stride_h", &Layer::stride_h, tr("stride_h: vertical distance in pixels between patches of one column.")),
            layerInt("stride_w", &Layer::stride_w, tr("stride_w: horizontal distance in pixels between patches of one row."))});
    const QString padTip = tr("Padding pixels are zeros, loaded from DRAM or synthesised on chip (see Options).");
    addRow(layerForm, tr("Padding pad_top, pad_bottom"), padTip,
        {layerInt("pad_top", &Layer::pad_top, tr("pad_top: rows of zero pixels added above the input.")),
            layerInt("pad_bottom", &Layer::pad_bottom, tr("pad_bottom: rows of zero pixels added below the input."))});
    addRow(layerForm, tr("Padding pad_left, pad_right"), padTip,
        {layerInt("pad_left", &Layer::pad_left, tr("pad_left: columns of zero pixels added left of the input.")),
            layerInt("pad_right", &Layer::pad_right, tr("pad_right: columns of zero pixels added right of the input."))});
    column->addWidget(layerBox);

    // ---- hardware -------------------------------------------------------
    auto *hardwareBox = new QGroupBox(tr("Hardware"));
    auto *hardwareForm = new QFormLayout(hardwareBox);
    hardwareForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    addRow(hardwareForm, tr("mem_size (elements)"), {},
        {hwInt64("mem_size", &Hardware::mem_size,
            tr("mem_size: on-chip memory in elements. Input elements, kernel weights and output values count one each; "
               "the footprint must stay within it after every action."))});
    addRow(hardwareForm, tr("nbop_pe (MACs per compute)"), {},
        {hwInt64("nbop_pe", &Hardware::nbop_pe,
            tr("nbop_pe: multiply-accumulates one compute can do. A step computing |Out| outputs needs "
               "|Out|·c_in·h_k·w_k ≤ nbop_pe; nb_patches_max = ⌊nbop_pe / (c_in·h_k·w_k·n)⌋."))});
    addRow(hardwareForm, tr("t_l (cycles per element loaded)"), {},
        {hwReal("t_l", &Hardware::t_l, tr("t_l: cycles to load one element (input element or kernel weight) from DRAM."))});
    addRow(hardwareForm, tr("t_w (cycles per element written)"), {},
        {hwReal("t_w", &Hardware::t_w, tr("t_w: cycles to write one output element back to DRAM."))});
    addRow(hardwareForm, tr("t_acc (cycles per compute)"), {},
        {hwReal("t_acc", &Hardware::t_acc,
            tr("t_acc: cycles of one compute, paid once by every step that computes, whatever its size."))});
    addRow(hardwareForm, tr("dram_size (elements)"), {},
        {hwInt64("dram_size", &Hardware::dram_size,
            tr("dram_size: DRAM capacity in elements; the input (with padding when it lives in DRAM), the kernels "
               "and the output must fit."))});
    Field maxLoads{QStringLiteral("hardware.max_loads_per_element"), QStringLiteral("max_loads_per_element"), EditorKind::Int,
        nullptr,
        tr("max_loads_per_element: the reload bound. Loading an input element more often is reported as a warning "
           "(the heuristics routinely do)."),
        [](const Problem &p) { return double(p.hardware.max_loads_per_element); },
        [](Problem &p, double v) { p.hardware.max_loads_per_element = int(std::llround(v)); }, -1, {}, {}};
    addRow(hardwareForm, tr("max_loads_per_element"), {}, {maxLoads});
    column->addWidget(hardwareBox);

    // ---- options --------------------------------------------------------
    auto *optionsBox = new QGroupBox(tr("Options"));
    auto *optionsForm = new QFormLayout(optionsBox);
    optionsForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    addRow(optionsForm, tr("kernels_preloaded"), {},
        {optionBool("kernels_preloaded", &Options::kernels_preloaded,
            tr("Kernel loads cost nothing (the paper's ILP assumption); the kernels still occupy on-chip memory."))});
    Field policy{QStringLiteral("options.write_policy"), QStringLiteral("write_policy"), EditorKind::Policy, nullptr,
        tr("next-step: the outputs of group i are written at step i+1 (the paper's Example).\n"
           "as-late-as-possible: outputs stay on chip; before each load the oldest are written, just enough for "
           "the step to fit mem_size."),
        [](const Problem &p) { return p.options.write_policy == WritePolicy::NextStep ? 0.0 : 1.0; },
        [](Problem &p, double v) { p.options.write_policy = v != 0 ? WritePolicy::AsLateAsPossible : WritePolicy::NextStep; }, -1,
        {}, {}};
    addRow(optionsForm, tr("write_policy"), {}, {policy});
    addRow(optionsForm, tr("padding_in_dram"), {},
        {optionBool("padding_in_dram", &Options::padding_in_dram,
            tr("Checked: padding pixels are zeros stored in DRAM and loaded like any pixel (the paper).\n"
               "Unchecked: they are synthesised on chip, never loaded and never counted."))});
    column->addWidget(optionsBox);

    // ---- derived figures ------------------------------------------------
    auto *derivedBox = new QGroupBox(tr("Derived (read-only)"));
    auto *derivedForm = new QFormLayout(derivedBox);
    derivedForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    const auto derived = [&](const QString &label, const QString &tip) {
        auto *value = new QLabel;
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        value->setToolTip(tip);
        auto *name = new QLabel(label);
        name->setToolTip(tip);
        derivedForm->addRow(name, value);
        return value;
    };
    m_output = derived(tr("Output n × h_out × w_out"),
        tr("h_out = (h_in + pad_top + pad_bottom − h_k) / stride_h + 1, likewise w_out; n·h_out·w_out output elements."));
    m_patches = derived(tr("Patches"), tr("One patch per output position (h_out × w_out), ids row-major."));
    m_nbPatchesMax = derived(tr("nb_patches_max"),
        tr("⌊nbop_pe / (c_in·h_k·w_k·n)⌋: the most patches one step can compute (the default group size G)."));
    m_kRange = derived(tr("Steps K_min … K_max"),
        tr("K_min = ⌈patches / nb_patches_max⌉ steps at least; K_max = patches (one patch per step)."));
    m_layerSize = derived(
        tr("Whole layer"), tr("Input (with padding) + kernels + output, in elements, against the on-chip memory mem_size."));
    column->addWidget(derivedBox);
    column->addStretch(1);

    connect(m_document, &ProjectDocument::problemChanged, this, &ProblemEditor::refresh);
    refresh();
}

void ProblemEditor::addRow(QFormLayout *form, const QString &label, const QString &labelTip, const std::vector<Field> &fields)
{
    const int rowIndex = int(m_rows.size());
    auto *container = new QWidget;
    auto *column = new QVBoxLayout(container);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    auto *editors = new QHBoxLayout;
    editors->setSpacing(4);
    column->addLayout(editors);

    QStringList tips;
    const std::size_t first = m_fields.size();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) {
            // "×" between the dimensions of one tensor, "," between unrelated paddings.
            const bool padding = fields[i].name.startsWith(QLatin1String("pad_"));
            auto *separator = new QLabel(padding ? QStringLiteral(",") : QStringLiteral("×"));
            editors->addWidget(separator);
        }
        m_fields.push_back(fields[i]);
        Field &f = m_fields.back();
        f.row = rowIndex;
        editors->addWidget(makeEditor(f), 1);
        tips << f.tip;
    }

    auto *message = new QLabel;
    message->setWordWrap(true);
    message->setVisible(false);
    message->setTextFormat(Qt::RichText);
    column->addWidget(message);
    m_rows.push_back({message});

    auto *labelWidget = new QLabel(label);
    labelWidget->setToolTip(labelTip.isEmpty() ? tips.join(QLatin1Char('\n')) : labelTip);
    labelWidget->setBuddy(m_fields[first].editor);
    form->addRow(labelWidget, container);
}

QWidget *ProblemEditor::makeEditor(Field &field)
{
    const int index = int(m_fields.size()) - 1;
    switch (field.kind) {
    case EditorKind::Int: {
        auto *spin = new QSpinBox;
        const bool padding = field.name.startsWith(QLatin1String("pad_"));
        spin->setRange(padding ? 0 : 1, kMaxDimension);
        spin->setGroupSeparatorShown(true);
        spin->setAccelerated(true);
        // The widest value (1,048,576) would make three of them too wide for a dock.
        spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("000,000")) + 28);
        connect(spin, &QSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        field.editor = spin;
        break;
    }
    case EditorKind::Int64: {
        auto *spin = new QDoubleSpinBox;
        spin->setDecimals(0);
        spin->setRange(1, kMaxInt64Edit);
        spin->setGroupSeparatorShown(true);
        spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        spin->setAccelerated(true);
        spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("000,000,000,000")) + 28);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        field.editor = spin;
        break;
    }
    case EditorKind::Real: {
        auto *spin = new CompactDoubleSpinBox;
        spin->setDecimals(6);
        spin->setRange(0, 1e12);
        spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        field.editor = spin;
        break;
    }
    case EditorKind::Check: {
        auto *check = new QCheckBox(field.name == QLatin1String("kernels_preloaded") ? tr("kernel loads cost nothing")
                                                                                     : tr("padding is loaded from DRAM"));
        connect(check, &QCheckBox::toggled, this, [this, index] { onEdited(index); });
        field.editor = check;
        break;
    }
    case EditorKind::Policy: {
        auto *combo = new QComboBox;
        combo->addItem(tr("next-step (paper)"));
        combo->addItem(tr("as-late-as-possible"));
        connect(combo, &QComboBox::currentIndexChanged, this, [this, index] { onEdited(index); });
        field.editor = combo;
        break;
    }
    }
    field.editor->setToolTip(field.tip);
    field.editor->setObjectName(field.key);
    return field.editor;
}

double ProblemEditor::editorValue(const Field &field) const
{
    switch (field.kind) {
    case EditorKind::Int:
        return static_cast<QSpinBox *>(field.editor)->value();
    case EditorKind::Int64:
    case EditorKind::Real:
        return static_cast<QDoubleSpinBox *>(field.editor)->value();
    case EditorKind::Check:
        return static_cast<QCheckBox *>(field.editor)->isChecked() ? 1 : 0;
    case EditorKind::Policy:
        return static_cast<QComboBox *>(field.editor)->currentIndex();
    }
    return 0;
}

void ProblemEditor::setEditorValue(Field &field, double value)
{
    if (editorValue(field) == value)
        return; // leaves the text being typed alone
    const QSignalBlocker blocker(field.editor);
    switch (field.kind) {
    case EditorKind::Int:
        static_cast<QSpinBox *>(field.editor)->setValue(int(value));
        break;
    case EditorKind::Int64:
    case EditorKind::Real:
        static_cast<QDoubleSpinBox *>(field.editor)->setValue(value);
        break;
    case EditorKind::Check:
        static_cast<QCheckBox *>(field.editor)->setChecked(value != 0);
        break;
    case EditorKind::Policy:
        static_cast<QComboBox *>(field.editor)->setCurrentIndex(int(value));
        break;
    }
}

void ProblemEditor::onEdited(int fieldIndex)
{
    const Field &f = m_fields[std::size_t(fieldIndex)];
    Problem after = m_document->problem();
    f.set(after, editorValue(f));
    if (after == m_document->problem())
        return;
    // The command's redo() sets the problem, whose signal refreshes the form.
    m_document->undoStack()->push(new EditProblemCommand(m_document, after, f.key));
}

void ProblemEditor::refresh()
{
    const Problem &p = m_document->problem();
    for (Field &f : m_fields)
        setEditorValue(f, f.get(p));
    showMessages();
    updateDerived();
}

// Core messages read "field: reason"; each goes to the field it names, the
// rest above the form. Figures every strategy will trip over (no patch fits
// nbop_pe, the layer exceeds DRAM, one patch cannot fit mem_size) are warnings.
void ProblemEditor::showMessages()
{
    const Problem &p = m_document->problem();
    for (Field &f : m_fields) {
        f.errors.clear();
        f.warnings.clear();
    }
    QStringList general;
    const auto place = [&](const QString &message, bool error) {
        const QString name = message.section(QLatin1Char(':'), 0, 0).trimmed();
        for (Field &f : m_fields)
            if (f.name == name) {
                (error ? f.errors : f.warnings) << message;
                return;
            }
        general << message;
    };
    const std::vector<std::string> layerProblems = p.layer.problems();
    for (const std::string &m : layerProblems)
        place(fromStd(m), true);
    for (const std::string &m : p.hardware.problems())
        place(fromStd(m), true);

    if (layerProblems.empty()) {
        const Layer &l = p.layer;
        const std::int64_t perPatch = l.kernelElements() * l.n;
        if (p.nbPatchesMax() == 0 && p.hardware.nbop_pe >= 1)
            place(tr("nbop_pe: one patch needs c_in·h_k·w_k·n = %1 MACs, more than nbop_pe, so nb_patches_max is 0: "
                     "no S1 strategy can compute")
                      .arg(number(perPatch)),
                false);
        const std::int64_t minimum = l.kernelElements() + l.kernelElements() * l.n + l.n;
        if (p.hardware.mem_size >= 1 && minimum > p.hardware.mem_size)
            place(tr("mem_size: a step needs at least %1 elements on chip (one patch, all kernels, its outputs): "
                     "every S1 strategy overflows")
                      .arg(number(minimum)),
                false);
        const std::int64_t dram = std::int64_t(l.c_in) * l.h_in * l.w_in
            + (p.options.padding_in_dram ? (l.pixelCount() - std::int64_t(l.h_in) * l.w_in) * l.c_in : 0)
            + l.kernelElements() * l.n + l.outputCount();
        if (p.hardware.dram_size >= 1 && dram > p.hardware.dram_size)
            place(tr("dram_size: the layer needs %1 elements of DRAM (input, kernels, output): every strategy is invalid")
                      .arg(number(dram)),
                false);
    }

    std::vector<QStringList> rowErrors(m_rows.size()), rowWarnings(m_rows.size());
    for (Field &f : m_fields) {
        rowErrors[std::size_t(f.row)] << f.errors;
        rowWarnings[std::size_t(f.row)] << f.warnings;
        // Only Base is set, the rest stays inherited; an empty palette restores it all.
        QPalette palette;
        if (!f.errors.isEmpty())
            palette.setColor(QPalette::Base, kErrorBase);
        f.editor->setPalette(palette);
        const QStringList all = f.errors + f.warnings;
        f.editor->setToolTip(all.isEmpty() ? f.tip : f.tip + QStringLiteral("\n\n") + all.join(QLatin1Char('\n')));
    }
    const auto html = [](const QStringList &lines, const QColor &colour, const QString &mark) {
        QString out;
        for (const QString &line : lines)
            out += QStringLiteral("<div style=\"color:%1\">%2 %3</div>").arg(colour.name(), mark, line.toHtmlEscaped());
        return out;
    };
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const QString text
            = html(rowErrors[r], kErrorText, QStringLiteral("✗")) + html(rowWarnings[r], kWarningText, QStringLiteral("⚠"));
        m_rows[r].message->setText(text);
        m_rows[r].message->setVisible(!text.isEmpty());
    }
    m_general->setText(general.join(QLatin1Char('\n')));
    m_general->setVisible(!general.isEmpty());
}

void ProblemEditor::updateDerived()
{
    const Problem &p = m_document->problem();
    const Layer &l = p.layer;
    if (!l.problems().empty()) {
        m_output->setText(tr("— (fix the layer first)"));
        for (QLabel *label : {m_patches, m_nbPatchesMax, m_kRange, m_layerSize})
            label->setText(QStringLiteral("—"));
        return;
    }
    m_output->setText(
        tr("%1 × %2 × %3 = %4 elements").arg(number(l.n), number(l.hOut()), number(l.wOut()), number(l.outputCount())));
    m_patches->setText(tr("%1 (%2 × %3), %4 MACs each")
                           .arg(number(l.patchCount()), number(l.hOut()), number(l.wOut()), number(l.kernelElements() * l.n)));
    const std::int64_t g = p.nbPatchesMax();
    m_nbPatchesMax->setText(g > 0 ? number(g) : tr("0: nbop_pe is too small for one patch"));
    m_kRange->setText(g > 0 ? tr("%1 … %2").arg(number(p.kMin()), number(p.kMax())) : tr("— … %1").arg(number(p.kMax())));
    const std::int64_t input = l.pixelCount() * l.c_in, kernels = l.kernelElements() * l.n, output = l.outputCount();
    const std::int64_t whole = input + kernels + output;
    m_layerSize->setText(tr("%1 elements (input %2, kernels %3, output %4) vs mem_size %5: %6")
                             .arg(number(whole), number(input), number(kernels), number(output), number(p.hardware.mem_size),
                                 whole > p.hardware.mem_size ? tr("computed in steps") : tr("fits on chip at once")));
}

const ProblemEditor::Field *ProblemEditor::find(const QString &key) const
{
    for (const Field &f : m_fields)
        if (f.key == key)
            return &f;
    return nullptr;
}

QWidget *ProblemEditor::editorFor(const QString &key) const
{
    const Field *f = find(key);
    return f ? f->editor : nullptr;
}

QString ProblemEditor::messageAt(const QString &key) const
{
    const Field *f = find(key);
    return f ? (f->errors + f->warnings).join(QLatin1Char('\n')) : QString();
}

QString ProblemEditor::generalMessage() const { return m_general->text(); }

} // namespace convoffload::ui
