/**
 * A path map: the same files under one folder here and another where the program runs
 * (`~/code/shop` here is `/src` in the container). Paths cross between the two in both directions
 * through it (pathMappedEngine.ts, for a target and for a port attach alike); a path under no
 * mapping crosses unchanged (a file that exists only on the far side keeps its own path).
 */
import { homedir } from 'node:os';
import { posix, resolve } from 'node:path';
import type { BreakpointBinding, ExceptionInfo, FrameInfo, PendingTaskReport, ThreadDump } from './types.js';

export interface PathMapping {
  local: string;
  remote: string;
}

/** The mappings with each relative local path made absolute against `folder` (`~` stays: the map expands it). */
export function mappingsFrom(folder: string, mappings: PathMapping[]): PathMapping[] {
  return mappings.map((m) => ({ ...m, local: m.local.startsWith('~') ? m.local : resolve(folder, m.local) }));
}

type Prefixes = { from: string; to: string }[];

export class PathMap {
  private readonly toRemotePrefixes: Prefixes;
  private readonly toLocalPrefixes: Prefixes;

  constructor(mappings: PathMapping[] = []) {
    const pairs = mappings.map((m) => ({ local: trimSlash(resolve(expandHome(m.local))), remote: trimSlash(posix.resolve(m.remote)) }));
    // The longest prefix wins, so a nested mapping takes precedence over the folder around it.
    const byLength = (a: { from: string }, b: { from: string }) => b.from.length - a.from.length;
    this.toRemotePrefixes = pairs.map((p) => ({ from: p.local, to: p.remote })).sort(byLength);
    this.toLocalPrefixes = pairs.map((p) => ({ from: p.remote, to: p.local })).sort(byLength);
  }

  toRemote(path: string): string;
  toRemote(path: string | undefined): string | undefined;
  toRemote(path: string | undefined): string | undefined {
    return path === undefined ? undefined : swap(path, this.toRemotePrefixes);
  }

  toLocal(path: string): string;
  toLocal(path: string | undefined): string | undefined;
  toLocal(path: string | undefined): string | undefined {
    return path === undefined ? undefined : swap(path, this.toLocalPrefixes);
  }

  /** Every far-side folder of the map replaced where a path starts in a text the runtime wrote (a traceback). */
  textToLocal(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    return this.toLocalPrefixes.reduce((t, { from, to }) => t.replace(new RegExp(`(^|[\\s"'(\\[/])${escapeRegExp(from)}/`, 'gm'), (_, before: string) => `${before}${to}/`), text);
  }

  binding(b: BreakpointBinding): BreakpointBinding {
    return b.file === undefined ? b : { ...b, file: this.toLocal(b.file) };
  }

  frame(f: FrameInfo): FrameInfo {
    return f.file === undefined ? f : { ...f, file: this.toLocal(f.file) };
  }

  exception(e: ExceptionInfo | undefined): ExceptionInfo | undefined {
    if (!e) return e;
    const at = <T extends { file?: string }>(where: T | undefined): T | undefined => (where?.file === undefined ? where : { ...where, file: this.toLocal(where.file) });
    return {
      ...e,
      stackTrace: this.textToLocal(e.stackTrace),
      thrownAt: at(e.thrownAt),
      causes: e.causes?.map((c) => ({ ...c, thrownAt: at(c.thrownAt) })),
    };
  }

  /** Whether any path changes: an empty map needs no mapping at all. */
  get empty(): boolean {
    return this.toLocalPrefixes.length === 0;
  }

  pendingTasks(r: PendingTaskReport): PendingTaskReport {
    const frames = (fs: FrameInfo[]) => fs.map((f) => this.frame(f));
    return { ...r, tasks: r.tasks.map((t) => ({ ...t, frames: frames(t.frames) })), deadlocks: r.deadlocks.map((d) => ({ ...d, frames: frames(d.frames) })) };
  }

  dump(d: ThreadDump): ThreadDump {
    return { ...d, frames: d.frames.map((f) => this.frame(f)), holds: d.holds?.map((h) => (h.file === undefined ? h : { ...h, file: this.toLocal(h.file) })) };
  }
}

function swap(path: string, prefixes: Prefixes): string {
  for (const { from, to } of prefixes) {
    if (path === from) return to;
    if (path.startsWith(`${from}/`)) return to + path.slice(from.length);
  }
  return path;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path;
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
