// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "mainwindow/WindowLayout.h"

#include <QDockWidget>
#include <QEvent>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTimer>
#include <QLayout>

#include <algorithm>

namespace convoffload::ui {

namespace {

const QString kGeometryKey = QStringLiteral("geometry");
const QString kStateKey = QStringLiteral("windowState");
constexpr int kStateVersion = 2; // 2: steps and findings under the grids, charts full height on the right

int clampedShare(int total, double share, int low, int high) { return std::clamp(int(total * share), low, high); }

} // namespace

QRect initialWindowRect(const QRect &available, const QSize &preferred)
{
    const QSize size = preferred.boundedTo(available.size());
    QRect rect(QPoint(0, 0), size);
    rect.moveCenter(available.center());
    return rect;
}

WindowLayout::WindowLayout(QMainWindow *window, const MainDocks &docks)
    : QObject(window)
    , m_window(window)
    , m_docks(docks)
{
    arrange();
    window->installEventFilter(this);
    // A dock the user moves or floats ends the default layout too.
    for (QDockWidget *d : window->findChildren<QDockWidget *>()) {
        connect(d, &QDockWidget::dockLocationChanged, this, [this] { m_followSize = false; });
        connect(d, &QDockWidget::topLevelChanged, this, [this] { m_followSize = false; });
        d->installEventFilter(this); // its resizes: a split the user changed
    }
}

void WindowLayout::arrange()
{
    QMainWindow *w = m_window;
    w->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    w->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    for (QDockWidget *d : {m_docks.strategies, m_docks.problem, m_docks.groups, m_docks.history, m_docks.diagnostics,
             m_docks.steps, m_docks.charts}) {
        d->setFloating(false);
        d->show();
    }
    w->addDockWidget(Qt::LeftDockWidgetArea, m_docks.strategies);
    w->splitDockWidget(m_docks.strategies, m_docks.problem, Qt::Vertical);
    w->tabifyDockWidget(m_docks.problem, m_docks.groups);
    w->tabifyDockWidget(m_docks.groups, m_docks.history);
    w->addDockWidget(Qt::RightDockWidgetArea, m_docks.charts);
    w->addDockWidget(Qt::BottomDockWidgetArea, m_docks.steps);
    w->tabifyDockWidget(m_docks.steps, m_docks.diagnostics);
    if (m_docks.network) {
        m_docks.network->setFloating(false);
        m_docks.network->show();
        w->tabifyDockWidget(m_docks.diagnostics, m_docks.network);
    }
    m_docks.problem->raise();
    m_docks.steps->raise();
}

QList<int> WindowLayout::splits() const
{
    const auto shown = [](std::initializer_list<QDockWidget *> group, Qt::Orientation o) {
        for (const QDockWidget *d : group)
            if (d && d->isVisible() && !d->isFloating())
                return o == Qt::Horizontal ? d->width() : d->height();
        return 0;
    };
    const MainDocks &k = m_docks;
    return {shown({k.strategies, k.problem, k.groups, k.history}, Qt::Horizontal), shown({k.charts}, Qt::Horizontal),
        shown({k.strategies}, Qt::Vertical), shown({k.steps, k.diagnostics, k.network}, Qt::Vertical)};
}

namespace {

/// The bottom docks' height in a window `height` tall: tall, the network's
/// table and chart over the start page or the grids (at 1024×600, 62 %
/// leaves the grids their minimum and the chart 200 px).
int bottomHeight(int height, bool tall) { return tall ? height * 62 / 100 : clampedShare(height, 0.25, 150, 320); }

} // namespace

void WindowLayout::setBottomTall(bool tall)
{
    // Kept for sizeDocks: the window manager resizing the window after a
    // network opened from the command line gave the dock its quarter back.
    m_bottomTall = tall;
    QDockWidget *bottom = nullptr;
    for (QDockWidget *d : {m_docks.network, m_docks.steps, m_docks.diagnostics})
        if (d && d->isVisible() && !d->isFloating() && !bottom)
            bottom = d;
    if (!bottom)
        return;
    m_window->resizeDocks({bottom}, {bottomHeight(m_window->height(), tall)}, Qt::Vertical);
}

void WindowLayout::sizeDocks()
{
    m_sizing = true;
    const QSize size = m_window->size();
    const QList<QDockWidget *> across{m_docks.strategies, m_docks.charts};
    const QList<QDockWidget *> down{m_docks.strategies, m_docks.steps};
    // The left column at least as wide as a row of three fields of the layer
    // editor (about 280 px: at 1024×600 it got 211 and cut the third).
    const QList<int> wide{clampedShare(size.width(), 0.25, 290, 400), clampedShare(size.width(), 0.34, 330, 700)};
    const QList<int> tall{clampedShare(size.height(), 0.30, 130, 300), bottomHeight(size.height(), m_bottomTall)};
    // QMainWindow::resizeDocks() moves a split only part of the way when the
    // neighbours' sizes change too, so the outcome depends on the layout it
    // starts from. Correct by the remaining error until the docks have the
    // sizes asked (or cannot get closer): the same layout whatever came before.
    QList<int> askWide = wide;
    QList<int> askTall = tall;
    for (int round = 0; round < 8; ++round) {
        m_window->resizeDocks(across, askWide, Qt::Horizontal);
        m_window->resizeDocks(down, askTall, Qt::Vertical);
        if (m_window->layout())
            m_window->layout()->activate();
        bool changed = false;
        for (int k = 0; k < 2; ++k) {
            const int errorWide = wide[k] - across[k]->width();
            const int errorTall = tall[k] - down[k]->height();
            const int nextWide = std::clamp(askWide[k] + errorWide, wide[k] / 2, wide[k] * 2);
            const int nextTall = std::clamp(askTall[k] + errorTall, tall[k] / 2, tall[k] * 2);
            changed = changed || nextWide != askWide[k] || nextTall != askTall[k];
            askWide[k] = nextWide;
            askTall[k] = nextTall;
        }
        if (!changed)
            break;
    }
    m_sizing = false;
    m_laidOutFor = m_window->size();
    m_laidOutSplits = splits();
}

void WindowLayout::queueSizeDocks()
{
    // After the layout has taken the window's size, not in the middle of it.
    if (m_resizeQueued)
        return;
    m_resizeQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_resizeQueued = false;
        if (m_followSize)
            sizeDocks();
    });
}

void WindowLayout::restore()
{
    const QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    const QScreen *screen = m_window->screen() ? m_window->screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
    if (geometry.isEmpty() || !m_window->restoreGeometry(geometry)) {
        m_placed = initialWindowRect(available, kPreferredWindowSize);
        m_window->setGeometry(m_placed);
        m_fitFrame = true; // once the window manager has framed it
    } else if (const QRect restored = m_window->geometry(); !m_window->isMaximized() && !m_window->isFullScreen() && screen
               && (restored.width() > available.width() || restored.height() > available.height())) {
        // Saved on a larger screen (1280×720 reopened on 1024×600): Qt
        // moves the window onto the screen but keeps its size on X11 and
        // Wayland, and the docks and the status bar fell off the screen.
        m_placed = initialWindowRect(available, restored.size());
        m_window->setGeometry(m_placed);
        m_fitFrame = true;
    }
    m_pendingState = settings.value(kStateKey).toByteArray();
    if (m_shown)
        applyState();
}

void WindowLayout::save() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, m_window->saveState(kStateVersion));
}

void WindowLayout::reset()
{
    QSettings settings;
    settings.remove(kGeometryKey);
    settings.remove(kStateKey);
    m_pendingState.clear();
    arrange();
    sizeDocks();
    m_followSize = true;
}

void WindowLayout::applyState()
{
    const bool restored = !m_pendingState.isEmpty() && m_window->restoreState(m_pendingState, kStateVersion);
    if (restored)
        fitOnScreen();
    if (!restored) {
        sizeDocks();
        queueSizeDocks(); // again once the layout has its final geometry
    }
    m_followSize = !restored;
    m_pendingState.clear();
}

void WindowLayout::fitOnScreen()
{
    // Docks saved at a larger screen's sizes can grow the window past this
    // one: it is fitted again and the docks give way. The client area is
    // fitted, as on a first run; its frame is fitted once the window manager
    // has put one on (fitFrameOnScreen).
    const QScreen *screen = m_window->screen();
    if (!screen || m_window->isMaximized() || m_window->isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    const QSize size = m_window->size();
    if (size.width() <= available.width() && size.height() <= available.height())
        return;
    m_placed = initialWindowRect(available, size);
    m_window->setGeometry(m_placed);
    m_fitFrame = true;
}

void WindowLayout::fitFrameOnScreen()
{
    // The rectangle was the client area; on a screen smaller than the
    // preferred size it took the whole available area, and the frame's title
    // bar ended above the screen (openbox at 1280×720). The frame is known
    // only once the window manager has put it on: the client shrinks by it.
    const QScreen *screen = m_window->screen();
    const QRect frame = m_window->frameGeometry();
    const QRect client = m_window->geometry();
    if (!screen || frame == client || client != m_placed || m_window->isMaximized() || m_window->isFullScreen())
        return; // framed inside the screen, or placed since by someone else (the user, -qwindowgeometry, a test)
    const QRect available = screen->availableGeometry();
    if (frame.top() >= available.top() && frame.left() >= available.left())
        return; // the title bar is on the screen: a few pixels of frame past the bottom or the right do no harm
    const QMargins margins(client.left() - frame.left(), client.top() - frame.top(), frame.right() - client.right(),
        frame.bottom() - client.bottom());
    m_window->setGeometry(initialWindowRect(available.marginsRemoved(margins), kPreferredWindowSize));
    m_fitFrame = false; // once
}

bool WindowLayout::eventFilter(QObject *watched, QEvent *event)
{

    if (watched == m_window && event->type() == QEvent::Show && !m_shown) {
        m_shown = true;
        applyState();
        // The window manager frames the window soon after the first show,
        // with no event on the window when its client area stays in place:
        // look a few times.
        if (m_fitFrame)
            for (const int ms : {100, 400, 1000, 2500})
                QTimer::singleShot(ms, this, [this] {
                    if (m_fitFrame)
                        fitFrameOnScreen();
                });
    } else if (watched == m_window && event->type() == QEvent::MouseButtonPress) {
        m_followSize = false; // the user may be dragging a dock separator
    } else if (watched == m_window && event->type() == QEvent::Resize && m_shown && m_followSize) {
        queueSizeDocks();
    } else if (watched != m_window && event->type() == QEvent::Resize && m_followSize && !m_sizing && !m_resizeQueued
        && m_window->size() == m_laidOutFor && splits() != m_laidOutSplits) {
        m_followSize = false; // a dock resized in the same window: by the user, however
    }
    return QObject::eventFilter(watched, event);
}

} // namespace convoffload::ui
