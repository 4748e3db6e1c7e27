/**
 * Separates what Node's inspector writes to the debuggee's stderr ("Debugger listening on …",
 * "Waiting for the debugger to disconnect...") from what the program itself writes.
 */
const INSPECTOR_LINES: { prefix: string; pattern: RegExp; kind: InspectorLineKind }[] = [
  { prefix: 'Debugger listening on ', pattern: /^Debugger listening on (ws:\/\/\S+)$/, kind: 'listening' },
  { prefix: 'For help, see: ', pattern: /^For help, see: https?:\/\/nodejs\.org\/\S*$/, kind: 'help' },
  { prefix: 'Debugger attached.', pattern: /^Debugger attached\.$/, kind: 'attached' },
  { prefix: 'Waiting for the debugger to disconnect...', pattern: /^Waiting for the debugger to disconnect\.\.\.$/, kind: 'waitingForDisconnect' },
  { prefix: 'Debugger ending on ', pattern: /^Debugger ending on ws:\/\/\S+$/, kind: 'ending' },
];

export type InspectorLineKind = 'listening' | 'help' | 'attached' | 'waitingForDisconnect' | 'ending';

export interface InspectorLine {
  kind: InspectorLineKind;
  text: string;
  /** The WebSocket URL, on the `listening` line. */
  url?: string;
}

export interface FilteredChunk {
  /** What the program wrote, to pass on as output (may be empty). */
  program: string;
  inspector: InspectorLine[];
}

export class InspectorLineFilter {
  /** A trailing partial line that may still turn out to be the inspector's. */
  private held = '';

  push(chunk: string): FilteredChunk {
    const text = this.held + chunk;
    this.held = '';
    const result: FilteredChunk = { program: '', inspector: [] };
    let start = 0;
    for (let end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', start)) {
      const line = text.slice(start, end + 1);
      const known = matchLine(line.replace(/\r?\n$/, ''));
      if (known) result.inspector.push(known);
      else result.program += line;
      start = end + 1;
    }
    const rest = text.slice(start);
    if (rest && INSPECTOR_LINES.some((l) => l.prefix.startsWith(rest) || rest.startsWith(l.prefix))) this.held = rest;
    else result.program += rest;
    return result;
  }

  /** Whatever is still held back, once the stream has ended. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return matchLine(rest) ? '' : rest;
  }
}

function matchLine(line: string): InspectorLine | undefined {
  for (const { pattern, kind } of INSPECTOR_LINES) {
    const m = pattern.exec(line);
    if (m) return { kind, text: line, url: kind === 'listening' ? m[1] : undefined };
  }
  return undefined;
}
