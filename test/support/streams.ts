/** Stream helpers shared by the stream tests (web-standard only: they also run on the edge). */

/** One macrotask: lets every pending stream operation settle. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await tick();
}

export interface Collected<T> {
  values: T[];
  /** True when the stream errored (read() rejected), as opposed to closing. */
  errored: boolean;
  error: unknown;
}

export interface CollectPacing {
  /** Macrotasks to wait before the first read. */
  before?: number;
  /** Macrotasks to wait before each later read. */
  between?: number;
}

/** Reads `stream` to its end or its error. (No Array.fromAsync: absent on Node 20.) */
export async function collect<T>(
  stream: ReadableStream<T>,
  pacing: CollectPacing = {},
): Promise<Collected<T>> {
  const reader = stream.getReader();
  const values: T[] = [];
  await ticks(pacing.before ?? 0);
  try {
    for (;;) {
      const result = await reader.read();
      if (result.done) return { values, errored: false, error: undefined };
      values.push(result.value);
      await ticks(pacing.between ?? 0);
    }
  } catch (error) {
    return { values, errored: true, error };
  }
}

/** A stream that hands out the given chunks, one per pull, then closes. */
export function fromChunks<T>(chunks: readonly T[]): ReadableStream<T> {
  let i = 0;
  return new ReadableStream<T>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** Joins byte chunks into one array. */
export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
