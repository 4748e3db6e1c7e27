/**
 * Turns "files changed" into a reload: runs the build first when there is one (the old server
 * keeps serving meanwhile), reports a failed build and keeps the old server, and folds changes
 * that arrive during a build into one more build afterwards.
 */
import { runBuild, type RunningBuild } from './buildRunner.js';
import type { ReloadLog } from './reloadLog.js';

export class ReloadTrigger {
  private build: RunningBuild | undefined;
  private changedDuringBuild: string | undefined;
  private closed = false;

  constructor(
    private readonly buildCommand: string | undefined,
    private readonly reload: (reason: string) => void,
    private readonly log: ReloadLog,
  ) {}

  changed(reason: string): void {
    if (this.closed) return;
    if (this.buildCommand === undefined) return this.reload(reason);
    if (this.build) {
      this.changedDuringBuild = reason;
      return;
    }
    void this.buildThenReload(this.buildCommand, reason);
  }

  close(): void {
    this.closed = true;
    this.build?.cancel();
  }

  private async buildThenReload(command: string, reason: string): Promise<void> {
    this.log.info(`${reason}: building (${command})`);
    this.build = runBuild(command);
    const result = await this.build.result;
    this.build = undefined;
    if (this.closed) return;
    const next = this.changedDuringBuild;
    this.changedDuringBuild = undefined;
    if (next !== undefined) return void this.buildThenReload(command, next);
    if (result.ok) return this.reload(reason);
    this.log.error(
      `the build failed (${result.outcome}, after ${result.durationMs} ms); the previous MCP server keeps running.\n${result.outputTail}`,
    );
  }
}
