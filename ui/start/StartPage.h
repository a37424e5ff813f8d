// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the window shows when started with no file: start a new project, open
// one, reopen a recent file, or open a bundled sample; and where to read how.

#include <QWidget>

QT_BEGIN_NAMESPACE
class QListWidget;
QT_END_NAMESPACE

namespace convoffload::ui {

class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget *parent = nullptr);

    /// Reads the recent files again (QSettings "recentFiles").
    void refresh();
    QListWidget *recentList() const { return m_recent; }
    QListWidget *sampleList() const { return m_samples; }

signals:
    void newProjectRequested();
    void openRequested();
    void fileRequested(const QString &path);
    /// A bundled sample, by file name (BundledSamples).
    void sampleRequested(const QString &file);
    void guideRequested();

private:
    QListWidget *m_recent;
    QListWidget *m_samples;
};

} // namespace convoffload::ui
