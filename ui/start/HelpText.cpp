// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "start/HelpText.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>

namespace convoffload::ui {

namespace {

QString withoutMnemonic(QString text)
{
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

void listMenu(const QMenu *menu, const QString &path, QString &rows)
{
    for (const QAction *a : menu->actions()) {
        if (a->menu()) {
            listMenu(a->menu(), path + QStringLiteral(" › ") + withoutMnemonic(a->text()), rows);
            continue;
        }
        if (a->isSeparator() || a->shortcut().isEmpty())
            continue;
        QStringList keys; // every key of the action (Redo: Ctrl+Shift+Z and Ctrl+Y)
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2 › %3</td></tr>")
                    .arg(keys.join(QStringLiteral(", ")).toHtmlEscaped(), path.toHtmlEscaped(),
                        withoutMnemonic(a->text()).toHtmlEscaped());
    }
}

} // namespace

QString paperCitation()
{
    return QStringLiteral("B. Husson, M. Belcaid, T. Carle and C. Pagetti, “Convolutions Predictable Offloading to an "
                          "Accelerator: Formalization and Optimization”, ERTS 2026");
}

QString aboutHtml(const QString &version)
{
    return QStringLiteral("<p><b>ConvOffload</b> %1</p>"
                          "<p>Simulate, compare, optimise and export strategies for offloading a convolution layer to an "
                          "accelerator whose on-chip memory is too small for it.</p>"
                          "<p>The model, its six actions per step and the ILP are those of the paper:<br><i>%2</i>.</p>")
        .arg(version.toHtmlEscaped(), paperCitation().toHtmlEscaped());
}

QString guideHtml()
{
    return QStringLiteral(
        "<h3>The model</h3>"
        "<p>A convolution layer (input c_in×h_in×w_in, n kernels of h_k×w_k) runs on an accelerator whose on-chip memory "
        "holds only <i>mem_size</i> elements. In the paper's model every kernel stays on chip, and the output is computed one "
        "<i>group</i> of "
        "patches (output positions) at a time. A <i>strategy</i> is the order of these groups: S1-baseline takes one "
        "patch per step, Row-by-Row and ZigZag take G patches per step in row or snake order, and hand-made or optimised "
        "strategies give the groups explicitly.</p>"
        "<p>Each compute step does six actions: a1 free the input pixels no longer needed, a2 free kernels, a3 write "
        "back finished outputs, a4 load the new input pixels, a5 load kernels, a6 compute. A step costs its loads and "
        "writes (t_l, t_w per element) plus one compute (t_acc); a final <i>drain</i> writes what is left. A strategy is "
        "valid when the footprint never exceeds mem_size and no step computes more than nbop_pe MACs; otherwise it is "
        "<i>invalid</i>. The paper also <i>assumes</i> each pixel and kernel is loaded at most max_loads_per_element "
        "times: a valid strategy either meets that assumption or <i>runs correctly, breaks the reload assumption</i> on "
        "so many pixels (the heuristics often do). Fewer reloads of shared pixels mean a shorter total duration.</p>"
        "<p>When the kernels do not fit beside one patch (most real layers), no such strategy can run: the strategies "
        "<i>stream kernels</i>. A kernel-blocked strategy keeps a block of B kernels on chip and computes G patches "
        "with them per step, either all patches per block (kernels outer, weight stationary) or all blocks per group "
        "(patches outer, input stationary); a <i>steps</i> strategy lists each step's patches and kernels. The strip "
        "under the input grid shows the kernels (loaded, kept, freed; several per cell on large layers), each output "
        "cell fills as its N outputs are computed, and the Groups dock lists the steps: drag kernels between steps "
        "(Alt+Up, Alt+Down, Ctrl+K). Optimise › Optimise Strategy… finds the best block and grouping.</p>"
        "<h3>Colours</h3>"
        "<p>Input grid: <b>orange</b> loaded now, <b>sky blue</b> kept on chip, <b>purple</b> freed now, grey not on "
        "chip; the current group's patches are outlined. Output grid: <b>green</b> computed now, <b>vermillion</b> "
        "written now, sky blue on chip, dark grey done, light grey pending; a vermillion hatched frame marks a patch "
        "that breaks a rule, a black corner one computed at a step that breaks the reload assumption. Editing a "
        "generated strategy (ZigZag…) makes an edited copy; the original stays to compare with. Charts use the same colours "
        "(input orange, kernels blue, output green, capacity "
        "vermillion). The palette (Okabe–Ito) reads for colour-blind eyes.</p>"
        "<h3>What to do first</h3>"
        "<ol><li>Open a sample from the start page (File › Open Recent, or File › New for your own layer).</li>"
        "<li>Pick a strategy on the left and step through it with → and ← (Space plays); watch the footprint chart "
        "and the grids.</li>"
        "<li>Compare the strategies in the Charts dock (Compare, Sweep), then try Optimise › Optimise Strategy… or "
        "duplicate a strategy (Ctrl+D) and drag patches between its groups.</li>"
        "<li>Export figures for a report with File › Export Figure… (Ctrl+E).</li></ol>");
}

QString shortcutsHtml(const QMenuBar *menuBar)
{
    QString rows;
    for (const QAction *a : menuBar->actions())
        if (a->menu())
            listMenu(a->menu(), withoutMnemonic(a->text()), rows);
    const char *const gridKeys[][2] = {
        {"1 – 9", "Output grid: move the selected patches to that group"},
        {"N", "Output grid: a new group of the selected patches"},
        {"Esc", "Clear the selection; stop a running simulation"},
        {"Wheel", "Zoom the grid about the mouse"},
        {"Middle drag, Space+drag", "Pan the grid"},
        {"Double-click", "Fit the grid to its view"},
    };
    for (const auto &k : gridKeys)
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(QString::fromUtf8(k[0]), QString::fromUtf8(k[1])); // "1 – 9" has an en dash
    return QStringLiteral("<table cellspacing=\"4\">%1</table>").arg(rows);
}

} // namespace convoffload::ui
