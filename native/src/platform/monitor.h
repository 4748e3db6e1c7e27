// A lock and a condition waited on under it (the debugger thread's queue). On Windows the system's
// SRW lock and condition variable, which wake a waiter in user mode: mingw-w64's
// std::condition_variable is built on winpthreads' semaphores, kernel objects whose every wake-up
// is a system call (under Wine a wineserver round trip, on both sides of each queued callback).
// Elsewhere the standard ones. A BasicLockable: std::lock_guard<Monitor> holds it.
#pragma once

#if defined(_WIN32)

namespace dbg {

class Monitor {
 public:
  void lock();
  void unlock();
  /** Held: releases the lock until NotifyOne (or a spurious wake-up), then holds it again. */
  void Wait();
  void NotifyOne();

 private:
  void* lock_ = nullptr;       // an SRWLOCK: SRWLOCK_INIT is a null pointer
  void* condition_ = nullptr;  // a CONDITION_VARIABLE: CONDITION_VARIABLE_INIT likewise
};

}  // namespace dbg

#else

#include <condition_variable>
#include <mutex>

namespace dbg {

class Monitor {
 public:
  void lock() { mutex_.lock(); }
  void unlock() { mutex_.unlock(); }
  void Wait() {
    std::unique_lock<std::mutex> held(mutex_, std::adopt_lock);
    condition_.wait(held);
    held.release();  // still held: the caller's guard unlocks it
  }
  void NotifyOne() { condition_.notify_one(); }

 private:
  std::mutex mutex_;
  std::condition_variable condition_;
};

}  // namespace dbg

#endif
