// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A layer's shape as the Network dock and the import preview write it:
// "6×14×14 · 16×5×5, stride 1×1, pads 0 0 0 0" (C_in×H_in×W_in · N×H_K×W_K,
// pads top bottom left right), then ", g=32" and ", d=2×2" for a group or
// dilation other than 1.
#include "convoffload/model/Layer.h"

#include <QString>

namespace convoffload::ui {

QString layerShapeText(const Layer &layer);

} // namespace convoffload::ui
