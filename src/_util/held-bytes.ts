/**
 * The upstream bytes the proxy holds until it may release them (SPEC §16, §17.3).
 * @module
 */

/** A chunk at least this long is held as it came (no copy); a shorter one is copied. */
const VIEW_FROM = 2048;
/** The smallest buffer small chunks are copied into. */
const MIN_BUFFER = 4096;

/**
 * Bytes in arrival order, taken from the front. Chunks of {@link VIEW_FROM} bytes or more
 * are kept as the upstream gave them; shorter ones are copied together into a buffer that
 * doubles as it fills, so however the input is cut (a message trickled one byte per chunk),
 * the pieces held number at most one per {@link VIEW_FROM} bytes plus one, their overhead
 * stays a constant per byte, and pushing and taking cost time linear in the bytes.
 *
 * What {@link HeldBytes.take} returns is never written again: the buffer only grows past
 * what it has handed out, and a new buffer replaces it when it is full.
 * @internal
 */
export class HeldBytes {
  /** Full pieces, oldest first; the last piece is in #buffer, not here. */
  readonly #pieces: Uint8Array[] = [];
  #first = 0;
  #buffer: Uint8Array | undefined;
  #start = 0;
  #end = 0;
  /** How many bytes are held. */
  length = 0;

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.length += bytes.length;
    if (bytes.length >= VIEW_FROM) {
      this.#seal();
      this.#pieces.push(bytes);
      return;
    }
    let buffer = this.#buffer;
    if (buffer === undefined || this.#end + bytes.length > buffer.length) {
      const used = this.#end - this.#start;
      const next = new Uint8Array(Math.max(MIN_BUFFER, 2 * (used + bytes.length)));
      if (buffer !== undefined) next.set(buffer.subarray(this.#start, this.#end));
      buffer = next;
      this.#buffer = next;
      this.#start = 0;
      this.#end = used;
    }
    buffer.set(bytes, this.#end);
    this.#end += bytes.length;
  }

  /** Every piece held, oldest first (views; do not change them). */
  *pieces(): Generator<Uint8Array> {
    for (let i = this.#first; i < this.#pieces.length; i++) yield this.#pieces[i] as Uint8Array;
    if (this.#buffer !== undefined && this.#end > this.#start) {
      yield this.#buffer.subarray(this.#start, this.#end);
    }
  }

  /** The byte `offset` bytes from the front, if held. */
  at(offset: number): number | undefined {
    let at = offset;
    for (const piece of this.pieces()) {
      if (at < piece.length) return piece[at];
      at -= piece.length;
    }
    return undefined;
  }

  /** Removes the first `size` bytes (at most what is held) and hands them to `out`, piece by piece. */
  take(size: number, out: (bytes: Uint8Array) => void): void {
    let left = Math.min(size, this.length);
    this.length -= left;
    const pieces = this.#pieces;
    while (left > 0 && this.#first < pieces.length) {
      const piece = pieces[this.#first] as Uint8Array;
      if (piece.length > left) {
        pieces[this.#first] = piece.subarray(left);
        out(piece.subarray(0, left));
        return;
      }
      pieces[this.#first++] = EMPTY;
      left -= piece.length;
      out(piece);
    }
    if (this.#first === pieces.length || this.#first > 1024) {
      pieces.splice(0, this.#first);
      this.#first = 0;
    }
    if (left > 0 && this.#buffer !== undefined) {
      out(this.#buffer.subarray(this.#start, this.#start + left));
      this.#start += left;
    }
  }

  /** Ends the current buffer's piece: a chunk held as it came follows it. */
  #seal(): void {
    if (this.#buffer !== undefined && this.#end > this.#start) {
      this.#pieces.push(this.#buffer.subarray(this.#start, this.#end));
    }
    this.#buffer = undefined;
    this.#start = this.#end = 0;
  }
}

const EMPTY = new Uint8Array(0);
