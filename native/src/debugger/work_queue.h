// The debugger thread: one thread that owns every ICorDebug object and runs, in order, the commands
// from JavaScript and the callbacks mscordbi delivered on its own threads.
#pragma once

#include <deque>
#include <functional>
#include <thread>

#include "../platform/monitor.h"

namespace dbg {

class WorkQueue {
 public:
  WorkQueue();
  ~WorkQueue();  // stops and joins (or abandons a thread stuck in the runtime)
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  /** Queues work; after Stop the work is dropped (its captures are released on the caller's thread). */
  void Post(std::function<void()> work);
  /** Lets queued work finish, then ends the thread and joins it (unless called from it). */
  void Stop();
  /** Like Stop, without waiting: safe from the queue thread itself. */
  void RequestStop();
  bool OnQueueThread() const { return std::this_thread::get_id() == thread_.get_id(); }

 private:
  void Run();
  Monitor monitor_;
  std::deque<std::function<void()>> items_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace dbg
