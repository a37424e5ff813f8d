// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/InputShapeText.h"

#include <QCoreApplication>
#include <QStringList>

#include <climits>

namespace convoffload::ui {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("InputShapeText", text); }

QString symbolText(const GraphInputDim &d) { return d.symbol.empty() ? QStringLiteral("?") : QString::fromStdString(d.symbol); }

} // namespace

QString inputShapeText(const GraphInput &input)
{
    QStringList parts;
    for (std::size_t i = 0; i < input.dims.size(); ++i) {
        const GraphInputDim &d = input.dims[i];
        parts << (d.size ? QString::number(*d.size) : i == 0 ? QStringLiteral("1") : symbolText(d));
    }
    return parts.join(QStringLiteral(", "));
}

InputShapeParse parseInputShape(const QString &text, const GraphInput &input)
{
    const QStringList parts = text.split(QLatin1Char(','));
    std::vector<std::int64_t> dims;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString part = parts[i].trimmed();
        if (part.isEmpty())
            return {{}, tr("dimension %1 is empty: write the sizes separated by commas, e.g. 1, 3, 640, 640").arg(i)};
        bool ok = false;
        const qlonglong size = part.toLongLong(&ok);
        if (!ok) {
            const bool symbol = std::size_t(i) < input.dims.size() && part == symbolText(input.dims[std::size_t(i)]);
            return {{},
                symbol ? tr("dimension %1 (%2) has no size yet: give every dimension a size").arg(i).arg(part)
                       : tr("'%1' is not a size: write whole numbers separated by commas").arg(part)};
        }
        // The layer's sizes are int: larger ones cannot be imported (the CLI refuses them too).
        if (size > INT_MAX)
            return {{}, tr("%1 is too large a size").arg(part)};
        dims.push_back(size);
    }
    return {dims, {}};
}

} // namespace convoffload::ui
