/**
 * How the session takes the engine's stops: a stop at trace breakpoints alone is recorded and the
 * program runs on, a step out of the frames above a current frame goes on, and any other stop becomes
 * the session's current one once its details (frames, locals, watches) are read, so they arrive
 * together; it is read again when a value changed or watches were added.
 */
import type { BreakpointRegistry } from './breakpointRegistry.js';
import type { BreakpointSync } from './breakpointSync.js';
import type { Engine, EngineEvent } from './engine.js';
import type { FrameCache } from './frameCache.js';
import type { FrameStep } from './frameStep.js';
import type { RunTimings } from './runTimings.js';
import type { SessionStateMachine } from './sessionStateMachine.js';
import type { SessionEvent } from './sessionTypes.js';
import { buildStop } from './stopBuilder.js';
import type { StopAnnotator } from './stopAnnotator.js';
import type { TraceRecorder } from './traceRecorder.js';
import type { WatchValue } from './watchList.js';

export type EngineStop = Extract<EngineEvent, { type: 'stopped' }>;

export interface StopIntakeParts {
  machine: SessionStateMachine;
  frames: FrameCache;
  frameStep: FrameStep;
  annotator: StopAnnotator;
  sync: BreakpointSync;
  breakpoints: BreakpointRegistry;
  traceRecorder: TraceRecorder;
  timings: RunTimings;
  engine: () => Engine;
  record(event: SessionEvent): void;
  /** Tells the agent where the program stopped. */
  notify(message: string): void;
  warn(message: string): void;
}

export class StopIntake {
  constructor(private readonly parts: StopIntakeParts) {}

  take(stopped: EngineStop): void {
    const { machine, traceRecorder, frameStep } = this.parts;
    if (!machine.active) return;
    // A stop at trace breakpoints alone is no stop for the agent: it is recorded and the program runs on.
    if (traceRecorder.onlyTraces(stopped.hitBreakpointIds)) {
      void traceRecorder.traceAndResume(stopped.threadId, stopped.hitBreakpointIds!);
      return;
    }
    // A step out of the frames above a current frame is no stop either: the step goes on.
    if (frameStep.absorb(stopped, () => this.takeStop(stopped))) return;
    this.takeStop(stopped);
  }

  private takeStop(stopped: EngineStop): void {
    const { machine, frames, timings, sync, breakpoints, annotator } = this.parts;
    if (!machine.active) return;
    frames.clear();
    const seq = machine.stopCame(stopped.threadId);
    if (seq === 1) timings.mark('firstStopMs');
    const event = sync.withoutOneShotHits(stopped);
    breakpoints.countHits(event.hitBreakpointIds ?? []);
    void buildStop(this.parts.engine(), event).then(
      async (built) => {
        if (!machine.isLatest(seq)) return; // the program ran on before the details came back
        const stop = await annotator.annotate(built.stop, built.frames, true);
        if (!machine.isLatest(seq)) return;
        machine.stopRead(seq, stop);
        frames.seed(stop.threadId, built.frames, built.totalFrames);
        if (seq === 1) timings.mark('firstStopBuiltMs');
        const where = `${stop.frame.name} (${stop.frame.file ?? '?'}:${stop.frame.line})`;
        this.parts.record({ type: 'stopped', summary: `Stopped (${stop.reason}) in ${where}, thread ${stop.threadId}`, data: { reason: stop.reason, threadId: stop.threadId, hitBreakpointIds: stop.hitBreakpointIds } });
        this.parts.notify(`stopped (${stop.reason}) in ${where}.`);
        machine.changed();
      },
      (e) => this.parts.warn(`could not read the stop: ${(e as Error).message}`),
    );
  }

  /** After a value changed, the stop's locals summary is stale: rebuild it. */
  async reread(): Promise<void> {
    const { machine, frames, annotator } = this.parts;
    const current = machine.stop;
    if (!current) return;
    frames.clear();
    const { stop, frames: read, totalFrames } = await annotator.reread(current);
    machine.stopReread(stop);
    frames.seed(stop.threadId, read, totalFrames);
  }

  /** The watches' values at the current stop (after watches were added); undefined when not stopped. */
  async watchValues(): Promise<WatchValue[] | undefined> {
    const { machine, annotator } = this.parts;
    if (!machine.stop) return undefined;
    const values = await annotator.watchValues();
    machine.stopWatches(values.length ? values : undefined);
    return values;
  }
}
