// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Export presets for figures that go into a report: a printed size and a font
// size in points, so that text in the figure is 7–10 pt once printed at that
// size. Figures are laid out at the printed size in CSS pixels (96 per inch,
// the resolution of the SVG and PDF writers), so a point is a point on paper;
// PNGs are drawn at the preset's dpi (scaled up, same layout).

#include <QFont>
#include <QList>
#include <QSize>
#include <QString>

#include <optional>

namespace convoffload::ui {

struct ExportPreset {
    QString name; // for --preset: "paper-column", "paper-wide", "slide"
    QString label; // for the export dialog
    double width_mm = 0, height_mm = 0;
    double font_pt = 8;
    double png_dpi = 300;
};

/// The presets, in the order the export dialog lists them.
const QList<ExportPreset> &exportPresets();
std::optional<ExportPreset> exportPresetFromName(const QString &name);
/// "paper-column, paper-wide, slide", for messages.
QString exportPresetNames();

/// The preset's size in CSS pixels (96 per inch).
QSize presetLayoutSize(const ExportPreset &preset);
/// The figure font: the application's family at the preset's size in points.
QFont presetFont(const ExportPreset &preset);
/// PNG pixels per layout pixel (dpi / 96).
double presetPngScale(const ExportPreset &preset);

/// Smallest and largest text size of a figure at its printed size.
inline constexpr double kMinFigureTextPt = 7.0;
inline constexpr double kMaxFigureTextPt = 10.0;

} // namespace convoffload::ui
