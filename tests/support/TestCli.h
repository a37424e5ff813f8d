// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs a program (by default the command-line tool under test) and keeps its
// exit code and output: the one way the CLI suites call it.
#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

struct ProcessRun {
    int exitCode = -1; // -1: crashed, killed or timed out
    QByteArray out, err;
};

inline ProcessRun runProgram(const QString &program, const QStringList &args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

#ifdef CONVOFFLOAD_CLI
inline ProcessRun cli(const QStringList &args) { return runProgram(QStringLiteral(CONVOFFLOAD_CLI), args); }
#endif
