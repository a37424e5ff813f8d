// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Frame time of the grid renderer on a 224×224 layer: the visualiser must
// repaint the input grid in under 16 ms (60 frames per second) at any zoom.
//
//   convoffload-bench-grid [frames]     (default 50; exit 1 over budget)
//
// Layer: input 3×224×224, 16 kernels 3×3, stride 1, no padding, zigzag with
// G = 16, cursor in the middle of the strategy. Frames are painted into a
// 1200×1200 QImage, as the view and the PNG export do.
#include "render/GridRenderer.h"
#include "grid/GridView.h"

#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/StepCursor.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

constexpr double kBudgetMs = 16.0;

struct Timing {
    double mean = 0, best = std::numeric_limits<double>::max(), worst = 0;
};

Timing measure(int frames, const std::function<void(int)> &frame)
{
    frame(0); // warm up: caches, glyphs, buffers
    Timing t;
    double total = 0;
    for (int i = 0; i < frames; ++i) {
        QElapsedTimer timer;
        timer.start();
        frame(i);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        total += ms;
        t.best = std::min(t.best, ms);
        t.worst = std::max(t.worst, ms);
    }
    t.mean = total / frames;
    return t;
}

void print(const char *what, const Timing &t)
{
    std::printf("  %-54s mean %7.2f ms   best %7.2f ms   worst %7.2f ms  %s\n", what, t.mean, t.best, t.worst,
        t.mean < kBudgetMs ? "ok" : "OVER BUDGET");
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int frames = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;

    Problem problem;
    problem.layer = Layer{3, 224, 224, 3, 3, 16, 1, 1, 0, 0, 0, 0};
    problem.hardware.nbop_pe = 16 * 3 * 3 * 3 * 16; // G = nb_patches_max = 16
    problem.hardware.mem_size = std::int64_t(1) << 40;
    SimulationOptions options;
    options.trace = true;
    options.functional = false;
    QElapsedTimer timer;
    timer.start();
    const SimulationResult result = simulate(problem, expandS1(problem, zigzag(problem.layer, 16)), options);
    const double simulateMs = double(timer.nsecsElapsed()) / 1e6;
    StepCursor cursor(problem, result);
    const int middle = cursor.stepCount() / 2;
    timer.restart();
    cursor.seek({middle, Action::Compute});
    const double seekMs = double(timer.nsecsElapsed()) / 1e6;

    std::printf("convoffload-bench-grid: input 3x224x224 (50176 cells), 16 kernels 3x3, zigzag G = 16\n");
    std::printf("simulate with trace: %.1f ms; %d steps; seek to step %d: %.2f ms; %d frames per case\n", simulateMs,
        cursor.stepCount(), middle + 1, seekMs, frames);
    std::printf("frames painted into a 1200x1200 QImage (budget %.0f ms per frame)\n\n", kBudgetMs);

    QImage image(1200, 1200, QImage::Format_ARGB32_Premultiplied);
    const QRectF target(0, 0, 1200, 1200);
    GridRenderer renderer;
    bool withinBudget = true;
    auto run = [&](const char *what, const std::function<void(int)> &frame) {
        const Timing t = measure(frames, frame);
        print(what, t);
        withinBudget = withinBudget && t.mean < kBudgetMs;
    };

    GridStyle states, heat;
    heat.heatMap = true;
    run("input grid, full frame (states, legend, axes)", [&](int) {
        QPainter p(&image);
        renderer.paintInputGrid(p, target, problem, cursor, states);
    });
    run("input grid, full frame, reload heat map", [&](int) {
        QPainter p(&image);
        renderer.paintInputGrid(p, target, problem, cursor, heat);
    });
    run("output grid, full frame (222x222 patches, N = 16)", [&](int) {
        QPainter p(&image);
        renderer.paintOutputGrid(p, target, problem, cursor, states);
    });
    run("input + output side by side (export figure)", [&](int) {
        QPainter p(&image);
        renderer.paintGrids(p, target, problem, cursor, states);
    });
    // Playing: each frame moves the cursor one action on, then repaints.
    {
        StepCursor playing(problem, result);
        playing.seek({middle, Action::Compute});
        run("play: seek next action + full input frame", [&](int i) {
            playing.seek({middle + 1 + i / kActionCount, Action(i % kActionCount)});
            QPainter p(&image);
            renderer.paintInputGrid(p, target, problem, playing, states);
        });
    }

    // Zoomed-in views: cells of a GridGeometry zoomed about the group, only
    // the visible (or exposed) cells painted, as GridView does.
    QRect group;
    for (PatchId patch : cursor.currentPatches())
        group |= GridRenderer::patchPixels(problem.layer, patch);
    const double fitCell = 1200.0 / 224;
    for (double zoom : {4.0, 16.0}) {
        const double cell = fitCell * zoom;
        const QPointF centre((group.center().x() + 0.5) * cell, (group.center().y() + 0.5) * cell);
        const GridGeometry g{224, 224, QPointF(600, 600) - centre, cell};
        char what[96];
        std::snprintf(what, sizeof what, "zoom %2.0fx: whole 1200x1200 viewport (%dx%d cells)", zoom, g.cellsIn(target).width(),
            g.cellsIn(target).height());
        run(what, [&](int) {
            QPainter p(&image);
            p.setClipRect(target);
            renderer.paintInputCells(p, g, problem, cursor, states, g.cellsIn(target));
        });
        const QRectF exposed(500, 500, 200, 200); // e.g. the cells under a moving hover
        std::snprintf(what, sizeof what, "zoom %2.0fx: exposed 200x200 px only", zoom);
        run(what, [&](int) {
            QPainter p(&image);
            p.setClipRect(exposed);
            renderer.paintInputCells(p, g, problem, cursor, states, g.cellsIn(exposed));
        });
    }
    run("exposedCells = 20x20 cells of the fitted figure", [&](int) {
        QPainter p(&image);
        renderer.paintInputGrid(p, target, problem, cursor, states, QRectF(100, 100, 20, 20));
    });

    // The widget itself: GridView::render into the image (paintEvent over all).
    GridView view(GridKind::Input);
    view.setSource(&problem, &cursor);
    view.resize(1200, 1200);
    run("GridView paintEvent, 1200x1200 widget", [&](int) { view.render(&image); });
    view.zoomIn();
    view.zoomIn();
    view.zoomIn();
    run("GridView paintEvent, zoomed 1.95x", [&](int) { view.render(&image); });

    std::printf("\nbench-grid: %s\n", withinBudget ? "every case within the 16 ms frame budget" : "OVER BUDGET");
    return withinBudget ? 0 : 1;
}
