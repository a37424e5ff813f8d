// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/StepName.h"

#include "convoffload/simulate/SimulationResult.h"

#include <QCoreApplication>

namespace convoffload::ui {

QString stepName(int step, int count, bool lastIsDrain)
{
    const int computeSteps = lastIsDrain ? count - 1 : count;
    if (step < 0)
        return QCoreApplication::translate("StepName", "before step 1 of %1").arg(computeSteps);
    if (lastIsDrain && step == count - 1)
        return QCoreApplication::translate("StepName", "drain (after step %1)").arg(computeSteps);
    return QCoreApplication::translate("StepName", "step %1 of %2").arg(step + 1).arg(computeSteps);
}

QString stepName(int step, const SimulationResult &result)
{
    const int count = int(result.steps.size());
    return stepName(step, count, count > 0 && result.steps.back().drain);
}

QString shortStepName(int step, const SimulationResult &result)
{
    const int count = int(result.steps.size());
    if (step < 0)
        return QCoreApplication::translate("StepName", "before step 1");
    if (step == count - 1 && result.steps.back().drain)
        return QCoreApplication::translate("StepName", "drain");
    return QCoreApplication::translate("StepName", "step %1").arg(step + 1);
}

} // namespace convoffload::ui
