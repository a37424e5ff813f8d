// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One colour-blind-safe palette (Okabe & Ito) for every coloured view, legend
// and export, so a state has the same colour everywhere.

#include "convoffload/simulate/StepCursor.h"

#include <QColor>
#include <QString>

namespace convoffload::ui {

struct Palette {
    static QColor pixel(PixelState s)
    {
        switch (s) {
        case PixelState::Off:
            return QColor(0xEE, 0xEE, 0xEE);
        case PixelState::Kept:
            return QColor(0x56, 0xB4, 0xE9); // sky blue
        case PixelState::Loaded:
            return QColor(0xE6, 0x9F, 0x00); // orange
        case PixelState::Freed:
            return QColor(0xCC, 0x79, 0xA7); // reddish purple
        }
        return Qt::black;
    }
    static QString pixelLabel(PixelState s)
    {
        switch (s) {
        case PixelState::Off:
            return QStringLiteral("not on chip");
        case PixelState::Kept:
            return QStringLiteral("kept on chip");
        case PixelState::Loaded:
            return QStringLiteral("loaded now");
        case PixelState::Freed:
            return QStringLiteral("freed now");
        }
        return {};
    }
    static QColor output(OutputState s)
    {
        switch (s) {
        case OutputState::Pending:
            return QColor(0xEE, 0xEE, 0xEE);
        case OutputState::OnChip:
            return QColor(0x56, 0xB4, 0xE9); // sky blue: held on chip
        case OutputState::Computed:
            return QColor(0x00, 0x9E, 0x73); // bluish green
        case OutputState::Written:
            return QColor(0xD5, 0x5E, 0x00); // vermillion
        case OutputState::Done:
            return QColor(0x99, 0x99, 0x99);
        }
        return Qt::black;
    }
    static QString outputLabel(OutputState s)
    {
        switch (s) {
        case OutputState::Pending:
            return QStringLiteral("pending");
        case OutputState::OnChip:
            return QStringLiteral("on chip, not written");
        case OutputState::Computed:
            return QStringLiteral("computed now");
        case OutputState::Written:
            return QStringLiteral("written now");
        case OutputState::Done:
            return QStringLiteral("done (in DRAM)");
        }
        return {};
    }
    // Footprint and duration series.
    static QColor input() { return QColor(0xE6, 0x9F, 0x00); }
    static QColor kernels() { return QColor(0x00, 0x72, 0xB2); }
    static QColor kernelLoads() { return QColor(0x56, 0xB4, 0xE9); } // sky blue: the Compare tab's kernel panel
    static QColor outputs() { return QColor(0x00, 0x9E, 0x73); }
    static QColor capacity() { return QColor(0xD5, 0x5E, 0x00); }
    static QColor load() { return QColor(0xE6, 0x9F, 0x00); }
    static QColor write() { return QColor(0xCC, 0x79, 0xA7); }
    static QColor compute() { return QColor(0x00, 0x9E, 0x73); }
    /// DMA set-up time of the transfer model: a neutral grey, apart in hue
    /// from the data it moves (load, write) and the compute.
    static QColor setup() { return QColor(0x99, 0x99, 0x99); }
    static QColor cursor() { return QColor(0x00, 0x00, 0x00); }
    /// DMA runs of a step's input load (dashed, inside the loaded cells):
    /// blue and a dark vermillion in turn, so neighbouring runs differ; both
    /// dark against the orange of a loaded pixel and apart from the
    /// group's black outline.
    static QColor dmaRun(std::size_t index) { return index % 2 ? QColor(0x99, 0x33, 0x00) : QColor(0x00, 0x72, 0xB2); }
    // Editing feedback. The receptive-field preview marks the pixels the
    // target group reads already in blue and those a drop adds in yellow
    // (dark vs light: they differ in lightness too), its outline in blue.
    static QColor previewKept() { return QColor(0x00, 0x72, 0xB2); } // blue
    static QColor previewAdded() { return QColor(0xF0, 0xE4, 0x42); } // yellow
    static QColor previewOutline() { return QColor(0x00, 0x72, 0xB2); }
    /// Patches where a rule breaks: a vermillion frame with a hatch, so it
    /// differs from the "written now" fill by its pattern as well.
    static QColor flag() { return QColor(0xD5, 0x5E, 0x00); }
    /// Selected patches: a dark blue hatch and ring, distinct from every output
    /// state colour (a plain wash would read as one of the state swatches).
    static QColor selection() { return QColor(0x1F, 0x3F, 0xBF); }
    static QString previewKeptLabel() { return QStringLiteral("drop preview: read by the group already"); }
    static QString previewAddedLabel() { return QStringLiteral("added by the drop"); }
    static QString flagLabel() { return QStringLiteral("breaks a rule"); }
    /// Patches computed at a step that loads one of their pixels (or
    /// kernels) beyond the reload bound: a black corner with a white edge,
    /// which reads on every state colour and differs from the rule flag.
    static QColor assumption() { return QColor(0x00, 0x00, 0x00); }
    static QString assumptionLabel() { return QStringLiteral("breaks the reload assumption"); }
    /// Reload heat map: white (loaded once or never) to deep vermillion.
    static QColor heat(double t)
    {
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        return QColor::fromRgbF(1.0 - 0.16 * t, 1.0 - 0.63 * t, 1.0 - t);
    }
};

} // namespace convoffload::ui
