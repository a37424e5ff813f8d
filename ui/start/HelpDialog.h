// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small window showing one help text (the guide or the shortcuts) as rich
// text, with links opened by the desktop.

#include <QDialog>

QT_BEGIN_NAMESPACE
class QTextBrowser;
QT_END_NAMESPACE

namespace convoffload::ui {

class HelpDialog : public QDialog {
    Q_OBJECT
public:
    HelpDialog(const QString &title, const QString &html, QWidget *parent = nullptr);
    QString html() const;

private:
    QTextBrowser *m_text;
};

} // namespace convoffload::ui
