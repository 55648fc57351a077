/** Whose a run is, for the caps per user and per project. */
export interface RunOwner {
  userId: string;
  projectId: string;
}

export interface RunSlotLimits {
  perInstance: number;
  perUser: number;
  perProject: number;
}

/** Which cap kept a turn from starting on this instance. */
export type SlotCap = 'instance' | 'user' | 'project';

/**
 * The run slots of one instance: how many runs execute here, in all and per user and per project.
 * A slot is taken synchronously when a turn is admitted and given back when its run ends, so runs
 * admitted at the same moment cannot pass a cap together.
 */
export class RunSlots {
  private taken = 0;
  private readonly byUser = new Map<string, number>();
  private readonly byProject = new Map<string, number>();

  constructor(readonly limits: RunSlotLimits) {}

  /** Whether a slot is free at all: without one, no turn is worth trying here. */
  hasFree(): boolean {
    return this.taken < this.limits.perInstance;
  }

  /** The cap a run of `owner` would break now, if any (a partly known owner is checked on what is known). */
  capFor(owner: Partial<RunOwner>): SlotCap | null {
    if (!this.hasFree()) return 'instance';
    if (owner.userId !== undefined && this.runningOf(owner.userId) >= this.limits.perUser) return 'user';
    if (owner.projectId !== undefined && (this.byProject.get(owner.projectId) ?? 0) >= this.limits.perProject) return 'project';
    return null;
  }

  /** Takes a slot for the owner's run, or answers the cap that is full (taking nothing). */
  tryTake(owner: RunOwner): SlotCap | null {
    const cap = this.capFor(owner);
    if (cap === null) this.take(owner);
    return cap;
  }

  /** Takes a slot whatever the caps: a run that resumes after an approval or an answer is not held back. */
  take(owner: RunOwner): void {
    this.taken += 1;
    this.byUser.set(owner.userId, this.runningOf(owner.userId) + 1);
    this.byProject.set(owner.projectId, (this.byProject.get(owner.projectId) ?? 0) + 1);
  }

  release(owner: RunOwner): void {
    this.taken -= 1;
    decrement(this.byUser, owner.userId);
    decrement(this.byProject, owner.projectId);
  }

  /** Runs of the user executing here. */
  runningOf(userId: string): number {
    return this.byUser.get(userId) ?? 0;
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
