// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The design-space commands of convoffload-cli (docs/reference/explore.md):
// `explore` evaluates a network at every point (or a shard's points) of a
// product of hardware lists into JSON Lines; `merge` joins the shards' files.
#include "CliCommon.h"

#include <QCommandLineParser>
#include <QStringList>

namespace convoffload::cli {

void addExploreOptions(QCommandLineParser &parser);

int exploreCommand(const QCommandLineParser &parser, const QString &targetPath);
int mergeCommand(const QCommandLineParser &parser, const QStringList &files);

} // namespace convoffload::cli
