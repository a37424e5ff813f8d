// Names of elements, actions and rules as every message and file shows them.
#include "convoffload/Diagnostic.h"
#include "convoffload/Ids.h"
#include "convoffload/Step.h"

namespace convoffload {

std::string pixelName(const Layer &l, PixelId p)
{
    const Grid g = pixelPosition(l, p);
    return "pixel (" + std::to_string(g.row) + "," + std::to_string(g.col) + ")";
}

std::string patchName(const Layer &l, PatchId p)
{
    const Grid g = patchPosition(l, p);
    return "patch " + std::to_string(p) + " (" + std::to_string(g.row) + "," + std::to_string(g.col) + ")";
}

std::string outputName(const Layer &l, OutputId o)
{
    const Grid g = patchPosition(l, patchOfOutput(l, o));
    return "output O[" + std::to_string(kernelOfOutput(l, o)) + "](" + std::to_string(g.row) + "," + std::to_string(g.col) + ")";
}

std::string kernelName(KernelId k) { return "kernel " + std::to_string(k); }

std::string_view actionName(Action a)
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

std::string_view actionShortName(Action a)
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

std::string_view ruleName(Rule r)
{
    switch (r) {
    case Rule::PatchNotOnChip:
        return "patch-not-on-chip";
    case Rule::KernelNotOnChip:
        return "kernel-not-on-chip";
    case Rule::ComputedTwice:
        return "computed-twice";
    case Rule::WriteNotComputed:
        return "write-not-computed";
    case Rule::WriteAlreadyWritten:
        return "write-already-written";
    case Rule::FreeNotPresent:
        return "free-not-present";
    case Rule::MemoryOverflow:
        return "memory-overflow";
    case Rule::TooManyOps:
        return "too-many-ops";
    case Rule::OutputNotWritten:
        return "output-not-written";
    case Rule::MemoryNotEmpty:
        return "memory-not-empty";
    case Rule::IdOutOfRange:
        return "id-out-of-range";
    case Rule::PaddingLoaded:
        return "padding-loaded";
    case Rule::DramOverflow:
        return "dram-overflow";
    case Rule::UselessLoad:
        return "useless-load";
    case Rule::ReloadBound:
        return "reload-bound";
    }
    return "?";
}

} // namespace convoffload
