#include "work_queue.h"

#include <mutex>


namespace dbg {

WorkQueue::WorkQueue() : thread_([this] { Run(); }) {}

WorkQueue::~WorkQueue() {
  Stop();
}

void WorkQueue::Post(std::function<void()> work) {
  {
    std::lock_guard<Monitor> lock(monitor_);
    if (stopping_) return;
    items_.push_back(std::move(work));
  }
  monitor_.NotifyOne();
}

void WorkQueue::Stop() {
  {
    std::lock_guard<Monitor> lock(monitor_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  monitor_.NotifyOne();
  if (!thread_.joinable()) return;
  if (OnQueueThread()) {
    thread_.detach();
    return;
  }
  thread_.join();
}

void WorkQueue::RequestStop() {
  {
    std::lock_guard<Monitor> lock(monitor_);
    stopping_ = true;
  }
  monitor_.NotifyOne();
}

void WorkQueue::Run() {
  while (true) {
    std::function<void()> work;
    {
      std::lock_guard<Monitor> lock(monitor_);
      while (!stopping_ && items_.empty()) monitor_.Wait();
      if (items_.empty()) return;
      work = std::move(items_.front());
      items_.pop_front();
    }
    // No C++ exception may end the debugger thread: the command layer answers its own, this
    // catches what a callback handler might throw.
    try {
      work();
    } catch (...) {
    }
  }
}

}  // namespace dbg
