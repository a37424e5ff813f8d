#include "mainwindow/WindowLayout.h"

#include <QDockWidget>
#include <QEvent>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>

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

void WindowLayout::sizeDocks()
{
    const QSize size = m_window->size();
    const int left = clampedShare(size.width(), 0.25, 260, 400);
    const int right = clampedShare(size.width(), 0.34, 340, 700);
    m_window->resizeDocks({m_docks.strategies, m_docks.charts}, {left, right}, Qt::Horizontal);
    const int strategies = clampedShare(size.height(), 0.24, 130, 260);
    const int steps = clampedShare(size.height(), 0.25, 150, 320);
    m_window->resizeDocks({m_docks.strategies, m_docks.steps}, {strategies, steps}, Qt::Vertical);
}

void WindowLayout::restore()
{
    const QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (geometry.isEmpty() || !m_window->restoreGeometry(geometry)) {
        const QScreen *screen = m_window->screen() ? m_window->screen() : QGuiApplication::primaryScreen();
        const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
        m_window->setGeometry(initialWindowRect(available, kPreferredWindowSize));
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
}

void WindowLayout::applyState()
{
    if (m_pendingState.isEmpty() || !m_window->restoreState(m_pendingState, kStateVersion))
        sizeDocks();
    m_pendingState.clear();
}

bool WindowLayout::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Show && !m_shown) {
        m_shown = true;
        applyState();
    }
    return QObject::eventFilter(watched, event);
}

} // namespace convoffload::ui
