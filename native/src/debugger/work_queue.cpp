#include "work_queue.h"


namespace dbg {

WorkQueue::WorkQueue() : thread_([this] { Run(); }) {}

WorkQueue::~WorkQueue() {
  Stop();
}

void WorkQueue::Post(std::function<void()> work) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    items_.push_back(std::move(work));
  }
  ready_.notify_one();
}

void WorkQueue::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  ready_.notify_one();
  if (!thread_.joinable()) return;
  if (OnQueueThread()) {
    thread_.detach();
    return;
  }
  thread_.join();
}

void WorkQueue::RequestStop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_one();
}

void WorkQueue::Run() {
  while (true) {
    std::function<void()> work;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !items_.empty(); });
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
