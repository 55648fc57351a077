import { nowMs } from './stats.ts';

/** When each chunk left a server, as [tag, offset, emittedAt]; the bench takes the log between rounds. */
export class EmitLog {
  private entries: [string, number, number][] = [];

  record(tag: string, offset: number): void {
    this.entries.push([tag, offset, nowMs()]);
  }

  take(): [string, number, number][] {
    const taken = this.entries;
    this.entries = [];
    return taken;
  }

  /** The log grouped by tag as flat [offset, emittedAt, offset, emittedAt, …] lists (smaller for long rows). */
  takeByTag(): Record<string, number[]> {
    const byTag: Record<string, number[]> = {};
    for (const [tag, offset, at] of this.take()) (byTag[tag] ??= []).push(offset, at);
    return byTag;
  }
}
