/**
 * The debuggee's loaded modules by native handle, with their symbols. A module is the user's code
 * when it has symbols (a Portable PDB beside it or embedded); the runtime's own never does, so its
 * files are not even opened until a type name needs their metadata.
 */
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { AssemblyMetadata } from '../symbols/assemblyMetadata.js';
import type { ModuleSymbols } from '../symbols/moduleSymbols.js';
import { loadModuleSymbols } from '../symbols/symbolLoader.js';
import { tokenRid } from '../symbols/tableSchema.js';
import type { NativeType } from './nativeEvents.js';
import { runtimeFilesOf } from './runtimeFiles.js';
import { KEYWORDS } from './values/nativeValue.js';

export interface LoadedModule {
  handle: number;
  path: string;
  name: string;
  symbols?: ModuleSymbols;
  /** Why the module has no symbols. */
  note?: string;
}

export class ModuleRegistry {
  private readonly modules = new Map<number, LoadedModule>();
  /** The runtime's folder (System.Private.CoreLib is the first module to load) and which of its files are the runtime's. */
  private frameworkDir?: string;
  private isRuntimeFile?: (name: string) => boolean;

  /** `framework`: of the shared framework's folder, which ships no symbols (the debugger thread tells). */
  add(handle: number, path: string, framework = false): LoadedModule {
    if (this.frameworkDir === undefined) {
      this.frameworkDir = dirname(path);
      this.isRuntimeFile = runtimeFilesOf(this.frameworkDir);
    }
    const module: LoadedModule = { handle, path, name: basename(path) };
    if (!framework && this.mayHaveSymbols(path)) {
      const loaded = loadModuleSymbols(path);
      if (loaded.symbols) module.symbols = loaded.symbols;
      else module.note = loaded.reason;
    } else {
      module.note = 'framework module (no symbols)';
    }
    this.modules.set(handle, module);
    return module;
  }

  remove(handle: number): LoadedModule | undefined {
    const module = this.modules.get(handle);
    this.modules.delete(handle);
    return module;
  }

  get(handle: number): LoadedModule | undefined {
    return this.modules.get(handle);
  }

  all(): LoadedModule[] {
    return [...this.modules.values()];
  }

  withSymbols(): LoadedModule[] {
    return [...this.modules.values()].filter((m) => m.symbols);
  }

  get count(): number {
    return this.modules.size;
  }

  /** Metadata of any module (read on first use for modules without symbols). */
  metadata(pathOrHandle: string | number): AssemblyMetadata | undefined {
    const module = typeof pathOrHandle === 'number' ? this.modules.get(pathOrHandle) : undefined;
    if (module?.symbols) return module.symbols.metadata;
    const path = typeof pathOrHandle === 'string' ? pathOrHandle : module?.path;
    return path ? loadModuleSymbols(path).metadata : undefined;
  }

  /** A type as C# writes it: `int`, `List<string>`, `Lab.Box<int>[]`; `arg` writes its element and type arguments (a tuple's with names). */
  typeName(type: NativeType | undefined, arg: (t: NativeType | undefined) => string = (t) => this.typeName(t)): string {
    if (!type) return '?';
    const primitive = KEYWORDS[type.et];
    if (primitive) return primitive;
    switch (type.et) {
      case 0x1d: // SZARRAY
        return `${arg(type.elem)}[]`;
      case 0x14: // ARRAY
        return `${arg(type.elem)}[${','.repeat(Math.max(0, (type.rank ?? 1) - 1))}]`;
      case 0x0f: // PTR
        return `${this.typeName(type.elem)}*`;
      case 0x10: // BYREF
        return `ref ${this.typeName(type.elem)}`;
      case 0x11: // VALUETYPE
      case 0x12: {
        // CLASS
        const metadata = type.path ? this.metadata(type.path) : type.module ? this.metadata(type.module) : undefined;
        if (!metadata || !type.token) return 'object';
        const args = (type.args ?? []).map(arg);
        const name = metadata.csharpTypeName(tokenRid(type.token), args, true);
        return name.startsWith('System.Nullable<') && args.length === 1 ? `${args[0]}?` : name;
      }
      default:
        return 'object';
    }
  }

  /**
   * The runtime's assemblies never ship symbols: skip opening them at every launch. A self-contained
   * app shares its folder with them, and its own assemblies may carry their PDB embedded.
   */
  private mayHaveSymbols(path: string): boolean {
    if (dirname(path) !== this.frameworkDir || existsSync(path.replace(/\.dll$/i, '.pdb'))) return true;
    return !this.isRuntimeFile?.(basename(path));
  }
}
