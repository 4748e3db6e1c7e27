/**
 * Watches the given paths and reports a burst of changes once, after `debounceMs` of quiet.
 * Ignored paths are filtered inside chokidar, so ignored folders are never even scanned.
 */
import { watch, type FSWatcher } from 'chokidar';

export interface ChangeWatcher {
  /** Resolves once the initial scan is done: changes after this are seen. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function watchForChanges(
  paths: string[],
  isIgnored: (path: string) => boolean,
  debounceMs: number,
  onChange: (changed: string[]) => void,
  onError: (error: Error) => void,
): ChangeWatcher {
  const watcher: FSWatcher = watch(paths, { ignored: (path) => isIgnored(path), ignoreInitial: true });
  let burst = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  watcher.on('all', (_event, path) => {
    burst.add(path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const changed = [...burst];
      burst = new Set();
      onChange(changed);
    }, debounceMs);
  });
  watcher.on('error', (error) => onError(error instanceof Error ? error : new Error(String(error))));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
