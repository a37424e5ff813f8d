// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A graph input's shape as the Import Network dialog's shape field writes
// and reads it: sizes separated by commas, "1, 3, 640, 640", as
// --input-shape takes them (docs/user/networks.md).
#include "convoffload/onnx/GraphInput.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace convoffload::ui {

/// The field's first text: the model's sizes, a symbolic dimension by its
/// name ("p2o.DynamicDimension.1", "?" when unnamed), and a symbolic
/// dimension 0 as 1, the batch the import takes it as
/// (docs/design/onnx-import.md). Empty when the model gives no shape.
QString inputShapeText(const GraphInput &input);

/// A field's sizes, or why it has none.
struct InputShapeParse {
    std::vector<std::int64_t> dims; // empty when `error` says why
    QString error;
};
/// Reads whole numbers separated by commas; whether each is ≥ 1 and fits
/// the model is checkInputShape's to say, so the words are the CLI's. A
/// dimension still written as the model's symbol (or "?") has no size yet.
InputShapeParse parseInputShape(const QString &text, const GraphInput &input);

} // namespace convoffload::ui
