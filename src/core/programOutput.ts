/**
 * What the program printed, read through cursors (session_output). A session keeps up to a size of
 * it (older output falls off, and a reader learns how much), less once its run is over; the
 * answers that end a run carry its last lines.
 */
import { CursorLog } from './cursorLog.js';
import type { OutputChunk } from './sessionTypes.js';

const OUTPUT_TAIL_CHARS = 2000;
const OUTPUT_TAIL_LINES = 15;
const OUTPUT_KEPT_CHARS = 4 * 1024 * 1024;
const ENDED_OUTPUT_KEPT_CHARS = 256 * 1024;

export class ProgramOutput extends CursorLog<OutputChunk> {
  constructor() {
    super(5000, { weigh: (chunk) => chunk.text.length, maxWeight: OUTPUT_KEPT_CHARS });
  }

  /** The end of what the program printed: the last lines, capped in size. */
  tail(lines = OUTPUT_TAIL_LINES, chars = OUTPUT_TAIL_CHARS): string {
    const text = this.last(200)
      .filter((e) => e.value.category !== 'console')
      .map((e) => e.value.text)
      .join('');
    const kept = text.split('\n');
    const tail = kept.length > lines + 1 ? `…\n${kept.slice(-(lines + 1)).join('\n')}` : text;
    return tail.length > chars ? `…${tail.slice(-chars)}` : tail;
  }

  /** The run is over and the session kept for reading: what it keeps is trimmed to what is read then. */
  trimEnded(): void {
    this.retain(Number.POSITIVE_INFINITY, ENDED_OUTPUT_KEPT_CHARS);
  }
}
