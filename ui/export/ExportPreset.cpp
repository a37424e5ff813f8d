// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "export/ExportPreset.h"

#include <QStringList>

#include <cmath>

namespace convoffload::ui {

namespace {
constexpr double kLayoutDpi = 96.0;
constexpr double kMmPerInch = 25.4;
} // namespace

const QList<ExportPreset> &exportPresets()
{
    // Column and full width of a two-column paper (IEEE/ACM: 8.5 and 17.8 cm),
    // a 16:9 slide figure. Qt sizes fonts in whole pixels of the device (96
    // per inch here): 7 pt = 9.33 px was drawn at 9 px = 6.75 pt in the PNG
    // and the PDF. Every size is a whole number of pixels: 7.5 pt = 10 px,
    // 8.25 pt = 11 px, 9 pt = 12 px.
    static const QList<ExportPreset> presets = {
        {QStringLiteral("paper-column"), QStringLiteral("Paper column (8.5 × 6.5 cm, 7.5 pt)"), 85, 65, 7.5, 300},
        {QStringLiteral("paper-wide"), QStringLiteral("Paper full width (17.8 × 8 cm, 8.25 pt)"), 178, 80, 8.25, 300},
        {QStringLiteral("slide"), QStringLiteral("Slide 16:9 (16 × 9 cm, 9 pt)"), 160, 90, 9, 200},
    };
    return presets;
}

std::optional<ExportPreset> exportPresetFromName(const QString &name)
{
    for (const ExportPreset &p : exportPresets())
        if (p.name == name)
            return p;
    return std::nullopt;
}

QString exportPresetNames()
{
    QStringList names;
    for (const ExportPreset &p : exportPresets())
        names << p.name;
    return names.join(QStringLiteral(", "));
}

QSize presetLayoutSize(const ExportPreset &preset)
{
    return {int(std::lround(preset.width_mm / kMmPerInch * kLayoutDpi)),
        int(std::lround(preset.height_mm / kMmPerInch * kLayoutDpi))};
}

QFont presetFont(const ExportPreset &preset)
{
    QFont font;
    font.setPointSizeF(preset.font_pt);
    return font;
}

double presetPngScale(const ExportPreset &preset) { return preset.png_dpi / kLayoutDpi; }

} // namespace convoffload::ui
