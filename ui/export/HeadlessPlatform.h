// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Both executables draw figures without a display: they pick Qt's offscreen
// platform and give Qt the private runtime folder it otherwise warns about.

namespace convoffload::ui {

/// True when neither X11, Wayland nor an explicit QT_QPA_PLATFORM is set.
bool noDisplay();
/// Call before constructing the QApplication.
void useOffscreenPlatform();

} // namespace convoffload::ui
