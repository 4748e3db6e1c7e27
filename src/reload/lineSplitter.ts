/**
 * Newline-delimited framing. Chunks arrive in any size; each complete line is handed on as the
 * bytes between two newlines, so a line is forwarded exactly as it came (a trailing `\r` included).
 * Only the new chunk is searched for a newline, so a line of many megabytes costs one copy.
 */
export class LineSplitter {
  private partial: Buffer[] = [];

  constructor(private readonly onLine: (line: Buffer) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(0x0a, start);
    while (newline !== -1) {
      this.emit(chunk.subarray(start, newline));
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }

  /** At the end of the stream: a last line without its newline is still a line. */
  end(): void {
    if (this.partial.length > 0) this.emit(Buffer.alloc(0));
  }

  private emit(tail: Buffer): void {
    const line = this.partial.length === 0 ? tail : Buffer.concat([...this.partial, tail]);
    this.partial = [];
    if (!isBlank(line)) this.onLine(line);
  }
}

function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}
