/**
 * Which loaded scripts an edited file is, and the text each should run now: JavaScript as it is on
 * disk; TypeScript compiled again by the compiler the program runs it through (tsRecompile.ts), with
 * the new map. A script compiled from several files (a bundle) is not rebuilt here.
 */
import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { LiveEditChange } from '../../core/engine.js';
import { codeChanges } from './codeChanges.js';
import { coarseChange, V8_CHUNK_LEN_LIMIT } from './v8LineDiff.js';
import { isTypeScript, type TypeScriptRunner } from './launchPlan.js';
import type { NodeTarget } from './nodeTarget.js';
import { isDependency, pathOfUrl, type ScriptInfo } from './scriptRegistry.js';
import type { Recompiler } from './tsRecompile.js';

/** A file's mtime this close before a script's load may still be the text it loaded (clocks tick coarsely). */
const MTIME_SLACK_MS = 2000;

/** One script of one isolate that runs an edited file. */
export interface ScriptOfFile {
  file: string;
  target: NodeTarget;
  script: ScriptInfo;
  /** The script is compiled from the file (its source map leads there): the file is compiled again. */
  compiled: boolean;
  /** Files the script is compiled from, when more than one (a bundle). */
  bundledFrom?: number;
}

/** A script's new text, ready to be given to V8. */
export interface PlannedEdit extends ScriptOfFile {
  loaded: string;
  next: string;
  /** The new text's source map (mapped scripts). */
  map?: object;
  items: string[];
  /** Whether the edit changes the function a paused frame at this 0-based place of the loaded text runs. */
  changesFunctionAt(line: number, column: number): boolean;
  restartTopFrame: boolean;
}

export interface EditSources {
  runner?: TypeScriptRunner;
  recompiler(runner: TypeScriptRunner, file: string): Promise<Recompiler | undefined>;
}

/** The scripts that run each file; `files` undefined: those whose file changed on disk since the script got its text. */
export async function scriptsOfFiles(targets: NodeTarget[], files: string[] | undefined): Promise<ScriptOfFile[]> {
  const found: ScriptOfFile[] = [];
  const wanted = files && new Map(files.map((f) => [realPath(f), f]));
  for (const target of targets) {
    const scripts = wanted ? target.scripts.fileScripts() : target.scripts.userScripts();
    for (const script of scripts) {
      const map = await target.scripts.mapOf(script);
      const own = pathOfUrl(script.url);
      const sources = map?.sources ?? [];
      const ofFile = (source: string, compiled: boolean) => {
        const file = wanted ? wanted.get(realPath(source)) : isDependency(source) ? undefined : source;
        if (file && (wanted || changedSince(file, script.sourceAt))) found.push({ file, target, script, compiled, bundledFrom: compiled && sources.length > 1 ? sources.length : undefined });
      };
      for (const source of sources) ofFile(source, true);
      // The script's own file, when no map names it (or when the caller names the file itself).
      if (own && !sources.some((s) => realPath(s) === realPath(own)) && (wanted || !sources.length)) ofFile(own, false);
    }
  }
  return found;
}

/** The new text of one script, or what became of the file instead (unchanged, refused). */
export async function planEdit(of: ScriptOfFile, sources: EditSources): Promise<PlannedEdit | LiveEditChange> {
  const { file } = of;
  const refused = (reason: string, nextStep: string): LiveEditChange => ({ file, status: 'refused', items: [], reason, nextStep });
  if (of.bundledFrom) return refused(`${basename(of.script.url)} is bundled from ${of.bundledFrom} files; only a script compiled from one file is compiled again here`, 'rebuild the bundle and session_restart');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return refused(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'check the path');
  }
  // The text the script was compiled from, where its map carries it: the same text is no change,
  // whatever compiling it again would give (a compiler set up otherwise answers other code).
  if (of.compiled && (await of.target.scripts.mapOf(of.script))?.contentOf(file) === text) return { file, status: 'unchanged', items: [] };
  const loaded = await of.target.scriptSource(of.script.scriptId);
  if (!of.compiled && isTypeScript(file)) return refused("node strips this TypeScript's types as it loads it; such a file is not compiled again here", 'session_restart runs the program with the edited file');
  let next = text;
  let map: object | undefined;
  if (of.compiled) {
    const runner = pathOfUrl(of.script.url) !== file ? 'compiled' : sources.runner && sources.runner !== 'compiled' && sources.runner !== 'node' ? sources.runner : 'tsx';
    const recompiler = await sources.recompiler(runner, file);
    if (!recompiler) return refused(`the compiler the program runs ${basename(file)} through (${runner}) cannot be loaded from ${file}`, 'session_restart runs the program with the edited file');
    try {
      ({ code: next, map } = await recompiler.compile(file, text, loaded));
    } catch (e) {
      return refused(`${recompiler.name}: ${compileError(e)}`, 'fix the file and call session_apply_changes again');
    }
  }
  const changes = codeChanges(withoutMapComment(loaded), next);
  if (withoutMapComment(loaded) === withoutMapComment(next) || (of.compiled && changes?.same)) {
    // The code is the same; a compiled file's lines may have moved (a comment added): its map follows.
    if (map) of.target.scripts.edited(of.script.scriptId, await loadedMapOf(map, of.script.url));
    return { file, status: 'unchanged', items: [] };
  }
  const items = changes ? (changes.same ? ['positions only (comments or whitespace)'] : changes.items) : [];
  const coarse = changes && coarseChange(loaded, next, changes.functionIn);
  if (coarse) {
    const what = of.compiled ? `the JavaScript ${basename(file)} is compiled to` : basename(file);
    return {
      ...refused(
        `V8 would accept this edit and leave every function that exists on its old code: it matches functions across an edit by a diff of lines, token by token only within changed lines under ${V8_CHUNK_LEN_LIMIT} characters, and line ${coarse.line} of ${what} has ${coarse.length}${of.compiled ? ' (the compiler writes the module on one line)' : ''}`,
        'session_restart runs the program with the edited file',
      ),
      items,
    };
  }
  const changesFunctionAt = (line: number, column: number) => !!changes?.changedAt(offsetOf(loaded, line, column));
  return { ...of, loaded, next, map, items, changesFunctionAt, restartTopFrame: false };
}

/** A compiler's map as the registry keeps maps (the mapping library loads with the first one). */
export async function loadedMapOf(map: object, scriptUrl: string) {
  const { LoadedMap } = await import('./loadedMap.js');
  return LoadedMap.of(map, scriptUrl);
}

function withoutMapComment(text: string): string {
  return text.replace(/\n?\/\/# sourceMappingURL=\S*\s*$/, '').trimEnd();
}

/** A compiler's error as one line with its place: esbuild's `file:5:16: ERROR: …`, TypeScript's diagnostics. */
function compileError(e: unknown): string {
  const errors = (e as { errors?: { text: string; location?: { line: number; column: number } }[] }).errors;
  const first = errors?.[0];
  if (first) return `${first.text}${first.location ? ` (line ${first.location.line}, column ${first.location.column + 1})` : ''}`;
  return (e as Error).message.split('\n')[0];
}

function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 0; l < line && at >= 0; l++) at = text.indexOf('\n', at) + 1;
  return at + column;
}

function changedSince(file: string, since: number): boolean {
  try {
    return statSync(file).mtimeMs >= since - MTIME_SLACK_MS;
  } catch {
    return false;
  }
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
