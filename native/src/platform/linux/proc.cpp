#include "proc.h"

#include <signal.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace dbg::linux_proc {

uint64_t StartTime(uint32_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return 0;
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  auto close = line.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  for (int index = 3; rest >> field; ++index) {
    if (index == 22) return std::strtoull(field.c_str(), nullptr, 10);
  }
  return 0;
}

LoadedModule FindCoreClr(uint32_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  static const std::string name = "/libcoreclr.so";
  while (std::getline(in, line)) {
    // start-end perms offset dev inode path
    std::istringstream fields(line);
    std::string range, perms, offset, dev, inode, path;
    if (!(fields >> range >> perms >> offset >> dev >> inode)) continue;
    std::getline(fields >> std::ws, path);
    if (inode == "0" || path.size() < name.size()) continue;
    if (path.compare(path.size() - name.size(), name.size(), name) != 0) continue;
    if (std::strtoull(offset.c_str(), nullptr, 16) != 0) continue;
    return {path, std::strtoull(range.c_str(), nullptr, 16)};
  }
  return {};
}

std::string TransportPipe(uint32_t pid, uint64_t key, const char* direction) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = (tmp && *tmp) ? tmp : "/tmp/";
  if (dir.back() != '/') dir += '/';
  // Decimal here, unlike the hex of the semaphore names (runtime twowaypipe / PAL).
  return dir + "clr-debug-pipe-" + std::to_string(pid) + "-" + std::to_string(key) + "-" + direction;
}

bool IsAlive(uint32_t pid) {
  if (kill(static_cast<pid_t>(pid), 0) == 0) return true;
  return errno == EPERM;
}

}  // namespace dbg::linux_proc
