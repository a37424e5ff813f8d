// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the simulate library: how both executors (the general one of
// Simulator.cpp and the fused S1 pass of FusedS1.cpp) count and list their
// findings, and the sentences of the findings both can make, so that the two
// give the same diagnostics word for word.

#include "convoffload/model/Ids.h"
#include "convoffload/simulate/SimulationResult.h"

#include <array>
#include <optional>
#include <string>

namespace convoffload::detail {

class Reporter {
public:
    struct Element {
        std::string name;
        ElementKind kind = ElementKind::None;
        std::uint32_t id = 0;
    };
    struct Finding {
        Element element;
        std::string what;
    };

    Reporter(SimulationResult &result, const Layer &layer, int maxPerRule)
        : m_result(result)
        , m_layer(layer)
        , m_maxPerRule(maxPerRule)
    {
    }

    /// An input slice, named with its group when the layer is grouped; the
    /// element id is its pixel (what views highlight).
    Element pixel(SliceId s) const { return {sliceName(m_layer, s), ElementKind::Pixel, pixelOfSlice(m_layer, s)}; }
    Element kernel(KernelId k) const { return {kernelName(k), ElementKind::Kernel, k}; }
    Element output(OutputId o) const { return {outputName(m_layer, o), ElementKind::Output, o}; }
    Element patch(PatchId p) const { return {patchName(m_layer, p), ElementKind::Patch, p}; }

    /// True when a finding of `rule` would be listed (not only counted).
    bool listing(Rule rule) const { return m_reported[std::size_t(rule)] < m_maxPerRule; }

    /// Counts a finding; lists it while its rule is under the cap. The text is
    /// built by `describe` only then, so a strategy that breaks a rule a
    /// million times does not build a million strings.
    template <typename Describe>
    void report(Severity severity, Rule rule, int step, std::optional<Action> action, Describe &&describe)
    {
        ++(severity == Severity::Error ? m_result.error_count : m_result.warning_count);
        int &count = m_reported[std::size_t(rule)];
        if (count >= m_maxPerRule) {
            ++m_result.suppressed_diagnostics;
            return;
        }
        ++count;
        list(severity, rule, step, action, describe());
    }

    /// `count` findings of one rule that are all past the cap: counted only.
    void countUnlisted(Severity severity, std::int64_t count)
    {
        (severity == Severity::Error ? m_result.error_count : m_result.warning_count) += count;
        m_result.suppressed_diagnostics += count;
    }

    // ---- findings both executors make ----------------------------------
    template <typename Limit> void memoryOverflow(int step, Action action, const Footprint &now, Limit memSize)
    {
        report(Severity::Error, Rule::MemoryOverflow, step, action, [&] {
            return Finding{{},
                "the on-chip footprint reaches " + std::to_string(now.total()) + " elements (input " + std::to_string(now.input)
                    + ", kernels " + std::to_string(now.kernels) + ", output " + std::to_string(now.output)
                    + "), more than mem_size " + std::to_string(memSize)};
        });
    }
    /// `kind` is Pixel or Kernel; the element's name is built only when listed.
    void reloadBound(int step, Action action, ElementKind kind, std::uint32_t id, int maxLoads)
    {
        report(Severity::Warning, Rule::ReloadBound, step, action, [&] {
            return Finding{kind == ElementKind::Pixel ? pixel(id) : kernel(id),
                "loaded " + std::to_string(maxLoads + 1)
                    + " times, more than max_loads_per_element = " + std::to_string(maxLoads)};
        });
    }
    void tooManyOps(int step, std::size_t outputs, std::int64_t ops, std::int64_t nbopPe)
    {
        report(Severity::Error, Rule::TooManyOps, step, Action::Compute, [&] {
            return Finding{{},
                std::to_string(outputs) + " outputs need " + std::to_string(ops) + " MACs, more than nbop_pe "
                    + std::to_string(nbopPe)};
        });
    }
    void neverComputed(int lastStep, OutputId o)
    {
        report(Severity::Error, Rule::OutputNotWritten, lastStep, std::nullopt, [&] {
            return Finding{output(o), "never computed"};
        });
    }
    void dramOverflow(std::int64_t total, std::int64_t dramSize)
    {
        report(Severity::Error, Rule::DramOverflow, 0, std::nullopt, [&] {
            return Finding{{},
                "the layer needs " + std::to_string(total) + " elements of DRAM (input, kernels, output), more than dram_size "
                    + std::to_string(dramSize)};
        });
    }

private:
    void list(Severity severity, Rule rule, int step, std::optional<Action> action, Finding finding)
    {
        Diagnostic d;
        d.severity = severity;
        d.rule = rule;
        d.step = step;
        d.has_action = action.has_value();
        if (action)
            d.action = *action;
        d.element = std::move(finding.element.name);
        d.element_kind = finding.element.kind;
        d.element_id = finding.element.id;
        std::string where = step > 0 ? "step " + std::to_string(step) : std::string("strategy");
        if (action)
            where += ", " + std::string(actionName(*action));
        if (!d.element.empty())
            where += ", " + d.element;
        d.message = where + ": " + finding.what;
        m_result.diagnostics.push_back(std::move(d));
    }

    SimulationResult &m_result;
    const Layer &m_layer;
    int m_maxPerRule;
    std::array<int, 32> m_reported{};
};

/// DRAM the layer needs (input with its padding when padding_in_dram,
/// kernels, output), in elements.
inline std::int64_t dramElements(const Problem &problem)
{
    const Layer &l = problem.layer;
    const std::int64_t input = std::int64_t(l.c_in) * l.h_in * l.w_in
        + (problem.options.padding_in_dram ? (l.pixelCount() - std::int64_t(l.h_in) * l.w_in) * l.c_in : 0);
    return input + l.kernelElements() * l.n + l.outputCount();
}

} // namespace convoffload::detail
