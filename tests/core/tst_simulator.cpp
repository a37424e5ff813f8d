// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The executor's validity rules, one case per rule, each breaking a valid
// hand-checked strategy in one place and expecting the located diagnostic.
//
// The base: a 1x3x3 input, one 2x2 kernel, stride 1, so four patches
// (pixels 0 1 2 / 3 4 5 / 6 7 8). S1-baseline expands, by hand, to
//   step 1: load {0,1,3,4}, load kernel 0, compute O0
//   step 2: free {0,3}, write O0, load {2,5}, compute O1
//   step 3: free {1,2,5}, write O1, load {3,6,7}, compute O2
//   step 4: free {3,6}, write O2, load {5,8}, compute O3
//   step 5 (drain): free {4,5,7,8}, free kernel 0, write O3

#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

#include "TestPrinting.h"

#include <QTest>

#include <functional>

using namespace convoffload;

namespace {

Problem tinyProblem()
{
    Problem p;
    p.layer = {1, 3, 3, 2, 2, 1, 1, 1, 0, 0, 0, 0};
    p.hardware.mem_size = 100;
    p.hardware.nbop_pe = 4;
    return p;
}

struct RuleCase {
    const char *name;
    std::function<void(Problem &, StepList &)> breakIt;
    Rule rule;
    Severity severity;
    int step;
    std::optional<Action> action;
    const char *mentions; // a piece of the message that locates the element
};

std::vector<RuleCase> ruleCases()
{
    using S = StepList;
    using P = Problem;
    return {
        {"patch not on chip", [](P &, S &s) { s[1].load_input = {5}; }, Rule::PatchNotOnChip, Severity::Error, 2, Action::Compute,
            "pixel (0,2)"},
        {"kernel not on chip", [](P &, S &s) { s[0].load_kernels.clear(); }, Rule::KernelNotOnChip, Severity::Error, 1,
            Action::Compute, "kernel 0"},
        {"computed twice", [](P &, S &s) { s[1].compute.push_back(0); }, Rule::ComputedTwice, Severity::Error, 2, Action::Compute,
            "first computed at step 1"},
        {"write not computed", [](P &, S &s) { s[0].write.push_back(1); }, Rule::WriteNotComputed, Severity::Error, 1,
            Action::Write, "O[0](0,1)"},
        {"write already written", [](P &, S &s) { s[2].write.push_back(0); }, Rule::WriteAlreadyWritten, Severity::Error, 3,
            Action::Write, "O[0](0,0)"},
        {"free input not present", [](P &, S &s) { s[1].free_input.push_back(8); }, Rule::FreeNotPresent, Severity::Error, 2,
            Action::FreeInput, "pixel (2,2)"},
        {"free kernel not present",
            [](P &, S &s) {
                s[3].free_kernels = {0, 0};
                s[4].free_kernels.clear();
            },
            Rule::FreeNotPresent, Severity::Error, 4, Action::FreeKernels, "kernel 0"},
        // After a4 of step 1: 4 input elements; after a5: + 4 kernel elements = 8 > 5.
        {"memory overflow", [](P &p, S &) { p.hardware.mem_size = 5; }, Rule::MemoryOverflow, Severity::Error, 1,
            Action::LoadKernels, "reaches 8 elements"},
        // One output needs 1·2·2 = 4 MACs.
        {"too many ops", [](P &p, S &) { p.hardware.nbop_pe = 3; }, Rule::TooManyOps, Severity::Error, 1, Action::Compute,
            "4 MACs"},
        {"output not written", [](P &, S &s) { s[4].write.clear(); }, Rule::OutputNotWritten, Severity::Error, 5, std::nullopt,
            "O[0](1,1)"},
        {"memory not empty",
            [](P &, S &s) {
                s[4].free_input = {4, 5};
            },
            Rule::MemoryNotEmpty, Severity::Error, 5, std::nullopt, "2 input"},
        {"id out of range", [](P &, S &s) { s[0].load_input.push_back(99); }, Rule::IdOutOfRange, Severity::Error, 1,
            Action::LoadInput, "pixel 99"},
        // 9 input + 4 kernel + 4 output elements.
        {"dram overflow", [](P &p, S &) { p.hardware.dram_size = 16; }, Rule::DramOverflow, Severity::Error, 0, std::nullopt,
            "17 elements"},
        {"useless load", [](P &, S &s) { s[1].load_input.push_back(1); }, Rule::UselessLoad, Severity::Warning, 2,
            Action::LoadInput, "pixel (0,1)"},
        // Pixel 3 = (1,0) is loaded at steps 1 and 3.
        {"reload bound", [](P &p, S &) { p.hardware.max_loads_per_element = 1; }, Rule::ReloadBound, Severity::Warning, 3,
            Action::LoadInput, "pixel (1,0)"},
    };
}

} // namespace

class TestSimulator : public QObject {
    Q_OBJECT
private slots:
    void baseIsValidAndExact()
    {
        const Problem p = tinyProblem();
        const StepList steps = expandS1(p, s1Baseline(p.layer));
        QCOMPARE(steps.size(), std::size_t(5));
        QCOMPARE(steps[2].free_input, (std::vector<PixelId>{1, 2, 5}));
        QCOMPARE(steps[2].load_input, (std::vector<PixelId>{3, 6, 7}));
        QCOMPARE(steps[3].load_input, (std::vector<PixelId>{5, 8}));
        const SimulationResult r = simulate(p, steps);
        QVERIFY(r.valid());
        QVERIFY(r.diagnostics.empty());
        // loads 4+2+3+2 pixels + 4 kernel elements, 4 writes, 4 computes
        QCOMPARE(r.totalDuration(), 11.0 + 4 + 4 + 4);
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
        QCOMPARE(r.input_load_counts[3], 2u);
        QCOMPARE(r.input_load_counts[0], 1u);
    }

    void rule_data()
    {
        QTest::addColumn<int>("index");
        const auto cases = ruleCases();
        for (std::size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].name) << int(i);
    }
    void rule()
    {
        QFETCH(int, index);
        const RuleCase c = ruleCases()[std::size_t(index)];
        Problem p = tinyProblem();
        StepList steps = expandS1(p, s1Baseline(p.layer));
        c.breakIt(p, steps);
        const SimulationResult r = simulate(p, steps);
        QCOMPARE(r.valid(), c.severity == Severity::Warning);
        const auto found
            = std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic &d) { return d.rule == c.rule; });
        QVERIFY2(found != r.diagnostics.end(), "the rule was not reported");
        QCOMPARE(found->severity, c.severity);
        QCOMPARE(found->step, c.step);
        QCOMPARE(found->has_action, c.action.has_value());
        if (c.action)
            QCOMPARE(found->action, *c.action);
        QVERIFY2(found->message.find(c.mentions) != std::string::npos, found->message.c_str());
        const std::string where = c.step > 0 ? "step " + std::to_string(c.step) : "strategy";
        QVERIFY2(found->message.rfind(where, 0) == 0, found->message.c_str());
    }

    // Diagnostics carry the element as kind + id, so views can point at it.
    void diagnosticsNameTheirElement()
    {
        const Problem p = tinyProblem();
        StepList steps = expandS1(p, s1Baseline(p.layer));
        steps[1].load_input = {5}; // patch 1 misses pixel 2
        steps[1].free_input.push_back(8); // pixel 8 is not on chip
        steps[0].write.push_back(1); // output 1 is not computed yet
        const SimulationResult r = simulate(p, steps);
        const auto find = [&](Rule rule) {
            return *std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic &d) { return d.rule == rule; });
        };
        QCOMPARE(int(find(Rule::PatchNotOnChip).element_kind), int(ElementKind::Patch));
        QCOMPARE(find(Rule::PatchNotOnChip).element_id, 1u);
        QCOMPARE(int(find(Rule::FreeNotPresent).element_kind), int(ElementKind::Pixel));
        QCOMPARE(find(Rule::FreeNotPresent).element_id, 8u);
        QCOMPARE(int(find(Rule::WriteNotComputed).element_kind), int(ElementKind::Output));
        QCOMPARE(find(Rule::WriteNotComputed).element_id, 1u);
    }

    void paddingCannotBeLoadedWhenSynthesised()
    {
        Problem p;
        p.layer = {1, 2, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1};
        p.hardware.nbop_pe = 9;
        p.options.padding_in_dram = false;
        StepList steps = expandS1(p, s1Baseline(p.layer));
        steps[0].load_input.push_back(0); // pixel (0,0) is padding
        const SimulationResult r = simulate(p, steps);
        QVERIFY(!r.valid());
        QCOMPARE(r.errors().front()->rule, Rule::PaddingLoaded);
        QCOMPARE(r.errors().front()->step, 1);
        QCOMPARE(r.errors().front()->action, Action::LoadInput);
    }

    void diagnosticsAreCappedNotLost()
    {
        Problem p = tinyProblem();
        StepList steps = expandS1(p, s1Baseline(p.layer));
        for (PixelId id = 100; id < 200; ++id)
            steps[0].load_input.push_back(id);
        SimulationOptions options;
        options.max_diagnostics_per_rule = 10;
        const SimulationResult r = simulate(p, steps, options);
        QCOMPARE(r.errors().size(), std::size_t(10));
        QCOMPARE(r.suppressed_diagnostics, 90);
    }

    // A corrupted strategy must fail the functional check, naming the first
    // wrong output in tensor order.
    void functionalCheckNamesFirstWrongOutput_data()
    {
        QTest::addColumn<int>("corruption");
        QTest::addColumn<QString>("expected");
        QTest::newRow("write dropped") << 0 << QStringLiteral("O[0](0,1) in DRAM is never written");
        QTest::newRow("pixel never loaded") << 1 << QStringLiteral("O[0](0,1) in DRAM is ");
        QTest::newRow("patch never computed") << 2 << QStringLiteral("O[0](1,0) in DRAM is never written");
    }
    void functionalCheckNamesFirstWrongOutput()
    {
        QFETCH(int, corruption);
        QFETCH(QString, expected);
        const Problem p = tinyProblem();
        StepList steps = expandS1(p, s1Baseline(p.layer));
        if (corruption == 0)
            steps[2].write.clear();
        else if (corruption == 1)
            steps[1].load_input = {5}; // pixel 2 missing: O1 reads freed memory
        else
            steps[2].compute.clear();
        TensorData data = seededTensors(p.layer, 1);
        std::fill(data.kernels.begin(), data.kernels.end(), 1); // no zero weight can hide the poison
        SimulationOptions options;
        options.data = &data;
        const SimulationResult r = simulate(p, steps, options);
        QCOMPARE(r.functional.status, FunctionalStatus::Fail);
        QVERIFY2(QString::fromStdString(r.functional.message).startsWith(QLatin1String("output ") + expected),
            r.functional.message.c_str());
    }

    void durationsFollowTheFormula()
    {
        Problem p = tinyProblem();
        p.hardware.t_l = 2;
        p.hardware.t_w = 3;
        p.hardware.t_acc = 5;
        const StepList steps = expandS1(p, s1Baseline(p.layer));
        SimulationResult r = simulate(p, steps);
        // step 1: (4 + 4 kernel elements)·2 + 0·3 + 5; step 2: 2·2 + 1·3 + 5
        QCOMPARE(r.steps[0].duration(), 21.0);
        QCOMPARE(r.steps[1].duration(), 12.0);
        QCOMPARE(r.steps[4].duration(), 3.0); // drain: one write, no t_acc
        p.options.kernels_preloaded = true;
        r = simulate(p, steps);
        QCOMPARE(r.steps[0].duration(), 13.0);
        QCOMPARE(r.loadedKernels(), 4); // still loaded, just free of cost
    }

    void cancelAndProgress()
    {
        Problem p;
        p.layer = {1, 40, 40, 3, 3, 1, 1, 1, 0, 0, 0, 0}; // 38x38 = 1444 patches
        p.hardware.mem_size = 100000;
        p.hardware.nbop_pe = 9;
        const StepList steps = expandS1(p, s1Baseline(p.layer));
        SimulationOptions options;
        std::vector<std::size_t> seen;
        options.progress = [&](std::size_t done, std::size_t total) {
            QCOMPARE(total, steps.size());
            seen.push_back(done);
        };
        simulate(p, steps, options);
        QCOMPARE(seen, (std::vector<std::size_t>{0, 256, 512, 768, 1024, 1280}));
        std::atomic<bool> cancel{true};
        options.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(Cancelled, simulate(p, steps, options));
    }

    void unsoundProblemIsRejected()
    {
        Problem p = tinyProblem();
        p.layer.h_k = 9;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate(p, {}));
        p = tinyProblem();
        p.hardware.t_l = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate(p, {}));
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
