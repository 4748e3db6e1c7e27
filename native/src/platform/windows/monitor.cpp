#include "../monitor.h"

#include <windows.h>

namespace dbg {

static_assert(sizeof(SRWLOCK) == sizeof(void*) && sizeof(CONDITION_VARIABLE) == sizeof(void*), "SRWLOCK and CONDITION_VARIABLE are one pointer");

void Monitor::lock() { AcquireSRWLockExclusive(reinterpret_cast<PSRWLOCK>(&lock_)); }

void Monitor::unlock() { ReleaseSRWLockExclusive(reinterpret_cast<PSRWLOCK>(&lock_)); }

void Monitor::Wait() { SleepConditionVariableSRW(reinterpret_cast<PCONDITION_VARIABLE>(&condition_), reinterpret_cast<PSRWLOCK>(&lock_), INFINITE, 0); }

void Monitor::NotifyOne() { WakeConditionVariable(reinterpret_cast<PCONDITION_VARIABLE>(&condition_)); }

}  // namespace dbg
