/**
 * The field kinds of the generated wire tables, shared by the reader (wire.ts) and the
 * writer (writer.ts).
 * @module
 */

import { KINDS, NAMES } from "./wire.generated.ts";

/** Malformed bytes: the frame is not a protobuf message of the expected shape. */
export class WireError extends Error {}

type Kind = (typeof KINDS)[number];
const K = (kind: Kind): number => KINDS.indexOf(kind);
export const STR = K("str");
export const OSTR = K("ostr");
export const I32 = K("i32");
export const OI32 = K("oi32");
export const I64 = K("i64");
export const OI64 = K("oi64");
export const BOOL = K("bool");
export const OBOOL = K("obool");
export const DBL = K("dbl");
export const ODBL = K("odbl");
export const VALUE = K("value");
export const RVALUE = K("rvalue");
export const STRUCT = K("struct");
export const LIST = K("list");
export const MSG = K("msg");
export const STRS = K("strs");
export const MSGS = K("msgs");

/** A decoded message: its fields by name. */
export type Obj = Record<string, unknown>;

/** A message's index in the tables, by name. */
export function messageIndex(name: string): number {
  const i = NAMES.indexOf(name);
  if (i === -1) throw new Error(`no message ${name}`);
  return i;
}
