// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The main window's size and dock layout: where it opens the first time (the
// preferred size, within the screen's available area), the default dock
// arrangement, and the user's layout kept across runs. The saved state is
// applied once the window has its final size (at the first show): applied
// earlier, QMainWindow fits the docks into the not-yet-resized window and the
// side docks shrink a little at every start.
//
// With no saved state the default dock sizes follow the window's size until
// the user first presses on the window itself (where the dock separators
// are), moves or floats a dock, or a dock split changes while the window
// keeps its size (any other way of resizing a dock: keyboard, accessibility,
// resizeDocks): a window resized after its first show (a window manager
// placing it, -qwindowgeometry applied after the show event) gets the same
// docks as one shown at that size.

#include <QList>
#include <QObject>
#include <QRect>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QMainWindow;
QT_END_NAMESPACE

namespace convoffload::ui {

/// The window's docks, for the default arrangement.
struct MainDocks {
    QDockWidget *strategies = nullptr;
    QDockWidget *problem = nullptr;
    QDockWidget *groups = nullptr;
    QDockWidget *history = nullptr;
    QDockWidget *diagnostics = nullptr;
    QDockWidget *steps = nullptr;
    QDockWidget *charts = nullptr;
    QDockWidget *network = nullptr; // optional: the layers of an imported network
};

/// The rectangle the window opens in when no geometry was saved: `preferred`
/// shrunk to fit `available` (a screen's available geometry), centred in it.
QRect initialWindowRect(const QRect &available, const QSize &preferred);

/// The window's size preferred on a large screen.
inline constexpr QSize kPreferredWindowSize{1400, 900};

class WindowLayout : public QObject {
    Q_OBJECT
public:
    /// Arranges `docks` in `window` (left: strategies above layer / groups /
    /// history; right: charts; under the grids: steps / findings) and watches
    /// the window for its first show.
    WindowLayout(QMainWindow *window, const MainDocks &docks);

    /// Restores the geometry and the dock state saved by save(), or sizes the
    /// window for its screen when nothing is saved. The dock state is applied
    /// at the first show.
    void restore();
    /// Saves the geometry and the dock state (QSettings).
    void save() const;
    /// Forgets the user's layout and lays the window out as on a first run.
    void reset();
    /// The bottom docks (Steps, Findings, Network) `tall`: at about 62 % of
    /// the window's height, or back at their first-run height when false. A
    /// network opened with no layer on screen gets the room the start page
    /// does not need.
    void setBottomTall(bool tall);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void arrange();
    void sizeDocks();
    void queueSizeDocks();
    void applyState();
    /// Fits a window whose restored dock state made it larger than its
    /// screen's available area back into it.
    void fitOnScreen();
    /// Shrinks a window placed by restore() whose frame (title bar) the
    /// window manager put partly off the screen.
    void fitFrameOnScreen();
    /// The sizes a user can change: the left and right columns' widths, the
    /// Strategies dock's height and the bottom row's height (0 where no
    /// docked dock shows).
    QList<int> splits() const;

    QMainWindow *m_window;
    MainDocks m_docks;
    QByteArray m_pendingState;
    bool m_shown = false;
    bool m_followSize = false; // default dock sizes follow the window's size
    bool m_resizeQueued = false;
    bool m_sizing = false; // inside sizeDocks()
    bool m_bottomTall = false; // setBottomTall(true): sizeDocks keeps the bottom docks tall
    QSize m_laidOutFor; // the window's size when sizeDocks() last ran
    QList<int> m_laidOutSplits; // splits() then
    bool m_fitFrame = false; // restore() placed the window; its frame is not fitted yet
    QRect m_placed; // where restore() placed it
};

} // namespace convoffload::ui
