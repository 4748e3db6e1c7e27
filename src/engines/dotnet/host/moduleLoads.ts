/**
 * What the debugger does when a module loads, while the runtime holds the load for it: reads its
 * symbols, marks the user's code, binds the breakpoints waiting for it and places the entry
 * breakpoint, so nothing of the module runs before its breakpoints are armed. It also tells when the
 * program's own module has loaded (a launch's answer waits for it).
 */
import { basename } from 'node:path';
import type { HostEvent, StartOptions } from '../hostProtocol.js';
import type { StartupTimeline } from '../startupTimeline.js';
import { loadModuleSymbols } from '../symbols/symbolLoader.js';
import type { BreakpointBook } from './breakpointBook.js';
import type { EditAndContinue } from './editAndContinue.js';
import type { LoadedModule, ModuleRegistry } from './moduleRegistry.js';
import type { NativeEvent } from './nativeEvents.js';
import type { Native } from './nativeSession.js';

/** The internal breakpoint's tag at the program's first statement (stopOnEntry). */
export const ENTRY = 'entry';

export interface ModuleLoadParts {
  native: () => Native | undefined;
  requireNative: () => Native;
  options: () => StartOptions | undefined;
  modules: ModuleRegistry;
  breakpoints: BreakpointBook;
  enc: EditAndContinue;
  startup: StartupTimeline;
  emit: (event: HostEvent) => void;
}

export class ModuleLoads {
  /** Resolved once the program's own module has loaded, or the program has exited. */
  readonly entryLoaded = deferred();
  private entryPlaced = false;
  /** The first framework module: System.Private.CoreLib. */
  private frameworkLibrary?: string;
  /** Assemblies read before the launch (readAhead). */
  private readonly readAheadFiles = new Set<string>();

  constructor(private readonly parts: ModuleLoadParts) {}

  /** Reads the metadata of assemblies the program will load, before its launch. */
  readAhead(files: string[]): void {
    for (const file of files) {
      if (loadModuleSymbols(file).metadata) this.readAheadFiles.add(file);
    }
  }

  async loaded({ handle, path, held, framework }: Extract<NativeEvent, { event: 'module'; reason: 'load' }>): Promise<void> {
    try {
      const prepare = () => this.prepareModule(handle, path, framework);
      await (held ? this.parts.startup.heldLoad(prepare) : prepare());
    } finally {
      // Whatever failed, the program must not stay held in LoadModule.
      if (held) await this.parts.native()?.call('release', {}).catch(() => undefined);
    }
  }

  private async prepareModule(handle: number, path: string, framework: boolean): Promise<void> {
    const { modules, enc, breakpoints, startup, emit } = this.parts;
    const module = modules.add(handle, path, framework);
    emit({ type: 'module', reason: 'new', name: module.name, path });
    if (module.symbols) {
      await this.parts.requireNative().call('setUserCode', {
        module: handle,
        user: true,
        nonUserTokens: module.symbols.nonUserMethodTokens(),
        disableOptimizations: true,
      });
      await enc.moduleLoaded(module);
      for (const binding of await breakpoints.moduleLoaded(module)) emit({ type: 'breakpoint', binding });
      await this.placeEntry(module);
    }
    if (framework && !this.frameworkLibrary) {
      this.frameworkLibrary = path;
      if (this.readAheadFiles.has(path)) startup.mark('readAheadUsed');
    }
    if (this.isEntryModule(module)) {
      startup.mark('entryModule');
      this.entryLoaded.resolve();
      // System.Private.CoreLib's metadata names the framework's values (decimal, DateTime, List…) at
      // the first stop: it is read while the program runs there, not while the stop is built.
      const library = this.frameworkLibrary;
      if (library) setImmediate(() => modules.metadata(library));
    }
  }

  private isEntryModule(module: LoadedModule): boolean {
    const entry = this.parts.options()?.entryAssembly;
    return entry ? basename(entry) === module.name : !!module.symbols;
  }

  private async placeEntry(module: LoadedModule): Promise<void> {
    if (!this.parts.options()?.stopOnEntry || this.entryPlaced || !this.isEntryModule(module)) return;
    const target = module.symbols?.entryStatement();
    if (!target) return;
    await this.parts.breakpoints.placeInternal(ENTRY, module.handle, target);
    this.entryPlaced = true;
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
