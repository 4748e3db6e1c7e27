/**
 * Where targets are named: `targets` in the user's config file, in `debugbridge.json` of the
 * folder the server starts in, and `DEBUGBRIDGE_TARGETS` (the same JSON). All three are read and
 * merged by name, the later one winning a name: the user's file, then the folder's, then the
 * variable. A `local` path of a file's path map that is relative means the file's own folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { mappingsFrom } from '../core/pathMap.js';

/** A path map's shape, for a target and for a port attach alike. */
export const pathMappingsShape = z.array(z.strictObject({ local: z.string().min(1), remote: z.string().min(1) }));

const targetShape = z.strictObject({
  command: z.array(z.string().min(1)).min(1),
  pathMappings: pathMappingsShape.optional(),
});
const targetsShape = z.record(z.string().regex(/^[A-Za-z0-9][\w.-]*$/), targetShape);
/** A config file holds other settings too, later: only `targets` is read here. */
const fileShape = z.looseObject({ targets: targetsShape.optional() });

export type TargetDefinition = z.infer<typeof targetShape>;

export interface TargetSource {
  /** Where it was read: a file's path, or the variable's name. */
  where: string;
  definitions: Record<string, TargetDefinition>;
  /** Why it could not be read (it then names nothing). */
  problem?: string;
}

export const PROJECT_CONFIG = 'debugbridge.json';

/** The user's config file: $XDG_CONFIG_HOME/debugbridge/config.json (~/.config/… by default). */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'debugbridge', 'config.json');
}

/** Every source there is, lowest precedence first. */
export function readTargetSources(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): TargetSource[] {
  const sources: TargetSource[] = [];
  for (const file of [userConfigPath(env), resolve(cwd, PROJECT_CONFIG)]) {
    if (existsSync(file)) sources.push(readFile(file));
  }
  const text = env.DEBUGBRIDGE_TARGETS;
  if (text?.trim()) sources.push(parse('DEBUGBRIDGE_TARGETS', text, targetsShape, (t) => t));
  return sources;
}

function readFile(file: string): TargetSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { where: file, definitions: {}, problem: `${file} could not be read: ${(e as Error).message}` };
  }
  const source = parse(file, text, fileShape, (f) => f.targets ?? {});
  // The file's own folder for a relative local path ("." is the project the file sits in).
  for (const definition of Object.values(source.definitions)) {
    if (definition.pathMappings) definition.pathMappings = mappingsFrom(dirname(file), definition.pathMappings);
  }
  return source;
}

function parse<T>(where: string, text: string, shape: z.ZodType<T>, targetsOf: (parsed: T) => Record<string, TargetDefinition>): TargetSource {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { where, definitions: {}, problem: `${where} is not JSON: ${(e as Error).message}` };
  }
  const parsed = shape.safeParse(json);
  if (parsed.success) return { where, definitions: targetsOf(parsed.data) };
  const issue = parsed.error.issues[0];
  return { where, definitions: {}, problem: `${where}${issue.path.length ? ` at ${issue.path.join('.')}` : ''}: ${issue.message}` };
}
