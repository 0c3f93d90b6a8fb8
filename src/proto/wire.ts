/**
 * The protobuf wire, read and written from the generated tables (wire.generated.ts): one
 * message at a time, into plain objects shaped as `@ag-ui/proto` 1.0.0's generated code
 * shapes them (field names in camelCase, `google.protobuf.Value`, `Struct` and `ListValue`
 * as the JSON values they carry). What such an object means as an AG-UI event is
 * events.ts's business.
 * @module
 */

import { type Field, KINDS, MESSAGES, NAMES } from "./wire.generated.ts";

/** Malformed bytes: the frame is not a protobuf message of the expected shape. */
export class WireError extends Error {}

type Kind = (typeof KINDS)[number];
const K = (kind: Kind): number => KINDS.indexOf(kind);
const STR = K("str");
const OSTR = K("ostr");
const I32 = K("i32");
const OI32 = K("oi32");
const I64 = K("i64");
const OI64 = K("oi64");
const BOOL = K("bool");
const OBOOL = K("obool");
const DBL = K("dbl");
const ODBL = K("odbl");
const VALUE = K("value");
const RVALUE = K("rvalue");
const STRUCT = K("struct");
const LIST = K("list");
const MSG = K("msg");
const STRS = K("strs");
const MSGS = K("msgs");

/** The wire type each kind is written with. */
function wireTypeOf(kind: number): number {
  if (kind === I32 || kind === OI32 || kind === I64 || kind === OI64) return 0;
  if (kind === BOOL || kind === OBOOL) return 0;
  if (kind === DBL || kind === ODBL) return 1;
  return 2;
}

/** Per message: field number → field, for reading. */
const BY_NUMBER: readonly ReadonlyMap<number, Field>[] = MESSAGES.map(
  (fields) => new Map(fields.map((f) => [f[0], f])),
);

/** A message's index in the tables, by name. */
export function messageIndex(name: string): number {
  const i = NAMES.indexOf(name);
  if (i === -1) throw new Error(`no message ${name}`);
  return i;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** A cursor over one frame's bytes. */
export class Reader {
  readonly bytes: Uint8Array;
  pos: number;
  readonly #view: DataView;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.pos = 0;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** A varint of up to 32 significant bits (a tag, a length), as an unsigned number. */
  uint32(): number {
    const b = this.bytes;
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= b.length) throw new WireError("the bytes end inside a varint");
      const byte = b[this.pos++] as number;
      if (shift < 32) result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return result % 2 ** 32;
    }
    throw new WireError("a varint runs longer than 10 bytes");
  }

  /** A 64-bit varint as a signed number; a value beyond 2^53 is an error, as for @ag-ui/proto. */
  int64(): number {
    const b = this.bytes;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= b.length) throw new WireError("the bytes end inside a varint");
      const byte = b[this.pos++] as number;
      if (i < 4) lo += (byte & 0x7f) * 2 ** (7 * i);
      else if (i === 4) {
        lo += (byte & 0x0f) * 2 ** 28;
        hi += (byte & 0x70) >> 4;
      } else hi += (byte & 0x7f) * 2 ** (7 * i - 32);
      if (byte < 0x80) {
        hi %= 2 ** 32;
        const value = hi >= 2 ** 31 ? (hi - 2 ** 32) * 2 ** 32 + lo : hi * 2 ** 32 + lo;
        if (!Number.isSafeInteger(value)) throw new WireError("an int64 is beyond 2^53");
        return value;
      }
    }
    throw new WireError("a varint runs longer than 10 bytes");
  }

  int32(): number {
    return this.uint32() | 0;
  }

  double(): number {
    if (this.pos + 8 > this.bytes.length) throw new WireError("the bytes end inside a double");
    const value = this.#view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  /** The bytes of a length-delimited field. */
  chunk(): Uint8Array {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.bytes.length) throw new WireError("a field's length runs past its message");
    const out = this.bytes.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  string(): string {
    return utf8.decode(this.chunk());
  }

  /** Skips a field of `wireType` whose tag was just read (a group to its matching end). */
  skip(wireType: number, field: number): void {
    if (wireType === 0) this.uint32Any();
    else if (wireType === 1) this.advance(8);
    else if (wireType === 2) this.chunk();
    else if (wireType === 5) this.advance(4);
    else if (wireType === 3) {
      for (;;) {
        const tag = this.uint32();
        if (tag >>> 3 === 0) throw new WireError("field number 0");
        if ((tag & 7) === 4) {
          if (tag >>> 3 !== field) throw new WireError("a group ends with another group's tag");
          return;
        }
        this.skip(tag & 7, tag >>> 3);
      }
    } else throw new WireError(`wire type ${wireType} is not protobuf's`);
  }

  /** A bool: a varint of any width, true when any bit is set. */
  uint32Bool(): boolean {
    const start = this.pos;
    this.uint32Any();
    for (let i = start; i < this.pos; i++)
      if (((this.bytes[i] as number) & 0x7f) !== 0) return true;
    return false;
  }

  /** A varint of any width, skipped. */
  uint32Any(): void {
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw new WireError("the bytes end inside a varint");
      if ((this.bytes[this.pos++] as number) < 0x80) return;
    }
    throw new WireError("a varint runs longer than 10 bytes");
  }

  advance(n: number): void {
    if (this.pos + n > this.bytes.length) throw new WireError("the bytes end inside a field");
    this.pos += n;
  }
}

export type Obj = Record<string, unknown>;

/** The defaults a message starts from: implicit scalars at their zero, lists empty. */
function fresh(message: number): Obj {
  const out: Obj = {};
  for (const [, name, kind] of MESSAGES[message] as readonly Field[]) {
    if (kind === STR) out[name] = "";
    else if (kind === I32 || kind === I64 || kind === DBL) out[name] = 0;
    else if (kind === BOOL) out[name] = false;
    else if (kind === STRS || kind === MSGS) out[name] = [];
  }
  return out;
}

/**
 * Reads message `message` from `bytes` into `into` (a message of the same type read
 * earlier merges, as protobuf merges a field repeated on the wire). Unknown fields, and
 * known ones of another wire type, are skipped.
 */
export function readMessage(bytes: Uint8Array, message: number, into?: Obj, depth = 0): Obj {
  if (depth > 100) throw new WireError("messages nest deeper than 100");
  const out = into ?? fresh(message);
  const fields = BY_NUMBER[message] as ReadonlyMap<number, Field>;
  const r = new Reader(bytes);
  while (r.pos < bytes.length) {
    const tag = r.uint32();
    const number = tag >>> 3;
    const wireType = tag & 7;
    if (number === 0) throw new WireError("field number 0");
    if (wireType === 4) throw new WireError("a group ends that never began");
    const field = fields.get(number);
    if (field === undefined || wireTypeOf(field[2]) !== wireType) {
      r.skip(wireType, number);
      continue;
    }
    const [, name, kind, sub] = field;
    switch (kind) {
      case STR:
      case OSTR:
        out[name] = r.string();
        break;
      case I32:
      case OI32:
        out[name] = r.int32();
        break;
      case I64:
      case OI64:
        out[name] = r.int64();
        break;
      case BOOL:
      case OBOOL:
        out[name] = r.uint32Bool();
        break;
      case DBL:
      case ODBL:
        out[name] = r.double();
        break;
      case VALUE:
      case RVALUE:
        out[name] = readValue(r.chunk(), depth + 1);
        break;
      case STRUCT:
        out[name] = readStruct(r.chunk(), depth + 1);
        break;
      case LIST:
        out[name] = readList(r.chunk(), depth + 1);
        break;
      case MSG: {
        const prior = out[name];
        out[name] = readMessage(
          r.chunk(),
          sub as number,
          typeof prior === "object" && prior !== null ? (prior as Obj) : undefined,
          depth + 1,
        );
        break;
      }
      case STRS:
        (out[name] as unknown[]).push(r.string());
        break;
      case MSGS:
        (out[name] as unknown[]).push(readMessage(r.chunk(), sub as number, undefined, depth + 1));
        break;
      default:
        r.skip(wireType, number);
    }
  }
  return out;
}

/**
 * A `google.protobuf.Value` as the JSON value it carries, picked as @ag-ui/proto picks when
 * several are set (string, number, bool, object, array, null); none set is `undefined`.
 */
function readValue(bytes: Uint8Array, depth: number): unknown {
  if (depth > 100) throw new WireError("values nest deeper than 100");
  const r = new Reader(bytes);
  let nul: boolean | undefined;
  let num: number | undefined;
  let str: string | undefined;
  let bool: boolean | undefined;
  let struct: Obj | undefined;
  let list: unknown[] | undefined;
  while (r.pos < bytes.length) {
    const tag = r.uint32();
    const number = tag >>> 3;
    const wireType = tag & 7;
    if (number === 0) throw new WireError("field number 0");
    if (wireType === 4) throw new WireError("a group ends that never began");
    if (number === 1 && wireType === 0) {
      r.uint32Any();
      nul = true;
    } else if (number === 2 && wireType === 1) num = r.double();
    else if (number === 3 && wireType === 2) str = r.string();
    else if (number === 4 && wireType === 0) bool = r.uint32Bool();
    else if (number === 5 && wireType === 2) struct = readStruct(r.chunk(), depth + 1);
    else if (number === 6 && wireType === 2) list = readList(r.chunk(), depth + 1);
    else r.skip(wireType, number);
  }
  if (str !== undefined) return str;
  if (num !== undefined) return num;
  if (bool !== undefined) return bool;
  if (struct !== undefined) return struct;
  if (list !== undefined) return list;
  return nul === true ? null : undefined;
}

/** A `google.protobuf.Struct` as a JSON object; an entry whose value is unset is left out. */
function readStruct(bytes: Uint8Array, depth: number): Obj {
  if (depth > 100) throw new WireError("values nest deeper than 100");
  const out: Obj = {};
  const r = new Reader(bytes);
  while (r.pos < bytes.length) {
    const tag = r.uint32();
    if (tag >>> 3 === 0) throw new WireError("field number 0");
    if ((tag & 7) === 4) throw new WireError("a group ends that never began");
    if (tag !== 10) {
      r.skip(tag & 7, tag >>> 3);
      continue;
    }
    const entry = new Reader(r.chunk());
    let key = "";
    let value: unknown;
    while (entry.pos < entry.bytes.length) {
      const t = entry.uint32();
      if (t >>> 3 === 0) throw new WireError("field number 0");
      if ((t & 7) === 4) throw new WireError("a group ends that never began");
      if (t === 10) key = entry.string();
      else if (t === 18) value = readValue(entry.chunk(), depth + 1);
      else entry.skip(t & 7, t >>> 3);
    }
    // A plain property, even for "__proto__": defineProperty keeps it data, not a prototype.
    if (value !== undefined) {
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

/** A `google.protobuf.ListValue` as a JSON array (an unset value stays `undefined`). */
function readList(bytes: Uint8Array, depth: number): unknown[] {
  const out: unknown[] = [];
  const r = new Reader(bytes);
  while (r.pos < bytes.length) {
    const tag = r.uint32();
    if (tag >>> 3 === 0) throw new WireError("field number 0");
    if ((tag & 7) === 4) throw new WireError("a group ends that never began");
    if (tag === 10) out.push(readValue(r.chunk(), depth + 1));
    else r.skip(tag & 7, tag >>> 3);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Writing

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
