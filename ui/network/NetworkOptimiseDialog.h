// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What Optimise network… asks before it starts: a time limit for the whole
// network, which is not reproducible (how far the search gets depends on the
// machine and its load: two runs with the same seed gave 254 039 and
// 254 071), or a number of moves per layer with a seed, which is (the same
// strategies on any machine, as `network --optimize --seed S --moves N
// --threads 1`).

#include <QDialog>

#include <cstdint>

class QDoubleSpinBox;
class QLabel;
class QRadioButton;
class QSpinBox;

namespace convoffload::ui {

struct NetworkOptimiseChoice {
    bool reproducible = false; // moves and seed instead of the time limit
    double time_limit_s = 10; // of the whole network
    std::int64_t moves = 100'000; // per layer, with `reproducible` (ResNet-8's slowest layer: seconds)
    std::uint64_t seed = 1;
};

class NetworkOptimiseDialog : public QDialog {
    Q_OBJECT
public:
    explicit NetworkOptimiseDialog(const NetworkOptimiseChoice &choice, QWidget *parent = nullptr);
    NetworkOptimiseChoice choice() const;

    /// The CLI command that repeats a reproducible run on `file`.
    static QString cliCommand(const NetworkOptimiseChoice &choice, const QString &file);

private:
    void updateEnabled();

    QRadioButton *m_byTime;
    QRadioButton *m_byMoves;
    QDoubleSpinBox *m_seconds;
    QSpinBox *m_moves;
    QSpinBox *m_seed;
};

} // namespace convoffload::ui
