/**
 * Which of the runtime's exception events stop the program (the filters the user chose; an async
 * method's exception that leaves the user's code through the compiler's handler), and what such a
 * stop tells: the exception, its causes, where it was thrown when that was in methods that have
 * returned since, and the awaiting callers that catch it.
 */
import { MAX_CAUSES } from '../../../core/exceptionAutopsy.js';
import type { ExceptionBreakpointConfig, ExceptionInfo, FrameInfo } from '../../../core/types.js';
import type { AsyncChains } from './asyncChain.js';
import { asyncCatchSites } from './asyncCatchSites.js';
import { exceptionPath } from './asyncExceptionPath.js';
import type { Inspection } from './inspection.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { NativeEvent } from './nativeEvents.js';
import type { Native } from './nativeSession.js';
import type { StackReader } from './stackReader.js';
import { innerExceptions } from './values/innerExceptions.js';

export type ExceptionEvent = Extract<NativeEvent, { event: 'exception' }>;

export class ExceptionStops {
  config: ExceptionBreakpointConfig = { filters: ['uncaught'] };
  /** The last exception stopped on as unhandled in the user's code (an async method's). */
  private userUnhandled?: ExceptionInfo;

  constructor(
    private readonly native: () => Native,
    private readonly modules: ModuleRegistry,
    private readonly stack: StackReader,
    private readonly inspection: Inspection,
    private readonly asyncChains: AsyncChains,
  ) {}

  /** What the native side holds the program at, for the filters chosen. */
  flags(): { stopOnUnhandled: boolean; stopOnFirstChance: boolean } {
    const filters = this.config.filters;
    return {
      stopOnUnhandled: filters.includes('uncaught') || filters.includes('unhandled'),
      stopOnFirstChance: filters.includes('all') || filters.includes('raised'),
    };
  }

  /** Whether a held exception event is a stop the user asked for. */
  async stopsFor(event: ExceptionEvent): Promise<boolean> {
    switch (event.kind) {
      case 'userFirstChance':
        return this.matchesTypeFilter(event.types);
      case 'catchHandlerFound': {
        // Caught by the compiler's handler that hands an async method's exception to its task: it
        // leaves the user's code unhandled, and the throw site is still on the stack.
        const handler = event.handler;
        const symbols = handler ? this.modules.get(handler.module)?.symbols : undefined;
        return !!handler && symbols?.asyncInfo(handler.token)?.catchHandlerOffset === handler.ilOffset;
      }
      case 'unhandled': {
        // The framework rethrowing an exception already stopped on as unhandled in the user's code.
        const seen = this.userUnhandled;
        this.userUnhandled = undefined;
        if (seen && seen.type === event.type && (seen.message ?? '') === event.message) return (await this.stack.top(event.threadId)) !== undefined;
        return true;
      }
      default:
        return false;
    }
  }

  /** The exception of a stop: its causes, the way it came and who catches it. */
  async describe(event: ExceptionEvent): Promise<ExceptionInfo> {
    const userUnhandled = event.kind === 'catchHandlerFound';
    const causes = await innerExceptions(this.native(), this.inspection.reader, event.threadId, MAX_CAUSES + 1).catch(() => []);
    const info: ExceptionInfo = { type: event.type || undefined, message: event.message || undefined, kind: userUnhandled ? 'userUnhandled' : event.kind, ...(causes.length ? { causes } : {}) };
    Object.assign(info, await this.awaitedFrom(event.threadId));
    const catchSites = await asyncCatchSites(this.stack, this.modules, event.threadId, event.types).catch(() => []);
    if (catchSites.length) info.catchSites = catchSites;
    if (userUnhandled) this.userUnhandled = info;
    return info;
  }

  /**
   * An exception an async method took from a task it awaited was thrown elsewhere, in methods that
   * have returned since: where, and the way it came (its stack trace), when that is not here.
   */
  private async awaitedFrom(threadId: number): Promise<Pick<ExceptionInfo, 'path' | 'thrownAt'>> {
    // Taken from a task, it is thrown again by the runtime's awaiter (external code) inside the
    // awaiting method; thrown by the user's code itself, it is where it was thrown.
    const { frames } = await this.stack.frames(threadId, 0, 20).catch(() => ({ frames: [] as FrameInfo[] }));
    if (!frames[0] || frames[0].id > 0) return {};
    const top = frames.find((f) => f.id > 0 && !f.async);
    const handle = top && this.stack.handle(top.id);
    if (!top || !handle || !this.asyncChains.isAsyncBody(handle.module, handle.methodToken)) return {};
    const { reader, funcEval } = this.inspection;
    const path = await exceptionPath(this.native(), reader, funcEval, threadId).catch(() => []);
    const thrown = path.find((f) => f.file);
    if (!thrown || (thrown.file === top.file && thrown.line === top.line)) return {};
    return { path, thrownAt: { file: thrown.file, line: thrown.line } };
  }

  /** `exceptionTypes` match the thrown type or any base type, by full or simple name. */
  private matchesTypeFilter(types: string[]): boolean {
    const wanted = this.config.typeNames ?? [];
    if (wanted.length === 0) return true;
    return types.some((t) => wanted.some((w) => w === t || w === t.split('.').pop()));
  }
}
