/**
 * Loads a compiled assembly into the stopped program: its bytes become a byte[] there
 * (Convert.FromBase64String of a string created there) and Assembly.Load(byte[]) loads it, each a
 * func-eval on the stopped thread. The runtime reports the module it made (in memory) while the load
 * runs; the debugger host hands those reports here as they arrive, since an evaluation holds the
 * queue its other events wait in.
 */
import { named, STRING } from '../../expressions/clrType.js';
import { DebugError } from '../../../../core/errors.js';
import { fromNative, type Place } from './evalValue.js';
import type { Members } from './members.js';
import type { TypeIndex } from './typeIndex.js';

const MODULE_REPORT_WAIT_MS = 2_000;

export class AssemblyLoader {
  private loads = 0;
  private latest?: number;
  private notify?: () => void;

  constructor(
    private readonly members: Members,
    private readonly types: TypeIndex,
  ) {}

  /** The runtime loaded a module from memory (native module handle). */
  moduleLoaded(handle: number): void {
    this.loads++;
    this.latest = handle;
    this.notify?.();
  }

  /** Loads the assembly (base64) and answers its module's handle. */
  async load(assembly: string, place: Place): Promise<number> {
    const convert = this.types.find('System.Convert', 0, '');
    const loader = this.types.find('System.Reflection.Assembly', 0, '');
    if (!convert || !loader) throw new DebugError('EVALUATION_FAILED', 'the program has not loaded System.Convert / System.Reflection.Assembly');
    const before = this.loads;
    const text = fromNative(await this.members.materialize(assembly, place), named(STRING));
    const bytes = await this.members.call(convert, 'FromBase64String', [text], place);
    await this.members.call(loader, 'Load', [bytes], place);
    if (this.loads === before) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, MODULE_REPORT_WAIT_MS);
        this.notify = () => {
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => (this.notify = undefined));
    }
    if (this.loads === before || this.latest === undefined) throw new DebugError('EVALUATION_FAILED', 'the runtime loaded the compiled expression but reported no module for it');
    return this.latest;
  }
}
