/** A concern that starts or stops something (a connection, a listener, a timer) for one instance. */
export interface Module {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts modules in the order given and stops the started ones in reverse, once: what a module
 * depends on started before it and stops after it. A module that fails to start stops the ones
 * started before it, so a failed start leaves nothing open.
 */
export class Lifecycle {
  private readonly started: Module[] = [];
  private stopping: Promise<void> | null = null;

  async start(...modules: Module[]): Promise<void> {
    for (const module of modules) {
      try {
        await module.start();
      } catch (error) {
        await this.stop();
        throw error;
      }
      this.started.push(module);
    }
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopStarted();
    return this.stopping;
  }

  private async stopStarted(): Promise<void> {
    for (const module of this.started.reverse()) await module.stop();
  }
}
