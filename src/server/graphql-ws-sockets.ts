import type { WebSocket } from 'ws';

// The limits on a socket's life (how many one holder may keep open, the timers that close one that
// never initialises or goes idle) act whatever runs on it; graphql-ws.ts wires them to its events.

/** The close code of a socket that ran no operation for the idle timeout (the standard "Normal Closure"). */
export const IDLE_CLOSE_CODE = 1000;

/** Which sockets each user (or, without a token, each address) holds open, to refuse one beyond the cap. */
export class OpenSockets {
  private readonly byHolder = new Map<string, Set<WebSocket>>();

  constructor(private readonly max: number) {}

  /** Counts the socket for its holder until it closes; false (nothing counted) when the holder is at the cap. */
  open(holder: string, socket: WebSocket): boolean {
    // A socket that closed while its token was looked up would never leave the count.
    if (socket.readyState !== socket.OPEN) return false;
    const open = this.byHolder.get(holder) ?? new Set<WebSocket>();
    if (open.size >= this.max) return false;
    open.add(socket);
    this.byHolder.set(holder, open);
    socket.once('close', () => {
      open.delete(socket);
      if (open.size === 0 && this.byHolder.get(holder) === open) this.byHolder.delete(holder);
    });
    return true;
  }
}

/**
 * Closes an acknowledged socket once it has run no operation for the timeout: a socket that
 * subscribes to nothing holds memory and a file descriptor for nothing. Like closeUnlessInitialised,
 * the check runs after pending I/O, so a stalled event loop does not close a socket whose
 * subscribe message has arrived meanwhile.
 */
export class IdleWatch {
  private lastBusyAt = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: WebSocket,
    private readonly operations: () => number,
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.arm(timeoutMs);
    socket.once('close', () => clearTimeout(this.timer));
  }

  /** An operation started or ended: the idle time counts from now. */
  busy(): void {
    this.lastBusyAt = Date.now();
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => setImmediate(() => this.check()), delayMs);
  }

  private check(): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.operations() > 0) this.busy();
    const idleForMs = Date.now() - this.lastBusyAt;
    if (idleForMs < this.timeoutMs) {
      this.arm(this.timeoutMs - idleForMs);
      return;
    }
    this.onIdle();
    this.socket.close(IDLE_CLOSE_CODE, `Idle: no operation for ${this.timeoutMs} ms`);
  }
}

/**
 * Closes a socket that has not sent `connection_init` within the timeout (4408, as graphql-ws
 * would). graphql-ws' own timer can fire after a long event-loop stall even though the message has
 * arrived meanwhile (timers run before pending I/O), closing a healthy client on a busy machine;
 * here the check runs after pending I/O (setImmediate), so only a socket that really sent nothing
 * is closed.
 */
export function closeUnlessInitialised(socket: WebSocket, timeoutMs: number): void {
  let initialised = false;
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (!initialised && socket.readyState === socket.OPEN) socket.close(4408, 'Connection initialisation timeout');
      }),
    timeoutMs,
  );
  const stop = () => clearTimeout(timer);
  socket.once('message', () => {
    initialised = true;
    // Nothing of this check stays with an initialised socket.
    stop();
    socket.off('close', stop);
  });
  socket.once('close', stop);
}
