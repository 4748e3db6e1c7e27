#include "../import_patch.h"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "../../util/log.h"

namespace dbg {

namespace {

#if defined(__x86_64__)
constexpr uint32_t kJumpSlot = R_X86_64_JUMP_SLOT;
constexpr uint32_t kGlobDat = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
constexpr uint32_t kJumpSlot = R_AARCH64_JUMP_SLOT;
constexpr uint32_t kGlobDat = R_AARCH64_GLOB_DAT;
#else
#error "import_patch supports x86-64 and aarch64"
#endif

struct Request {
  const char* library;
  const ImportHook* hooks;
  size_t count;
  int patched = 0;
};

/** The tables a loaded object's dynamic section points at. */
struct DynamicTables {
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  const ElfW(Rela)* plt = nullptr;
  size_t pltBytes = 0;
  const ElfW(Rela)* rela = nullptr;
  size_t relaBytes = 0;
};

bool EndsWithLibrary(const char* path, const char* library) {
  if (!path) return false;
  size_t pathLength = std::strlen(path), nameLength = std::strlen(library);
  return pathLength > nameLength && path[pathLength - nameLength - 1] == '/' &&
         std::strcmp(path + pathLength - nameLength, library) == 0;
}

/** glibc rewrites these entries to run-time addresses when it loads an object; other loaders may not. */
uintptr_t Address(ElfW(Addr) value, uintptr_t base) { return value < base ? value + base : value; }

DynamicTables ReadDynamic(const ElfW(Dyn)* dynamic, uintptr_t base) {
  DynamicTables t;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: t.symbols = reinterpret_cast<const ElfW(Sym)*>(Address(d->d_un.d_ptr, base)); break;
      case DT_STRTAB: t.strings = reinterpret_cast<const char*>(Address(d->d_un.d_ptr, base)); break;
      case DT_JMPREL: t.plt = reinterpret_cast<const ElfW(Rela)*>(Address(d->d_un.d_ptr, base)); break;
      case DT_PLTRELSZ: t.pltBytes = d->d_un.d_val; break;
      case DT_RELA: t.rela = reinterpret_cast<const ElfW(Rela)*>(Address(d->d_un.d_ptr, base)); break;
      case DT_RELASZ: t.relaBytes = d->d_un.d_val; break;
      case DT_PLTREL:
        if (d->d_un.d_val != DT_RELA) t.pltBytes = 0;  // REL-style PLT relocations do not occur on these CPUs
        break;
    }
  }
  return t;
}

/** The protection the loader left on `address`: its segment's, or read-only inside PT_GNU_RELRO. */
int ProtectionAt(const dl_phdr_info* info, uintptr_t address) {
  int protection = PROT_READ | PROT_WRITE;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (address < start || address >= start + ph.p_memsz) continue;
    if (ph.p_type == PT_GNU_RELRO) return PROT_READ;
    if (ph.p_type == PT_LOAD) {
      protection = ((ph.p_flags & PF_R) ? PROT_READ : 0) | ((ph.p_flags & PF_W) ? PROT_WRITE : 0) |
                   ((ph.p_flags & PF_X) ? PROT_EXEC : 0);
    }
  }
  return protection;
}

bool WriteSlot(const dl_phdr_info* info, void** slot, void* value) {
  static const uintptr_t pageSize = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t page = reinterpret_cast<uintptr_t>(slot) & ~(pageSize - 1);
  int restore = ProtectionAt(info, reinterpret_cast<uintptr_t>(slot));
  // A slot is aligned, so it never straddles two pages.
  if (mprotect(reinterpret_cast<void*>(page), pageSize, PROT_READ | PROT_WRITE) != 0) return false;
  __atomic_store_n(slot, value, __ATOMIC_RELEASE);
  mprotect(reinterpret_cast<void*>(page), pageSize, restore);
  return true;
}

void PatchTable(const dl_phdr_info* info, const DynamicTables& t, const ElfW(Rela)* table, size_t bytes,
                Request& request) {
  if (!table || !t.symbols || !t.strings) return;
  for (size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
    const ElfW(Rela)& r = table[i];
    uint32_t type = ELF64_R_TYPE(r.r_info);
    if (type != kJumpSlot && type != kGlobDat) continue;
    const char* name = t.strings + t.symbols[ELF64_R_SYM(r.r_info)].st_name;
    for (size_t h = 0; h < request.count; ++h) {
      if (std::strcmp(name, request.hooks[h].name) != 0) continue;
      void** slot = reinterpret_cast<void**>(info->dlpi_addr + r.r_offset);
      if (*slot == request.hooks[h].replacement) break;
      if (WriteSlot(info, slot, request.hooks[h].replacement)) {
        ++request.patched;
      } else {
        Log("cannot make the GOT slot of %s in %s writable", name, info->dlpi_name);
      }
      break;
    }
  }
}

int VisitObject(dl_phdr_info* info, size_t, void* data) {
  auto& request = *static_cast<Request*>(data);
  if (!EndsWithLibrary(info->dlpi_name, request.library)) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
    auto* dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    DynamicTables tables = ReadDynamic(dynamic, info->dlpi_addr);
    PatchTable(info, tables, tables.plt, tables.pltBytes, request);
    PatchTable(info, tables, tables.rela, tables.relaBytes, request);
  }
  return 0;
}

}  // namespace

int PatchImports(const char* library, const ImportHook* hooks, size_t count) {
  Request request{library, hooks, count};
  dl_iterate_phdr(VisitObject, &request);
  return request.patched;
}

}  // namespace dbg
