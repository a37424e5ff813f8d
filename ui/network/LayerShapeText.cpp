// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/LayerShapeText.h"

namespace convoffload::ui {

QString layerShapeText(const Layer &l)
{
    // Group and dilation only when not 1, so a dense layer's text is as before.
    QString variant;
    if (l.group != 1)
        variant += QStringLiteral(", g=%1").arg(l.group);
    if (l.isDilated())
        variant += QStringLiteral(", d=%1×%2").arg(l.dilation_h).arg(l.dilation_w);
    return QStringLiteral("%1×%2×%3 · %4×%5×%6, stride %7×%8, pads %9 %10 %11 %12")
               .arg(l.c_in)
               .arg(l.h_in)
               .arg(l.w_in)
               .arg(l.n)
               .arg(l.h_k)
               .arg(l.w_k)
               .arg(l.stride_h)
               .arg(l.stride_w)
               .arg(l.pad_top)
               .arg(l.pad_bottom)
               .arg(l.pad_left)
               .arg(l.pad_right)
        + variant;
}

} // namespace convoffload::ui
