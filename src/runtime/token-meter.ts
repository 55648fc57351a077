/**
 * Counts a run's tokens while it streams, so that a budget binds during the run and not only at
 * its start. Providers report usage only when a model request ends; until then each streamed
 * chunk counts as one output token (providers stream about one token per chunk), and the
 * request's reported usage replaces that estimate when it arrives.
 */
export class TokenMeter {
  private counted = 0;
  private spent = false;

  /** `allowance` null = unlimited; `onSpent` is called once, when the count reaches it. */
  constructor(
    private readonly allowance: number | null,
    private readonly onSpent: () => void,
  ) {}

  get total(): number {
    return this.counted;
  }

  /** Tokens streamed: the run stops as soon as they reach the allowance. */
  add(tokens: number): void {
    this.counted += tokens;
    this.check();
  }

  /**
   * A finished request's reported usage, as a correction of what was counted for it: it may
   * spend the allowance, but what it finished is kept; `check()` stops the next request.
   */
  correct(tokens: number): void {
    this.counted += tokens;
  }

  check(): void {
    if (this.allowance === null || this.spent || this.counted < this.allowance) return;
    this.spent = true;
    this.onSpent();
  }
}
