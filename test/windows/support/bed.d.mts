// Types of bed.mjs (plain JavaScript, shared by the Windows tests and bench/dotnet-windows.bench.mjs).
export const root: string;
export const WINE: string;
export const NODE_WIN_VERSION: string;
export const cacheDir: string;
export function bedAvailable(): boolean;
export function winPath(path: string): string;
export function wineEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export function nodeExe(): string;
export function ensurePrefix(): void;
export function ensureAddon(): void;
export function publishFixture(name: string, kind?: 'self-contained' | 'framework-dependent'): string;
export function dotnetRoot(selfContained: string): string;
export function sdkShim(selfContained: string): string;
export function prepareBed(fixtures: string[]): { node: string; apps: Record<string, string> };
