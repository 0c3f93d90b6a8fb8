/**
 * The protobuf wire, read from the generated tables (wire.generated.ts; writer.ts writes it):
 * one message at a time, into plain objects shaped as `@ag-ui/proto` 1.0.0's generated code
 * shapes them (field names in camelCase, `google.protobuf.Value`, `Struct` and `ListValue`
 * as the JSON values they carry). What such an object means as an AG-UI event is
 * events.ts's business.
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
  WireError,
} from "./kinds.ts";
import { type Field, MESSAGES } from "./wire.generated.ts";

export { messageIndex, type Obj, WireError } from "./kinds.ts";

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

const utf8 = new TextDecoder();

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
