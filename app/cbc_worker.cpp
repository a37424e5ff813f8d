// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-cbc-worker: solves one MIP with CBC in its own process, so a
// solver crash or a runaway search can never take the application down.
//
//   convoffload-cbc-worker MODEL.mps [--start START.sol] [--time-limit SECONDS]
//
// START.sol is a CBC solution file (a status line, then "index name value"
// lines); it seeds the search with a known strategy. The protocol goes to
// stdout, one record a line (CBC's own chatter is sent to stderr):
//   convoffload-cbc-worker 1               first line
//   progress SECONDS INCUMBENT|- BOUND|-   at most 10 a second
//   status optimal|feasible|infeasible|no-solution
//   objective VALUE | bound VALUE | seconds VALUE
//   col NAME VALUE                         every nonzero column
//   end                                    last line of a complete answer
//   error MESSAGE                          on failure, exit code 2
// SIGTERM or SIGINT stops the search at CBC's next event and the best solution
// so far is reported; before the search has begun they end the worker (exit 3).
// MODEL.mps and START.sol must be regular files (a FIFO, a device such as
// /dev/zero or a directory is refused at once, exit 2), and --time-limit
// holds before the search too: CBC looks at its clock only once it searches,
// so reading a huge file or a root LP that runs over the limit by more than
// kLateSeconds ends the worker with an error line (exit 3). Names from the
// command line are printed escaped (printable), one record a line.
#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinTime.hpp>
#include <OsiClpSolverInterface.hpp>

#include "convoffload/io/FormatError.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

// Signal handlers can only reach globals; these two are the worker's only ones.
volatile std::sig_atomic_t stopRequested = 0;
enum Phase { BeforeSearch, Searching, Reporting };
std::atomic<int> phase{BeforeSearch};

// The protocol's descriptor and the error line written there when the time
// limit passes before the search has begun (signal handlers reach globals).
int protocolDescriptor = -1;
std::string lateMessage;
/// CBC is given the time limit; the worker ends itself this much later when
/// CBC has not started to search by then (the parent asks it to stop a
/// second after the limit and kills it half a second later).
constexpr unsigned kLateSeconds = 2;

extern "C" void onStopSignal(int)
{
    stopRequested = 1;
    // Before the first event (reading, presolve, a root LP that can take
    // minutes) nothing polls the flag and there is nothing to report yet.
    if (phase.load() == BeforeSearch)
        _exit(3);
}

/// SIGALRM at the time limit plus kLateSeconds: before the search, the
/// error line and exit 3; during it, a stop as SIGTERM asks.
extern "C" void onLate(int)
{
    if (phase.load() == BeforeSearch) {
        [[maybe_unused]] const ssize_t written = write(protocolDescriptor, lateMessage.data(), lateMessage.size());
        _exit(3);
    }
    stopRequested = 1;
}

void installStopHandlers()
{
    struct sigaction action { };
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);
}

void installTimeLimit(double seconds)
{
    if (!(seconds > 0))
        return;
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", seconds);
    lateMessage = std::string("error the time limit of ") + limit
        + " s was reached before the search began (reading the model and the MIP start, presolve, the root LP)\n";
    struct sigaction action { };
    action.sa_handler = onLate;
    sigemptyset(&action.sa_mask);
    sigaction(SIGALRM, &action, nullptr);
    alarm(unsigned(std::min(std::ceil(seconds), 1e9)) + kLateSeconds);
}

/// Why `path` cannot be read as an input file, empty when it can: it must
/// be a regular file (a FIFO or a device such as /dev/zero would be read
/// for ever, a directory not at all) that this process may read.
std::string unreadableFile(const std::string &path, const char *what)
{
    const std::string name = std::string(what) + " '" + convoffload::printable(path) + "'";
    struct stat st { };
    if (stat(path.c_str(), &st) != 0)
        return "cannot read " + name + ": " + std::strerror(errno);
    if (!S_ISREG(st.st_mode))
        return name + " is not a regular file (" + (S_ISDIR(st.st_mode) ? "a directory" : "a FIFO, a device or a socket") + ")";
    if (access(path.c_str(), R_OK) != 0)
        return "cannot read " + name + ": " + std::strerror(errno);
    return {};
}

/// Writes protocol records on the saved stdout, flushed per line so the
/// parent sees progress as it happens.
class Protocol {
public:
    explicit Protocol(int fd)
        : m_out(fdopen(fd, "w"))
    {
    }
    template <typename... Args> void line(const char *format, Args... args)
    {
        std::fprintf(m_out, format, args...);
        std::fputc('\n', m_out);
        std::fflush(m_out);
    }

private:
    FILE *m_out;
};

std::string number(double value) { return std::isfinite(value) && std::fabs(value) < 1e30 ? std::to_string(value) : "-"; }

/// Reports progress at most ten times a second and stops the search when asked.
class ProgressHandler : public CbcEventHandler {
public:
    ProgressHandler(Protocol &protocol, double start)
        : m_protocol(&protocol)
        , m_start(start)
    {
    }
    CbcEventHandler *clone() const override { return new ProgressHandler(*this); }

    CbcAction event(CbcEvent whichEvent) override
    {
        int expected = BeforeSearch;
        phase.compare_exchange_strong(expected, Searching);
        const double now = CoinGetTimeOfDay();
        if (now - m_lastReport >= 0.1 || whichEvent == solution || whichEvent == heuristicSolution) {
            m_lastReport = now;
            const bool hasIncumbent = model_->bestSolution() != nullptr;
            m_protocol->line("progress %.3f %s %s", now - m_start, hasIncumbent ? number(model_->getObjValue()).c_str() : "-",
                number(model_->getBestPossibleObjValue()).c_str());
        }
        return stopRequested ? stop : noAction;
    }

private:
    Protocol *m_protocol;
    double m_start;
    double m_lastReport = 0;
};

struct Arguments {
    std::string model, start;
    double time_limit = 0;
};

bool parseArguments(int argc, char **argv, Arguments &args, std::string &error)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--start" || a == "--time-limit") && i + 1 >= argc) {
            error = a + " needs a value";
            return false;
        }
        if (a == "--start") {
            args.start = argv[++i];
        } else if (a == "--time-limit") {
            char *end = nullptr;
            args.time_limit = std::strtod(argv[++i], &end);
            if (*end != '\0' || !(args.time_limit > 0)) {
                error = "--time-limit needs a positive number of seconds";
                return false;
            }
        } else if (args.model.empty() && !a.starts_with("-")) {
            args.model = a;
        } else {
            error = "unexpected argument '" + a + "'";
            return false;
        }
    }
    if (args.model.empty())
        error = "usage: convoffload-cbc-worker MODEL.mps [--start START.sol] [--time-limit SECONDS]";
    return error.empty();
}

} // namespace

int main(int argc, char **argv)
{
    // Keep the real stdout for the protocol; CBC prints freely to fd 1.
    const int protocolFd = dup(STDOUT_FILENO);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    Protocol protocol(protocolFd);
    protocol.line("convoffload-cbc-worker 1");

    Arguments args;
    std::string error;
    if (!parseArguments(argc, argv, args, error)) {
        protocol.line("error %s", convoffload::printable(error).c_str());
        return 2;
    }
    for (const auto &[path, what] : {std::pair{args.model, "the MPS file"}, std::pair{args.start, "the MIP start"}})
        if (!path.empty())
            if (const std::string why = unreadableFile(path, what); !why.empty()) {
                protocol.line("error %s", why.c_str());
                return 2;
            }
    protocolDescriptor = protocolFd;
    installStopHandlers();
    installTimeLimit(args.time_limit);
    const double start = CoinGetTimeOfDay();

    OsiClpSolverInterface solver;
    solver.messageHandler()->setLogLevel(0);
    if (solver.readMps(args.model.c_str(), "") != 0) {
        protocol.line("error cannot read the MPS file '%s'", convoffload::printable(args.model).c_str());
        return 2;
    }

    CbcModel model(solver);
    CbcSolverUsefulData data;
    CbcMain0(model, data);
    data.noPrinting_ = true;
    ProgressHandler handler(protocol, start);
    model.passInEventHandler(&handler);

    // CbcMain1 is the cbc command line's driver: preprocessing, cuts and
    // heuristics as the CLI runs them, plus the MIP start reader.
    std::vector<std::string> words{"convoffload-cbc-worker", "-log", "0", "-slog", "0"};
    if (args.time_limit > 0)
        words.insert(words.end(), {"-timeMode", "elapsed", "-seconds", std::to_string(args.time_limit)});
    if (!args.start.empty())
        words.insert(words.end(), {"-mipstart", args.start});
    words.insert(words.end(), {"-solve", "-quit"});
    std::vector<const char *> argvCbc;
    for (const std::string &w : words)
        argvCbc.push_back(w.c_str());
    CbcMain1(
        int(argvCbc.size()), argvCbc.data(), model, [](CbcModel *, int) { return 0; }, data);
    phase.store(Reporting);

    const double *solution = model.bestSolution();
    const char *status = "no-solution";
    if (model.isProvenOptimal() && solution)
        status = "optimal";
    else if (model.isProvenInfeasible())
        status = "infeasible";
    else if (solution)
        status = "feasible";
    protocol.line("status %s", status);
    if (solution)
        protocol.line("objective %.9g", model.getObjValue());
    protocol.line("bound %s", number(model.getBestPossibleObjValue()).c_str());
    protocol.line("seconds %.3f", CoinGetTimeOfDay() - start);
    if (solution) {
        const OsiSolverInterface *final = model.solver();
        for (int c = 0; c < model.getNumCols(); ++c)
            if (std::fabs(solution[c]) > 1e-6)
                protocol.line("col %s %.9g", final->getColName(c).c_str(), solution[c]);
    }
    protocol.line("end");
    return 0;
}
