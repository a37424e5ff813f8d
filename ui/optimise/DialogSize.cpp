// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "optimise/DialogSize.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

namespace {
// Room for a title bar and borders, which the available geometry does not count.
constexpr int kFrameWidth = 16, kFrameHeight = 40;
} // namespace

QSize dialogSizeFor(const QRect &available, const QSize &least, double widthShare, double heightShare)
{
    const int width = std::max(least.width(), int(std::lround(available.width() * widthShare)));
    const int height = std::max(least.height(), int(std::lround(available.height() * heightShare)));
    return {std::min(width, available.width() - kFrameWidth), std::min(height, available.height() - kFrameHeight)};
}

void fitDialogToScreen(QWidget *dialog, const QSize &least, double widthShare, double heightShare)
{
    const QWidget *parent = dialog->parentWidget();
    const QScreen *screen = parent && parent->screen() ? parent->screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
    dialog->resize(dialogSizeFor(available, least.expandedTo(dialog->sizeHint()), widthShare, heightShare));
}

} // namespace convoffload::ui
