// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Names of the six actions, as messages and files show them.
#include "convoffload/model/Step.h"

namespace convoffload {

std::string actionName(Action a)
{
    switch (a) {
    case Action::FreeInput:
        return "a1 free input";
    case Action::FreeKernels:
        return "a2 free kernels";
    case Action::Write:
        return "a3 write";
    case Action::LoadInput:
        return "a4 load input";
    case Action::LoadKernels:
        return "a5 load kernels";
    case Action::Compute:
        return "a6 compute";
    }
    return "?";
}

std::string actionIdentifier(Action a)
{
    switch (a) {
    case Action::FreeInput:
        return "free_input";
    case Action::FreeKernels:
        return "free_kernels";
    case Action::Write:
        return "write";
    case Action::LoadInput:
        return "load_input";
    case Action::LoadKernels:
        return "load_kernels";
    case Action::Compute:
        return "compute";
    }
    return "?";
}

} // namespace convoffload
