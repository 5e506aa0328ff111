/** The async iterator of notifications: a queue that fills from the moment it is created. */

import { Timeout, type ValidationError } from "./errors.js";
import type { Notification } from "./protocol.js";

/** Options of `client.notifications()`. */
export interface StreamOptions {
  /** Aborting it ends the iteration (the loop finishes normally). */
  signal?: AbortSignal;
  /** The longest wait for each notification; past it `next()` rejects with `Timeout`. */
  timeoutMs?: number;
}

type Item = { notification: Notification; problem?: ValidationError };

/**
 * The notifications (of one method, or all) that arrive after the stream was created, in
 * order. Iterate it with `for await`; the iteration ends when the connection closes, the
 * signal aborts, or the loop breaks. A notification that broke its schema rejects `next()`
 * with the `ValidationError` at its turn; the stream can be read on after that.
 */
export class NotificationStream<P = unknown> implements AsyncIterableIterator<Notification<P>> {
  private readonly queue: Item[] = [];
  private waiter: { resolve: (item: Item | undefined) => void; reject: (error: unknown) => void } | undefined;
  private ended = false;

  /** A stream of `method` (undefined: every notification); `detach` is called when it ends. */
  constructor(readonly method: string | undefined, private readonly options: StreamOptions, private readonly detach: (stream: NotificationStream<P>) => void) {
    options.signal?.addEventListener("abort", () => this.end(), { once: true });
    if (options.signal?.aborted) this.end();
  }

  /** Queues a notification when it is the stream's method (called by the client). */
  offer(notification: Notification, problem?: ValidationError): void {
    if (this.ended || (this.method !== undefined && notification.method !== this.method)) return;
    const item = problem === undefined ? { notification } : { notification, problem };
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(item);
    } else {
      this.queue.push(item);
    }
  }

  /** Ends the stream: what is queued is still delivered, then the iteration finishes. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.detach(this);
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(undefined);
    }
  }

  /** The next notification (or `done` once the stream ended and its queue is empty). */
  async next(): Promise<IteratorResult<Notification<P>>> {
    const item = this.queue.shift() ?? (this.ended ? undefined : await this.wait());
    if (item === undefined) return { done: true, value: undefined };
    if (item.problem) throw item.problem;
    return { done: false, value: item.notification as Notification<P> };
  }

  /** Ends the stream (what `break` in a `for await` loop calls). */
  async return(): Promise<IteratorResult<Notification<P>>> {
    this.queue.length = 0;
    this.end();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private wait(): Promise<Item | undefined> {
    return new Promise<Item | undefined>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const { timeoutMs } = this.options;
      const settle = (item: Item | undefined): void => {
        if (timer) clearTimeout(timer);
        resolve(item);
      };
      this.waiter = { resolve: settle, reject };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.waiter = undefined;
          reject(new Timeout(`no notification${this.method ? " " + this.method : ""} within ${timeoutMs} ms`));
        }, timeoutMs);
      }
    });
  }
}
