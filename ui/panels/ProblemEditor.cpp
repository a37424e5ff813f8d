// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
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
#include <QApplication>
#include <QKeyEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>
#include <type_traits>

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

// Converts between a member of the problem and the double an editor holds.
template <auto Part, auto Member> double getValue(const Problem &p)
{
    const auto &value = (p.*Part).*Member;
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(value)>, bool>)
        return value ? 1.0 : 0.0;
    else
        return double(value);
}

template <auto Part, auto Member> void setValue(Problem &p, double v)
{
    auto &value = (p.*Part).*Member;
    using T = std::remove_cvref_t<decltype(value)>;
    if constexpr (std::is_same_v<T, bool>)
        value = v != 0;
    else if constexpr (std::is_integral_v<T>)
        value = T(std::llround(v));
    else
        value = v;
}

double getWritePolicy(const Problem &p) { return p.options.write_policy == WritePolicy::NextStep ? 0.0 : 1.0; }

void setWritePolicy(Problem &p, double v)
{
    p.options.write_policy = v != 0 ? WritePolicy::AsLateAsPossible : WritePolicy::NextStep;
}

// The transfer model (docs/reference/model.md#transfer-cost) is optional: the
// check box creates it with the core's defaults or drops it (the linear
// model); its fields read as those defaults and are disabled while it is off.
bool hasTransfer(const Problem &p) { return p.hardware.transfer.has_value(); }

double getHasTransfer(const Problem &p) { return hasTransfer(p) ? 1.0 : 0.0; }

void setHasTransfer(Problem &p, double v)
{
    if (v == 0)
        p.hardware.transfer.reset();
    else if (!p.hardware.transfer)
        p.hardware.transfer = Transfer{};
}

template <auto Member> double getTransfer(const Problem &p)
{
    const Transfer t = p.hardware.transfer.value_or(Transfer{});
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(t.*Member)>, Layout>)
        return t.*Member == Layout::Nhwc ? 1.0 : 0.0;
    else
        return double(t.*Member);
}

template <auto Member> void setTransfer(Problem &p, double v)
{
    if (!p.hardware.transfer)
        return; // the editors are disabled without a transfer model
    auto &value = (*p.hardware.transfer).*Member;
    using T = std::remove_cvref_t<decltype(value)>;
    if constexpr (std::is_same_v<T, Layout>)
        value = v != 0 ? Layout::Nhwc : Layout::Nchw;
    else if constexpr (std::is_integral_v<T>)
        value = T(std::llround(v));
    else
        value = v;
}

} // namespace

std::span<const ProblemEditor::FieldSpec> ProblemEditor::fieldTable()
{
    constexpr auto L = &Problem::layer;
    constexpr auto H = &Problem::hardware;
    constexpr auto O = &Problem::options;
    constexpr double kDim = kMaxDimension;
    static const FieldSpec table[] = {
        // ---- layer ----------------------------------------------------------
        {.section = Section::Layer,
            .rowLabel = QT_TR_NOOP("Input c_in × h_in × w_in"),
            .rowTip = QT_TR_NOOP("The input tensor: channels × height × width, before padding."),
            .key = "layer.c_in",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("c_in: input channels. A pixel carries c_in elements (one per channel); on a grouped layer they "
                              "are held as g slices of c_in/g."),
            .get = getValue<L, &Layer::c_in>,
            .set = setValue<L, &Layer::c_in>},
        {.section = Section::Layer,
            .key = "layer.h_in",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("h_in: input height in pixels, padding not included."),
            .get = getValue<L, &Layer::h_in>,
            .set = setValue<L, &Layer::h_in>},
        {.section = Section::Layer,
            .key = "layer.w_in",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("w_in: input width in pixels, padding not included."),
            .get = getValue<L, &Layer::w_in>,
            .set = setValue<L, &Layer::w_in>},
        {.section = Section::Layer,
            .rowLabel = QT_TR_NOOP("Kernels n × h_k × w_k"),
            .rowTip = QT_TR_NOOP("n kernels (= output channels) of h_k × w_k pixels; each kernel has (c_in/g)·h_k·w_k weights "
                                 "(elements): c_in·h_k·w_k when g = 1."),
            .key = "layer.n",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("n: number of kernels = output channels. Each output position has n output elements."),
            .get = getValue<L, &Layer::n>,
            .set = setValue<L, &Layer::n>},
        {.section = Section::Layer,
            .key = "layer.h_k",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("h_k: kernel height in pixels; at most the padded input height."),
            .get = getValue<L, &Layer::h_k>,
            .set = setValue<L, &Layer::h_k>},
        {.section = Section::Layer,
            .key = "layer.w_k",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("w_k: kernel width in pixels; at most the padded input width."),
            .get = getValue<L, &Layer::w_k>,
            .set = setValue<L, &Layer::w_k>},
        {.section = Section::Layer,
            .rowLabel = QT_TR_NOOP("Stride stride_h × stride_w"),
            .rowTip = QT_TR_NOOP("Distance in pixels between neighbouring patches."),
            .key = "layer.stride_h",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("stride_h: vertical distance in pixels between patches of one column."),
            .get = getValue<L, &Layer::stride_h>,
            .set = setValue<L, &Layer::stride_h>},
        {.section = Section::Layer,
            .key = "layer.stride_w",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("stride_w: horizontal distance in pixels between patches of one row."),
            .get = getValue<L, &Layer::stride_w>,
            .set = setValue<L, &Layer::stride_w>},
        {.section = Section::Layer,
            .rowLabel = QT_TR_NOOP("Padding pad_top, pad_bottom"),
            .rowTip = QT_TR_NOOP("Padding pixels are zeros, loaded from DRAM or synthesised on chip (see Options)."),
            .key = "layer.pad_top",
            .kind = EditorKind::Int,
            .min = 0,
            .max = kDim,
            .tip = QT_TR_NOOP("pad_top: rows of zero pixels added above the input."),
            .get = getValue<L, &Layer::pad_top>,
            .set = setValue<L, &Layer::pad_top>},
        {.section = Section::Layer,
            .key = "layer.pad_bottom",
            .kind = EditorKind::Int,
            .min = 0,
            .max = kDim,
            .tip = QT_TR_NOOP("pad_bottom: rows of zero pixels added below the input."),
            .get = getValue<L, &Layer::pad_bottom>,
            .set = setValue<L, &Layer::pad_bottom>},
        {.section = Section::Layer,
            .rowLabel = QT_TR_NOOP("Padding pad_left, pad_right"),
            .rowTip = QT_TR_NOOP("Padding pixels are zeros, loaded from DRAM or synthesised on chip (see Options)."),
            .key = "layer.pad_left",
            .kind = EditorKind::Int,
            .min = 0,
            .max = kDim,
            .tip = QT_TR_NOOP("pad_left: columns of zero pixels added left of the input."),
            .get = getValue<L, &Layer::pad_left>,
            .set = setValue<L, &Layer::pad_left>},
        {.section = Section::Layer,
            .key = "layer.pad_right",
            .kind = EditorKind::Int,
            .min = 0,
            .max = kDim,
            .tip = QT_TR_NOOP("pad_right: columns of zero pixels added right of the input."),
            .get = getValue<L, &Layer::pad_right>,
            .set = setValue<L, &Layer::pad_right>},
        // Grouped and dilated layers: docs/reference/model.md#grouped-and-dilated.
        {.section = Section::Layer,
            .rowLabel = QT_TR_NOOP("Channel groups g"),
            .key = "layer.group",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("group: g, the channel groups. Channels and kernels are cut into g groups; a kernel reads only "
                              "the c_in/g channels of its group, and a pixel is held as g slices of c_in/g elements. g must "
                              "divide c_in and n; 1 is an ordinary convolution, g = c_in a depthwise one."),
            .get = getValue<L, &Layer::group>,
            .set = setValue<L, &Layer::group>},
        {.section = Section::Layer,
            .rowLabel = QT_TR_NOOP("Dilation dilation_h × dilation_w"),
            .rowTip = QT_TR_NOOP("Spacing of a kernel's taps: a patch reads every d-th pixel and spans d·(k − 1) + 1."),
            .key = "layer.dilation_h",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("dilation_h: rows from one kernel tap to the next (1: adjacent). A patch spans "
                              "dilation_h·(h_k − 1) + 1 rows, at most the padded input height."),
            .get = getValue<L, &Layer::dilation_h>,
            .set = setValue<L, &Layer::dilation_h>},
        {.section = Section::Layer,
            .key = "layer.dilation_w",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip = QT_TR_NOOP("dilation_w: columns from one kernel tap to the next (1: adjacent). A patch spans "
                              "dilation_w·(w_k − 1) + 1 columns, at most the padded input width."),
            .get = getValue<L, &Layer::dilation_w>,
            .set = setValue<L, &Layer::dilation_w>},

        // ---- hardware -------------------------------------------------------
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("mem_size (elements)"),
            .key = "hardware.mem_size",
            .kind = EditorKind::Int64,
            .min = 1,
            .max = kMaxInt64Edit,
            .tip
            = QT_TR_NOOP("mem_size: on-chip memory in elements. Input elements, kernel weights and output values count one each; "
                         "the footprint must stay within it after every action."),
            .get = getValue<H, &Hardware::mem_size>,
            .set = setValue<H, &Hardware::mem_size>},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("nbop_pe (MACs per compute)"),
            .key = "hardware.nbop_pe",
            .kind = EditorKind::Int64,
            .min = 1,
            .max = kMaxInt64Edit,
            .tip = QT_TR_NOOP("nbop_pe: multiply-accumulates one compute can do. A step computing |Out| outputs needs "
                              "|Out|·(c_in/g)·h_k·w_k ≤ nbop_pe; nb_patches_max = ⌊nbop_pe / ((c_in/g)·h_k·w_k·n)⌋."),
            .get = getValue<H, &Hardware::nbop_pe>,
            .set = setValue<H, &Hardware::nbop_pe>},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("t_l (cycles per element loaded)"),
            .key = "hardware.t_l",
            .kind = EditorKind::Real,
            .min = 0,
            .max = 1e12,
            .tip = QT_TR_NOOP("t_l: cycles to load one element (input element or kernel weight) from DRAM."),
            .get = getValue<H, &Hardware::t_l>,
            .set = setValue<H, &Hardware::t_l>},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("t_w (cycles per element written)"),
            .key = "hardware.t_w",
            .kind = EditorKind::Real,
            .min = 0,
            .max = 1e12,
            .tip = QT_TR_NOOP("t_w: cycles to write one output element back to DRAM."),
            .get = getValue<H, &Hardware::t_w>,
            .set = setValue<H, &Hardware::t_w>},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("t_acc (cycles per compute)"),
            .key = "hardware.t_acc",
            .kind = EditorKind::Real,
            .min = 0,
            .max = 1e12,
            .tip = QT_TR_NOOP("t_acc: cycles of one compute, paid once by every step that computes, whatever its size."),
            .get = getValue<H, &Hardware::t_acc>,
            .set = setValue<H, &Hardware::t_acc>},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("dram_size (elements)"),
            .key = "hardware.dram_size",
            .kind = EditorKind::Int64,
            .min = 1,
            .max = kMaxInt64Edit,
            .tip = QT_TR_NOOP("dram_size: DRAM capacity in elements; the input (with padding when it lives in DRAM), the kernels "
                              "and the output must fit."),
            .get = getValue<H, &Hardware::dram_size>,
            .set = setValue<H, &Hardware::dram_size>},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("max_loads_per_element"),
            .key = "hardware.max_loads_per_element",
            .kind = EditorKind::Int,
            .min = 1,
            .max = kDim,
            .tip
            = QT_TR_NOOP("max_loads_per_element: the paper's reload assumption. A strategy that loads a pixel or kernel more "
                         "often still runs correctly, but breaks the reload assumption (the heuristics routinely do)."),
            .get = getValue<H, &Hardware::max_loads_per_element>,
            .set = setValue<H, &Hardware::max_loads_per_element>},
        // The transfer model: docs/reference/model.md#transfer-cost.
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("Transfer model"),
            .key = "hardware.transfer",
            .kind = EditorKind::Check,
            .text = QT_TR_NOOP("DMA runs and bursts"),
            .tip = QT_TR_NOOP("Unchecked: the linear model, every element costs t_l or t_w. Checked: a load or write costs, "
                              "for each run of consecutive DRAM addresses (one DMA descriptor), t_setup plus its aligned bursts "
                              "of burst elements."),
            .get = getHasTransfer,
            .set = setHasTransfer},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("layout (in DRAM)"),
            .key = "hardware.transfer.layout",
            .kind = EditorKind::Layout,
            .tip = QT_TR_NOOP("layout: how the input and output lie in DRAM, NCHW (one plane per channel) or NHWC (a pixel's "
                              "channels side by side); it decides which elements are consecutive, hence how many runs an "
                              "action needs."),
            .get = getTransfer<&Transfer::layout>,
            .set = setTransfer<&Transfer::layout>,
            .enabled = hasTransfer},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("burst (elements)"),
            .key = "hardware.transfer.burst",
            .kind = EditorKind::Int,
            .min = 1,
            .max = 1 << 30,
            .tip = QT_TR_NOOP("burst: DMA burst size in elements; a run pays for every aligned block of burst elements it "
                              "touches, so a short run still costs a whole burst (1: only the elements moved)."),
            .get = getTransfer<&Transfer::burst>,
            .set = setTransfer<&Transfer::burst>,
            .enabled = hasTransfer},
        {.section = Section::Hardware,
            .rowLabel = QT_TR_NOOP("t_setup (cycles per run)"),
            .key = "hardware.transfer.t_setup",
            .kind = EditorKind::Real,
            .min = 0,
            .max = 1e15,
            .tip = QT_TR_NOOP("t_setup: cycles to set up one DMA descriptor, paid once by every run of consecutive DRAM "
                              "addresses a load or write moves."),
            .get = getTransfer<&Transfer::t_setup>,
            .set = setTransfer<&Transfer::t_setup>,
            .enabled = hasTransfer},

        // ---- options --------------------------------------------------------
        {.section = Section::Options,
            .rowLabel = QT_TR_NOOP("kernels_preloaded"),
            .key = "options.kernels_preloaded",
            .kind = EditorKind::Check,
            .text = QT_TR_NOOP("kernel loads cost nothing"),
            .tip = QT_TR_NOOP("Kernel loads cost nothing (the paper's ILP assumption); the kernels still occupy on-chip memory."),
            .get = getValue<O, &Options::kernels_preloaded>,
            .set = setValue<O, &Options::kernels_preloaded>},
        {.section = Section::Options,
            .rowLabel = QT_TR_NOOP("write_policy"),
            .key = "options.write_policy",
            .kind = EditorKind::Policy,
            .tip
            = QT_TR_NOOP("next-step: the outputs of group i are written at step i+1 (the paper's Example).\n"
                         "as-late-as-possible: outputs stay on chip; before each load the oldest are written, just enough for "
                         "the step to fit mem_size."),
            .get = getWritePolicy,
            .set = setWritePolicy},
        {.section = Section::Options,
            .rowLabel = QT_TR_NOOP("padding_in_dram"),
            .key = "options.padding_in_dram",
            .kind = EditorKind::Check,
            .text = QT_TR_NOOP("padding is loaded from DRAM"),
            .tip = QT_TR_NOOP("Checked: padding pixels are zeros stored in DRAM and loaded like any pixel (the paper).\n"
                              "Unchecked: they are synthesised on chip, never loaded and never counted."),
            .get = getValue<O, &Options::padding_in_dram>,
            .set = setValue<O, &Options::padding_in_dram>},
    };
    return table;
}

QString ProblemEditor::sectionTitle(Section section)
{
    switch (section) {
    case Section::Layer:
        return tr("Layer");
    case Section::Hardware:
        return tr("Hardware");
    case Section::Options:
        return tr("Options");
    }
    return {};
}

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

    for (Section section : {Section::Layer, Section::Hardware, Section::Options})
        addSection(column, section);
    addDerivedFigures(column);
    column->addStretch(1);

    connect(m_document, &ProjectDocument::problemChanged, this, &ProblemEditor::refresh);
    refresh();
}

/// A group box with the rows of the fields of `section`, in table order.
void ProblemEditor::addSection(QVBoxLayout *column, Section section)
{
    auto *box = new QGroupBox(sectionTitle(section));
    auto *form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    const std::span<const FieldSpec> table = fieldTable();
    for (std::size_t first = 0; first < table.size();) {
        std::size_t end = first + 1; // a row: a field with a label and the fields without one after it
        while (end < table.size() && !table[end].rowLabel)
            ++end;
        if (table[first].section == section)
            addRow(form, table.subspan(first, end - first));
        first = end;
    }
    column->addWidget(box);
}

void ProblemEditor::addDerivedFigures(QVBoxLayout *column)
{
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
        tr("h_out = (h_in + pad_top + pad_bottom − dilation_h·(h_k − 1) − 1) / stride_h + 1, likewise w_out; n·h_out·w_out "
           "output elements."));
    m_patches = derived(tr("Patches"),
        tr("One patch per output position (h_out × w_out), ids row-major; n·(c_in/g)·h_k·w_k MACs each. A dilated patch "
           "reads h_k × w_k pixels spread over its span."));
    m_nbPatchesMax = derived(tr("nb_patches_max"),
        tr("⌊nbop_pe / ((c_in/g)·h_k·w_k·n)⌋: the most patches one step can compute (the default group size G)."));
    m_kRange = derived(tr("Steps K_min … K_max"),
        tr("K_min = ⌈patches / nb_patches_max⌉ steps at least; K_max = patches (one patch per step)."));
    m_layerSize = derived(
        tr("Whole layer"), tr("Input (with padding) + kernels + output, in elements, against the on-chip memory mem_size."));
    column->addWidget(derivedBox);
}

void ProblemEditor::addRow(QFormLayout *form, std::span<const FieldSpec> fields)
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
        const FieldSpec &spec = fields[i];
        const QString key = QLatin1String(spec.key);
        Field field{&spec, key, key.section(QLatin1Char('.'), 1), tr(spec.tip), nullptr, rowIndex, {}, {}};
        if (i > 0) {
            // "×" between the dimensions of one tensor, "," between unrelated paddings.
            const bool padding = field.name.startsWith(QLatin1String("pad_"));
            auto *separator = new QLabel(padding ? QStringLiteral(",") : QStringLiteral("×"));
            editors->addWidget(separator);
        }
        m_fields.push_back(field);
        Field &f = m_fields.back();
        editors->addWidget(makeEditor(f), 1);
        tips << f.tip;
    }

    auto *message = new QLabel;
    message->setWordWrap(true);
    message->setVisible(false);
    message->setTextFormat(Qt::RichText);
    column->addWidget(message);
    m_rows.push_back({message});

    auto *labelWidget = new QLabel(tr(fields.front().rowLabel));
    const char *labelTip = fields.front().rowTip;
    labelWidget->setToolTip(labelTip ? tr(labelTip) : tips.join(QLatin1Char('\n')));
    labelWidget->setBuddy(m_fields[first].editor);
    form->addRow(labelWidget, container);
}

bool ProblemEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress && static_cast<const QKeyEvent *>(event)->key() == Qt::Key_Minus)
        for (const Field &f : m_fields)
            if (f.editor == watched && f.spec->min >= 0) {
                m_lastRefusal
                    = tr("%1 cannot be negative (%2 to %3): the minus sign was not taken.")
                          .arg(f.name, QLocale().toString(qint64(f.spec->min)), QLocale().toString(qint64(f.spec->max)));
                QToolTip::showText(f.editor->mapToGlobal(QPoint(0, f.editor->height())), m_lastRefusal, f.editor);
                QApplication::beep();
                return true;
            }
    return QWidget::eventFilter(watched, event);
}

QWidget *ProblemEditor::makeEditor(Field &field)
{
    const int index = int(m_fields.size()) - 1;
    switch (field.spec->kind) {
    case EditorKind::Int: {
        auto *spin = new QSpinBox;
        spin->setRange(int(field.spec->min), int(field.spec->max));
        spin->setGroupSeparatorShown(true);
        spin->setAccelerated(true);
        // The widest value (1,048,576) would make three of them too wide for a
        // dock at 1280×720: they grow with the dock instead.
        spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("00,000")) + 24);
        connect(spin, &QSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        field.editor = spin;
        break;
    }
    case EditorKind::Int64: {
        auto *spin = new QDoubleSpinBox;
        spin->setDecimals(0);
        spin->setRange(field.spec->min, field.spec->max);
        spin->setGroupSeparatorShown(true);
        spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        spin->setAccelerated(true);
        spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("000,000,000")) + 24);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        field.editor = spin;
        break;
    }
    case EditorKind::Real: {
        auto *spin = new CompactDoubleSpinBox;
        spin->setDecimals(6);
        spin->setRange(field.spec->min, field.spec->max);
        spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index] { onEdited(index); });
        field.editor = spin;
        break;
    }
    case EditorKind::Check: {
        auto *check = new QCheckBox(tr(field.spec->text));
        connect(check, &QCheckBox::toggled, this, [this, index] { onEdited(index); });
        field.editor = check;
        break;
    }
    case EditorKind::Policy:
    case EditorKind::Layout: {
        auto *combo = new QComboBox;
        if (field.spec->kind == EditorKind::Policy) {
            combo->addItem(tr("next-step (paper)"));
            combo->addItem(tr("as-late-as-possible"));
        } else {
            combo->addItem(tr("NCHW"));
            combo->addItem(tr("NHWC"));
        }
        connect(combo, &QComboBox::currentIndexChanged, this, [this, index] { onEdited(index); });
        field.editor = combo;
        break;
    }
    }
    field.editor->setToolTip(field.tip);
    field.editor->setObjectName(field.key);
    if (field.spec->kind == EditorKind::Int || field.spec->kind == EditorKind::Int64)
        field.editor->installEventFilter(this);
    return field.editor;
}

double ProblemEditor::editorValue(const Field &field) const
{
    switch (field.spec->kind) {
    case EditorKind::Int:
        return static_cast<QSpinBox *>(field.editor)->value();
    case EditorKind::Int64:
    case EditorKind::Real:
        return static_cast<QDoubleSpinBox *>(field.editor)->value();
    case EditorKind::Check:
        return static_cast<QCheckBox *>(field.editor)->isChecked() ? 1 : 0;
    case EditorKind::Policy:
    case EditorKind::Layout:
        return static_cast<QComboBox *>(field.editor)->currentIndex();
    }
    return 0;
}

void ProblemEditor::setEditorValue(Field &field, double value)
{
    if (editorValue(field) == value)
        return; // leaves the text being typed alone
    const QSignalBlocker blocker(field.editor);
    switch (field.spec->kind) {
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
    case EditorKind::Layout:
        static_cast<QComboBox *>(field.editor)->setCurrentIndex(int(value));
        break;
    }
}

void ProblemEditor::onEdited(int fieldIndex)
{
    const Field &f = m_fields[std::size_t(fieldIndex)];
    Problem after = m_document->problem();
    f.spec->set(after, editorValue(f));
    if (after == m_document->problem())
        return;
    // The command's redo() sets the problem, whose signal refreshes the form.
    m_document->undoStack()->push(new EditProblemCommand(m_document, after, f.key));
}

void ProblemEditor::refresh()
{
    const Problem &p = m_document->problem();
    for (Field &f : m_fields) {
        setEditorValue(f, f.spec->get(p));
        if (f.spec->enabled)
            f.editor->setEnabled(f.spec->enabled(p));
    }
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
            place(tr("nbop_pe: one patch needs (c_in/g)·h_k·w_k·n = %1 MACs, more than nbop_pe, so nb_patches_max is 0: "
                     "no S1 strategy can compute")
                      .arg(number(perPatch)),
                false);
        // An S1 step holds all kernels, hence every slice of its patch's
        // h_k·w_k pixels: c_in elements each, whatever g.
        const std::int64_t patchInput = std::int64_t(l.c_in) * l.h_k * l.w_k;
        const std::int64_t minimum = patchInput + l.kernelElements() * l.n + l.n;
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
    QString patches = tr("%1 (%2 × %3), %4 MACs each")
                          .arg(number(l.patchCount()), number(l.hOut()), number(l.wOut()), number(l.kernelElements() * l.n));
    if (l.isDilated())
        patches += tr(", each spanning %1 × %2 pixels").arg(number(l.spanH()), number(l.spanW()));
    if (l.isGrouped())
        patches += tr("; %1 channel groups of %2 channels and %3 kernels")
                       .arg(number(l.group), number(l.sliceChannels()), number(l.n / l.group));
    m_patches->setText(patches);
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
