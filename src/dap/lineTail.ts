/** Keeps the last lines written to a stream, for diagnostics after something went wrong. */
export class LineTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly limit = 50) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.append(line);
    if (this.partial.length > 4096) {
      this.append(this.partial);
      this.partial = '';
    }
  }

  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }

  private append(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.limit) this.lines.shift();
  }
}
