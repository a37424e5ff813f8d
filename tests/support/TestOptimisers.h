// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the optimiser suites of core/, cli/ and gui/ share: the samples by
// name, the simulator's duration of a strategy and a small experiment grid.

#include "convoffload/model/S1Strategy.h"
#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/simulate/Simulator.h"

#include <QString>

inline QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

/// The duration the simulator reports for explicit groups: the independent
/// route every optimiser result is checked against.
inline double simulated(const convoffload::Problem &problem, const convoffload::Groups &groups, bool *valid = nullptr)
{
    convoffload::SimulationOptions options;
    options.functional = true;
    const convoffload::SimulationResult r = simulate(problem, expandS1(problem, groups), options);
    if (valid)
        *valid = r.valid() && r.functional.status == convoffload::FunctionalStatus::Pass;
    return r.totalDuration();
}

/// The paper's grid from 4×4 and G = 2 up to `sizeTo` and `groupTo`, each
/// instance searched for `searchSeconds`.
inline convoffload::ExperimentGrid smallGrid(int sizeTo, int groupTo, double searchSeconds)
{
    convoffload::ExperimentGrid grid;
    grid.size_from = 4;
    grid.size_to = sizeTo;
    grid.group_from = 2;
    grid.group_to = groupTo;
    grid.search_time_limit_s = searchSeconds;
    return grid;
}
