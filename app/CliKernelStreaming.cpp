// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "CliKernelStreaming.h"

#include "CliFigures.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/io/StrategyCsv.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

namespace convoffload::cli {

namespace {

QString opt(const char *name) { return QString::fromLatin1(name); }

void checkFamilyBudget(const QCommandLineParser &parser, const Problem &problem, const std::vector<KernelBlockedParams> &members)
{
    if (parser.isSet(opt("no-work-limit")))
        return;
    WorkEstimate work;
    work.seconds = familySearchSeconds(problem, members);
    if (const std::optional<std::string> why = exceedsBudget(work))
        throw UsageError("the kernel-blocked search over " + std::to_string(members.size()) + " strategies " + *why
            + " (--no-work-limit runs it anyway)");
}

nlohmann::ordered_json memberToJson(const FamilyMember &m)
{
    return {{"loop", kernelLoopName(m.params.loop)}, {"order", patchOrderName(m.params.order)},
        {"kernel_block", m.params.kernel_block}, {"group_size", m.params.group_size}, {"valid", m.row.valid},
        {"steps", m.row.steps}, {"total_duration", m.row.total_duration}, {"loaded_input", m.row.loaded_input},
        {"loaded_kernels", m.row.loaded_kernels}, {"peak_footprint", m.row.peak_footprint}, {"warnings", m.row.warnings}};
}

std::string cell(const std::optional<FamilyMember> &m)
{
    if (!m)
        return "-";
    return formatNumber(m->row.total_duration) + (m->row.valid ? "" : "*");
}

std::string params(const std::optional<FamilyMember> &m)
{
    if (!m)
        return "-";
    return (m->params.order == PatchOrder::ZigZag ? "zz" : "rr") + std::string(" G=") + std::to_string(m->params.group_size);
}

} // namespace

void addKernelStreamingOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {opt("kernel-blocked"),
            opt("compare: add the best kernel-blocked strategy (every loop, order, B and G tried): auto (default: when "
                "the kernels do not fit or the layer is grouped), always or never."),
            opt("mode"), opt("auto")},
        {opt("kernel-blocks"), opt("sweep: kernel block sizes B to sweep, A..B (both loops; best G and order per B)."),
            opt("range")},
        {opt("order"), opt("sweep --kernel-blocks: only this patch order (row-by-row or zigzag)."), opt("order")},
        {opt("loop-order"),
            opt("optimize, kernels that do not fit: only kernel-blocked strategies of this loop (kernels-outer or "
                "patches-outer); the search regroups the best one's patches."),
            opt("loop")},
        {opt("kernel-block"), opt("optimize, kernels that do not fit: only kernel-blocked strategies of B kernels a block."),
            opt("b")},
        {opt("kernel-steps"),
            opt("import-solution: the CSV is step,patch,kernel rows (kernels streamed), even without that header.")},
    });
}

FamilyChoice familyChoiceFrom(const QCommandLineParser &parser, const Problem &problem)
{
    FamilyChoice choice;
    for (const char *name : {"loop-order", "kernel-block"})
        if (parser.isSet(opt(name)) && kernelsFit(problem))
            throw UsageError(std::string("--") + name + ": this layer's kernels fit on chip (one patch with all N = "
                + std::to_string(problem.layer.n) + " kernels), so optimize finds an S1 strategy and streams no kernels");
    if (parser.isSet(opt("loop-order"))) {
        const std::string text = str(parser.value(opt("loop-order")));
        choice.loop = kernelLoopFromName(text);
        if (!choice.loop)
            throw UsageError("--loop-order: expected kernels-outer or patches-outer, got '" + text + "'");
    }
    if (parser.isSet(opt("kernel-block")))
        choice.kernel_block = parseInteger(parser, opt("kernel-block"), 1, problem.layer.n);
    return choice;
}

std::optional<FamilySearch> compareFamily(
    const QCommandLineParser &parser, const Loaded &loaded, const SimulationOptions &options)
{
    const std::string text = str(parser.value(opt("kernel-blocked")));
    const std::optional<FamilyMode> mode = familyModeFromName(text);
    if (!mode)
        throw UsageError("--kernel-blocked: expected auto, always or never, got '" + text + "'");
    const Problem &problem = loaded.project.problem;
    // A grouped layer's natural schedule walks its groups one after another
    // (blocks of N/g kernels), which no S1 strategy does: tried as when the
    // kernels do not fit.
    if (*mode == FamilyMode::Never || (*mode == FamilyMode::Auto && kernelsFit(problem) && !problem.layer.isGrouped()))
        return std::nullopt;
    const std::vector<KernelBlockedParams> members = kernelBlockedFamily(problem);
    checkFamilyBudget(parser, problem, members);
    return searchMembers(problem, members, options);
}

nlohmann::ordered_json familyToJson(const FamilySearch &search)
{
    std::int64_t valid = 0;
    for (const FamilyMember &m : search.members)
        valid += m.row.valid ? 1 : 0;
    const FamilyMember *best = search.bestMember();
    return {{"tried", search.members.size()}, {"valid", valid},
        {"best", best ? memberToJson(*best) : nlohmann::ordered_json(nullptr)}};
}

std::string familyToText(const FamilySearch &search)
{
    std::int64_t valid = 0;
    for (const FamilyMember &m : search.members)
        valid += m.row.valid ? 1 : 0;
    std::ostringstream out;
    out << "kernel-blocked family: " << search.members.size() << " strategies tried, " << valid << " valid";
    if (const FamilyMember *best = search.bestMember())
        out << "; best " << kernelBlockedParamsText(best->params) << ": " << formatNumber(best->row.total_duration);
    out << "\n";
    return out.str();
}

int sweepKernelBlocksCommand(const QCommandLineParser &parser, const Loaded &loaded, const SimulationOptions &options)
{
    const Problem &problem = loaded.project.problem;
    const IntRange range = parseRange(parser.value(opt("kernel-blocks")), "--kernel-blocks", problem.layer.n,
        "the layer's kernels (n = " + std::to_string(problem.layer.n) + ")");
    std::optional<std::int64_t> groupSize;
    if (parser.isSet(opt("group-size")))
        groupSize = parseInteger(parser, opt("group-size"), 1, problem.layer.patchCount());
    std::optional<PatchOrder> order;
    if (parser.isSet(opt("order"))) {
        order = patchOrderFromName(str(parser.value(opt("order"))));
        if (!order)
            throw UsageError("--order: expected row-by-row or zigzag, got '" + str(parser.value(opt("order"))) + "'");
    }
    const QString figure = parser.value(opt("out"));
    if (!figure.isEmpty()) {
        requireFigures("sweep --out");
        const QString suffix = QFileInfo(figure).suffix().toLower();
        if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
            throw UsageError("--out: '" + str(figure) + "' should end in .png, .svg or .pdf");
        if (!QFileInfo(figure).absoluteDir().exists())
            throw UsageError("--out: the folder of '" + str(figure) + "' does not exist");
    }
    std::vector<KernelBlockedParams> members;
    for (std::int64_t b = range.from; b <= range.to; ++b) {
        const std::vector<KernelBlockedParams> m = kernelBlockedMembers(problem, b, true);
        members.insert(members.end(), m.begin(), m.end());
    }
    checkFamilyBudget(parser, problem, members);

    SimulationOptions quick = options;
    quick.functional = false; // the rows rank strategies; `simulate` checks one
    quick.trace = false;
    const std::vector<KernelBlockSweepRow> rows = sweepKernelBlocks(problem, range.from, range.to, groupSize, order, quick);
    endProgressLine(parser);

    if (parser.isSet(opt("json"))) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const KernelBlockSweepRow &r : rows)
            list.push_back({{"kernel_block", r.kernel_block},
                {"kernels_outer", r.kernels_outer ? memberToJson(*r.kernels_outer) : nlohmann::ordered_json(nullptr)},
                {"patches_outer", r.patches_outer ? memberToJson(*r.patches_outer) : nlohmann::ordered_json(nullptr)}});
        print(nlohmann::ordered_json{{"layer", problemSummary(problem)}, {"kernel_blocks", list}}.dump(2) + "\n");
    } else if (parser.isSet(opt("csv"))) {
        std::ostringstream out;
        out << "kernel_block,loop,order,group_size,valid,total_duration,loaded_input,loaded_kernels,peak_footprint\n";
        for (const KernelBlockSweepRow &r : rows)
            for (const std::optional<FamilyMember> *m : {&r.kernels_outer, &r.patches_outer})
                if (*m)
                    out << r.kernel_block << ',' << kernelLoopName((*m)->params.loop) << ',' << patchOrderName((*m)->params.order)
                        << ',' << (*m)->params.group_size << ',' << ((*m)->row.valid ? "yes" : "no") << ','
                        << formatNumber((*m)->row.total_duration) << ',' << (*m)->row.loaded_input << ','
                        << (*m)->row.loaded_kernels << ',' << (*m)->row.peak_footprint << '\n';
        print(out.str());
    } else {
        std::ostringstream out;
        char line[256];
        std::snprintf(line, sizeof line, "%5s %14s %-9s %14s %-9s  %s\n", "B", "kernels-outer", "", "patches-outer", "", "best");
        out << line;
        for (const KernelBlockSweepRow &r : rows) {
            const auto duration
                = [](const std::optional<FamilyMember> &m) { return m && m->row.valid ? m->row.total_duration : -1.0; };
            const double ko = duration(r.kernels_outer), po = duration(r.patches_outer);
            const char *best = ko < 0 && po < 0  ? "-"
                : po < 0 || (ko >= 0 && ko < po) ? "kernels-outer"
                : ko < 0 || po < ko              ? "patches-outer"
                                                 : "tie";
            std::snprintf(line, sizeof line, "%5lld %14s %-9s %14s %-9s  %s\n", static_cast<long long>(r.kernel_block),
                cell(r.kernels_outer).c_str(), params(r.kernels_outer).c_str(), cell(r.patches_outer).c_str(),
                params(r.patches_outer).c_str(), best);
            out << line;
        }
        out << "(zz = zigzag, rr = row-by-row; - = no valid strategy; * = invalid on this hardware)\n";
        print(out.str());
    }
    if (!figure.isEmpty()) {
        writeKernelBlocksFigure(rows, figure);
        std::cerr << "Wrote " << str(figure) << "\n";
    }
    return 0;
}

bool isStepsCsv(const QCommandLineParser &parser, const QString &file)
{
    if (parser.isSet(opt("kernel-steps")))
        return true;
    // The first line, read through the checks every reader has (a FIFO, a
    // device or a directory is refused by name before a byte is read; the
    // cap is the largest of the three readers', each checks its own).
    struct FirstLineRead { };
    std::string head;
    try {
        readFileInChunks(str(file), kMaxSolutionFileBytes, [&head](std::string_view chunk) {
            head.append(chunk.substr(0, std::min<std::size_t>(chunk.size(), 4096 - head.size())));
            if (head.size() >= 4096 || head.find('\n') != std::string::npos)
                throw FirstLineRead{};
        });
    } catch (const FirstLineRead &) {
    }
    QString first = QString::fromStdString(head.substr(0, head.find('\n'))).toLower();
    first.remove(QLatin1Char(' ')).remove(QLatin1Char('\t')).remove(QLatin1Char('\r'));
    first.remove(QChar(0xfeff));
    first.replace(QLatin1Char(';'), QLatin1Char(','));
    return first == QLatin1String("step,patch,kernel");
}

int importStepsCsv(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath, const QString &file)
{
    const Problem &problem = loaded.project.problem;
    std::string name = str(parser.value(opt("save")));
    if (parser.isSet(opt("save")) && name.empty())
        throw UsageError("--save: the strategy needs a name");
    if (!name.empty() && loaded.project.findStrategy(name))
        throw UsageError("--save: the project already has a strategy named '" + name + "'");
    if (name.empty())
        name = str(QFileInfo(file).completeBaseName());

    StrategySpec spec;
    spec.name = name;
    spec.kind = StrategyKind::Steps;
    spec.steps = loadComputeStepsCsv(problem.layer, str(file));
    // Ids out of range and empty steps cannot be expanded: the file is
    // unusable (exit 1, the step and element named). A pair computed twice
    // or never is a finding of the simulation, printed with the result.
    try {
        computeStepsOf(problem, spec);
    } catch (const StrategyError &e) {
        throw UsageError(str(file) + ": " + e.what());
    }
    SimulationOptions options;
    options.trace = false;
    options.seed = loaded.project.data.seed;
    options.data = loaded.tensors ? &*loaded.tensors : nullptr;
    options.functional = !parser.isSet(opt("no-functional"));
    options.cancel = interruptFlag();
    const SimulationResult result = simulateStrategy(problem, spec, options);
    std::cout << "Imported '" << name << "': " << spec.steps.size() << " steps, duration " << formatNumber(result.totalDuration())
              << ", " << result.loadedInput() << " input and " << result.loadedKernels()
              << " kernel elements loaded, functional check " << functionalStatusName(result.functional.status) << "; "
              << verdictSummary(verdictOf(result)) << "\n";
    for (const Diagnostic &d : result.diagnostics)
        std::cout << (d.severity == Severity::Error ? "  error: "
                : d.rule == Rule::ReloadBound       ? "  assumption: "
                                                    : "  warning: ")
                  << d.message << "\n";
    if (parser.isSet(opt("save"))) {
        Project project = loaded.project;
        project.strategies.push_back(spec);
        saveProject(project, str(projectPath));
        std::cout << "Added strategy '" << name << "' to " << str(projectPath) << "\n";
    }
    return 0;
}

} // namespace convoffload::cli
