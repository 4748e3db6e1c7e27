// The Windows test bed's `dotnet.exe` (a tool of the bed, not part of debugbridge): no NuGet package
// served here carries the real muxer, and there is no Windows .NET SDK to run under Wine. So:
//  - `dotnet.exe <app>.dll …`, `exec`, `--list-runtimes` run as the real muxer does, in this Windows
//    process: hostfxr from <this folder>\host\fxr\<version>\ with hostfxr_main_startupinfo, so a
//    program launched this way is a Windows .NET process the debugger can start and attach to;
//  - every SDK command (build, run, test, --version, …) is the Linux SDK's, run through a script
//    (Wine starts a Unix program but cannot wait for it nor pipe its output, so the script writes its
//    output and exit code to files this process waits for), with Z:\ paths turned into Linux ones on
//    the way in, Linux ones into Z:\ ones on the way out, and a path map so the PDBs hold the Windows
//    paths a build on Windows records.
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

typedef int(__cdecl *main_startupinfo_fn)(int, const wchar_t **, const wchar_t *, const wchar_t *, const wchar_t *);

static wchar_t self_dir[MAX_PATH];

static int run_muxer(int argc, const wchar_t **argv) {
  wchar_t pattern[MAX_PATH], fxr[MAX_PATH];
  swprintf(pattern, MAX_PATH, L"%ls\\host\\fxr\\*", self_dir);
  WIN32_FIND_DATAW found;
  HANDLE find = FindFirstFileW(pattern, &found);
  wchar_t version[MAX_PATH] = L"";
  if (find != INVALID_HANDLE_VALUE) {
    do {
      if (found.cFileName[0] != L'.' && wcscmp(found.cFileName, version) > 0) wcscpy(version, found.cFileName);
    } while (FindNextFileW(find, &found));
    FindClose(find);
  }
  swprintf(fxr, MAX_PATH, L"%ls\\host\\fxr\\%ls\\hostfxr.dll", self_dir, version);
  HMODULE module = LoadLibraryW(fxr);
  if (!module) {
    fwprintf(stderr, L"dotnet shim: cannot load %ls\n", fxr);
    return 0x80008083;
  }
  main_startupinfo_fn start = (main_startupinfo_fn)GetProcAddress(module, "hostfxr_main_startupinfo");
  wchar_t host[MAX_PATH];
  GetModuleFileNameW(NULL, host, MAX_PATH);
  // A muxer is told so by an app path that does not exist (an apphost's names its <app>.dll).
  wchar_t no_app[MAX_PATH];
  swprintf(no_app, MAX_PATH, L"%ls\\dotnet.dll", self_dir);
  return start(argc, argv, host, self_dir, no_app);
}

// Z:\a\b → /a/b, anywhere in an argument (a path, or -p:X=Z:\…).
static void to_linux(const wchar_t *in, char *out, size_t size) {
  char narrow[8192];
  WideCharToMultiByte(CP_UTF8, 0, in, -1, narrow, sizeof narrow, NULL, NULL);
  size_t o = 0;
  int in_path = 0;
  for (const char *p = narrow; *p && o + 1 < size; p++) {
    if ((p[0] == 'Z' || p[0] == 'z') && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) {
      in_path = 1;
      p++;
      continue;
    }
    out[o++] = (in_path && *p == '\\') ? '/' : *p;
  }
  out[o] = 0;
}

// Single-quoted for sh.
static void quote(const char *in, FILE *script) {
  fputc('\'', script);
  for (const char *p = in; *p; p++) {
    if (*p == '\'') fputs("'\\''", script);
    else fputc(*p, script);
  }
  fputc('\'', script);
}

// Absolute Linux paths in the SDK's output, as the Windows side sees them.
static void print_translated(FILE *from) {
  char line[16384];
  while (fgets(line, sizeof line, from)) {
    for (char *p = line; *p; p++) {
      int starts = *p == '/' && (p == line || strchr(" '\"(=[", p[-1])) &&
                   (strncmp(p, "/work/", 6) == 0 || strncmp(p, "/tmp/", 5) == 0 || strncmp(p, "/root/", 6) == 0 || strncmp(p, "/usr/", 5) == 0);
      if (!starts) {
        fputc(*p, stdout);
        continue;
      }
      fputs("Z:", stdout);
      for (; *p && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\'' && *p != '"' && *p != '(' && *p != ':'; p++) fputc(*p == '/' ? '\\' : *p, stdout);
      p--;
    }
  }
  fflush(stdout);
}

static int run_sdk(int argc, const wchar_t **argv) {
  char base[MAX_PATH], script_path[MAX_PATH], arg[8192], cwd_linux[8192];
  wchar_t cwd[MAX_PATH];
  GetCurrentDirectoryW(MAX_PATH, cwd);
  to_linux(cwd, cwd_linux, sizeof cwd_linux);
  snprintf(base, sizeof base, "/tmp/dbb-dotnet-shim-%lu-%lu", GetCurrentProcessId(), GetTickCount());
  snprintf(script_path, sizeof script_path, "Z:%s.sh", base);
  for (char *p = script_path + 2; *p; p++) if (*p == '/') *p = '\\';
  FILE *script = fopen(script_path, "wb");
  fputs("cd ", script);
  quote(cwd_linux, script);
  fputs(" && dotnet", script);
  const wchar_t *command = argc > 1 ? argv[1] : L"";
  int path_map = !wcscmp(command, L"build") || !wcscmp(command, L"run") || !wcscmp(command, L"test");
  // The path map goes to the compiler in a response file: MSBuild on Linux turns the backslashes of
  // a PathMap property into slashes, and Windows paths in a PDB are spelled with backslashes.
  char rsp_path[MAX_PATH], rsp_option[MAX_PATH + 32];
  snprintf(rsp_path, sizeof rsp_path, "Z:%s.rsp", base);
  for (char *p = rsp_path + 2; *p; p++) if (*p == '/') *p = '\\';
  snprintf(rsp_option, sizeof rsp_option, "-p:CompilerResponseFile=%s.rsp", base);
  if (path_map) {
    FILE *rsp = fopen(rsp_path, "wb");
    fputs("/pathmap:/=Z:\\\n", rsp);
    fclose(rsp);
  }
  for (int i = 1; i < argc; i++) {
    // The SDK's own options end at `--` (what follows is the program's, with `run`).
    if (path_map && !wcscmp(argv[i], L"--")) {
      fputc(' ', script);
      quote(rsp_option, script);
      path_map = 0;
    }
    fputc(' ', script);
    to_linux(argv[i], arg, sizeof arg);
    quote(arg, script);
  }
  if (path_map) {
    fputc(' ', script);
    quote(rsp_option, script);
  }
  fprintf(script, " > %s.out 2>&1 < /dev/null; echo $? > %s.rc.tmp; mv %s.rc.tmp %s.rc\n", base, base, base, base);
  fclose(script);

  wchar_t command_line[1024];
  swprintf(command_line, 1024, L"Z:\\bin\\sh %hs.sh", base);
  STARTUPINFOW si = {sizeof si};
  PROCESS_INFORMATION pi;
  if (!CreateProcessW(NULL, command_line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) {
    fprintf(stderr, "dotnet shim: cannot start /bin/sh (%lu)\n", GetLastError());
    return 1;
  }
  char rc_path[MAX_PATH], out_path[MAX_PATH];
  snprintf(rc_path, sizeof rc_path, "Z:%s.rc", base);
  snprintf(out_path, sizeof out_path, "Z:%s.out", base);
  FILE *rc_file;
  while (!(rc_file = fopen(rc_path, "rb"))) Sleep(100);
  int rc = 1;
  if (fscanf(rc_file, "%d", &rc) != 1) rc = 1;
  fclose(rc_file);
  FILE *out = fopen(out_path, "rb");
  if (out) {
    print_translated(out);
    fclose(out);
  }
  DeleteFileA(rc_path);
  DeleteFileA(out_path);
  DeleteFileA(script_path);
  DeleteFileA(rsp_path);
  return rc;
}

int wmain(int argc, const wchar_t **argv) {
  GetModuleFileNameW(NULL, self_dir, MAX_PATH);
  *wcsrchr(self_dir, L'\\') = 0;
  const wchar_t *first = argc > 1 ? argv[1] : L"";
  size_t length = wcslen(first);
  int managed = (length > 4 && !_wcsicmp(first + length - 4, L".dll")) || !wcscmp(first, L"exec") || !wcscmp(first, L"--list-runtimes");
  return managed ? run_muxer(argc, argv) : run_sdk(argc, argv);
}
