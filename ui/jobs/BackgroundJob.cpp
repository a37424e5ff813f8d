// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "jobs/BackgroundJob.h"

#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace convoffload::ui {

namespace {

// Not QThreadPool::globalInstance(): Qt's raster engine splits some drawing
// over that pool and waits for it, so long work there freezes painting. And
// every job is something the user started or waits for (the simulation on
// show, a ten-minute optimisation, the sweep): rather than queue one unseen
// behind another, they share the cores.
struct JobPool : QThreadPool {
    JobPool()
    {
        setObjectName(QStringLiteral("BackgroundJob pool"));
        setMaxThreadCount(std::max(8, QThread::idealThreadCount()));
    }
};
Q_GLOBAL_STATIC(JobPool, jobPool)

} // namespace

BackgroundJobBase::BackgroundJobBase(QObject *parent)
    : QObject(parent)
{
}

void BackgroundJobBase::cancel()
{
    if (m_running && m_cancel)
        m_cancel->store(true);
}

void BackgroundJobBase::waitForWorker()
{
    // A run still queued in the pool is taken out and run on this thread; after
    // cancel() the core gives up at its first check.
    m_future.waitForFinished();
}

void BackgroundJobBase::launch(std::shared_ptr<std::atomic<bool>> cancel, std::function<void()> task)
{
    m_cancel = std::move(cancel);
    m_running = true;
    m_future = QtConcurrent::run(static_cast<QThreadPool *>(jobPool()), std::move(task));
    emit started();
}

void BackgroundJobBase::cancelAndWait()
{
    cancel();
    waitForWorker();
}

} // namespace convoffload::ui
