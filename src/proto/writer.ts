/**
 * The protobuf wire, written from the generated tables (wire.generated.ts) as ts-proto's
 * encoders write it: field by field in the tables' order.
 * @module
 */

import {
  BOOL,
  DBL,
  I32,
  I64,
  LIST,
  MSG,
  MSGS,
  OBOOL,
  type Obj,
  ODBL,
  OI32,
  OI64,
  OSTR,
  RVALUE,
  STR,
  STRS,
  STRUCT,
  VALUE,
} from "./kinds.ts";
import { type Field, MESSAGES, NAMES } from "./wire.generated.ts";

const encoder = new TextEncoder();

/** A growable byte buffer with protobuf's primitives; nested messages are written into a fork. */
export class Writer {
  #buf = new Uint8Array(256);
  #len = 0;

  #room(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
  }

  varint(value: number): void {
    this.#room(10);
    let v = value;
    if (v < 0) {
      // Negative: ten bytes of two's complement, as protobuf writes int32 and int64.
      let lo = v % 2 ** 32;
      let hi = Math.floor(v / 2 ** 32);
      lo = (lo + 2 ** 32) % 2 ** 32;
      hi = (hi + 2 ** 32) % 2 ** 32;
      for (let i = 0; i < 4; i++) {
        this.#buf[this.#len++] = (lo & 0x7f) | 0x80;
        lo = Math.floor(lo / 128);
      }
      this.#buf[this.#len++] = (lo & 0x0f) | ((hi & 0x07) << 4) | 0x80;
      hi = Math.floor(hi / 8);
      for (let i = 0; i < 4; i++) {
        this.#buf[this.#len++] = (hi & 0x7f) | 0x80;
        hi = Math.floor(hi / 128);
      }
      this.#buf[this.#len++] = hi & 0x01;
      return;
    }
    while (v >= 0x80) {
      this.#buf[this.#len++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#buf[this.#len++] = v;
  }

  tag(number: number, wireType: number): void {
    this.varint(number * 8 + wireType);
  }

  bytes(data: Uint8Array): void {
    this.varint(data.length);
    this.#room(data.length);
    this.#buf.set(data, this.#len);
    this.#len += data.length;
  }

  string(text: string): void {
    this.bytes(encoder.encode(text));
  }

  double(value: number): void {
    this.#room(8);
    new DataView(this.#buf.buffer).setFloat64(this.#len, value, true);
    this.#len += 8;
  }

  finish(): Uint8Array {
    return this.#buf.slice(0, this.#len);
  }
}

/** A nested message's bytes, written by `write` into a writer of its own. */
function nested(write: (w: Writer) => void): Uint8Array {
  const w = new Writer();
  write(w);
  return w.finish();
}

/**
 * Writes `value` as message `message`, field by field in the tables' order: an implicit
 * scalar only when it is not its zero, an optional one whenever it is set, as ts-proto's
 * encoders do. A value of the wrong JavaScript type throws a `TypeError`.
 */
export function writeMessage(w: Writer, value: Obj, message: number): void {
  for (const [number, name, kind, sub] of MESSAGES[message] as readonly Field[]) {
    const v = value[name];
    // A JSON null is written where the schema requires a value (Value's null); elsewhere
    // null is absence, as @ag-ui/core's omitOptionalNulls makes it before encoding.
    if (v === undefined || (v === null && kind !== RVALUE)) continue;
    if (!fits(v, kind)) {
      throw new TypeError(
        `${NAMES[message]}.${name} is ${describe(v)}; protobuf carries ${EXPECTED[kind] ?? "another value"} there`,
      );
    }
    switch (kind) {
      case STR:
        if (v !== "") {
          w.tag(number, 2);
          w.string(v as string);
        }
        break;
      case OSTR:
        w.tag(number, 2);
        w.string(v as string);
        break;
      case I32:
      case I64:
        if (v !== 0) {
          w.tag(number, 0);
          w.varint(v as number);
        }
        break;
      case OI32:
      case OI64:
        w.tag(number, 0);
        w.varint(v as number);
        break;
      case BOOL:
        if (v !== false) {
          w.tag(number, 0);
          w.varint(1);
        }
        break;
      case OBOOL:
        w.tag(number, 0);
        w.varint(v === true ? 1 : 0);
        break;
      case DBL:
        if (v !== 0) {
          w.tag(number, 1);
          w.double(v as number);
        }
        break;
      case ODBL:
        w.tag(number, 1);
        w.double(v as number);
        break;
      case VALUE:
      case RVALUE:
        w.tag(number, 2);
        w.bytes(nested((n) => writeValue(n, v)));
        break;
      case STRUCT:
        w.tag(number, 2);
        w.bytes(nested((n) => writeStruct(n, v as Obj)));
        break;
      case LIST:
        w.tag(number, 2);
        w.bytes(nested((n) => writeList(n, v as unknown[])));
        break;
      case MSG:
        w.tag(number, 2);
        w.bytes(nested((n) => writeMessage(n, v as Obj, sub as number)));
        break;
      case STRS:
        for (const s of v as string[]) {
          w.tag(number, 2);
          w.string(s);
        }
        break;
      case MSGS:
        for (const m of v as Obj[]) {
          w.tag(number, 2);
          w.bytes(nested((n) => writeMessage(n, m, sub as number)));
        }
        break;
    }
  }
}

/** What a kind holds, in words, for the `TypeError` of a value that does not fit. */
const EXPECTED: Readonly<Record<number, string>> = {
  [STR]: "a string",
  [OSTR]: "a string",
  [I32]: "an integer",
  [OI32]: "an integer",
  [I64]: "a safe integer",
  [OI64]: "a safe integer",
  [BOOL]: "a boolean",
  [OBOOL]: "a boolean",
  [DBL]: "a number",
  [ODBL]: "a number",
  [STRUCT]: "an object",
  [LIST]: "an array",
  [MSG]: "an object",
  [STRS]: "an array of strings",
  [MSGS]: "an array of objects",
};

const isObject = (v: unknown): boolean => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether `v` is a value of `kind` (a JSON value fits `value`; the encoder checks it). */
function fits(v: unknown, kind: number): boolean {
  if (kind === STR || kind === OSTR) return typeof v === "string";
  if (kind === I32 || kind === OI32) return Number.isInteger(v) && Math.abs(v as number) < 2 ** 31;
  if (kind === I64 || kind === OI64) return Number.isSafeInteger(v);
  if (kind === BOOL || kind === OBOOL) return typeof v === "boolean";
  if (kind === DBL || kind === ODBL) return typeof v === "number";
  if (kind === STRUCT || kind === MSG) return isObject(v);
  if (kind === LIST) return Array.isArray(v);
  if (kind === STRS) return Array.isArray(v) && v.every((x) => typeof x === "string");
  if (kind === MSGS) return Array.isArray(v) && v.every(isObject);
  return true;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "number") return `the number ${v}`;
  return `a ${typeof v}`;
}

function writeValue(w: Writer, v: unknown): void {
  if (v === null) {
    w.tag(1, 0);
    w.varint(0);
  } else if (typeof v === "boolean") {
    w.tag(4, 0);
    w.varint(v ? 1 : 0);
  } else if (typeof v === "number") {
    w.tag(2, 1);
    w.double(v);
  } else if (typeof v === "string") {
    w.tag(3, 2);
    w.string(v);
  } else if (Array.isArray(v)) {
    w.tag(6, 2);
    w.bytes(nested((n) => writeList(n, v)));
  } else if (typeof v === "object") {
    w.tag(5, 2);
    w.bytes(nested((n) => writeStruct(n, v as Obj)));
  } else if (v !== undefined) {
    throw new TypeError(`a ${typeof v} has no protobuf Value`);
  }
}

function writeStruct(w: Writer, v: Obj): void {
  for (const key of Object.keys(v)) {
    const value = v[key];
    if (value === undefined) continue;
    w.tag(1, 2);
    w.bytes(
      nested((n) => {
        if (key !== "") {
          n.tag(1, 2);
          n.string(key);
        }
        n.tag(2, 2);
        n.bytes(nested((m) => writeValue(m, value)));
      }),
    );
  }
}

function writeList(w: Writer, v: readonly unknown[]): void {
  for (const value of v) {
    w.tag(1, 2);
    w.bytes(nested((n) => writeValue(n, value)));
  }
}
