// The official AG-UI conformance corpus (test/conformance/ag-ui/), read for the tests that run
// it: the fixtures by version, a fixture's stream as SSE bytes, and the checks of the keys
// every pipeline is held to on the events it delivers.

import { readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import type { AgUiEvent, VerifyErrorCode } from "../../src/index.ts";

export const VERSIONS = ["1.1", "1.0", "draft"] as const;
export type Version = (typeof VERSIONS)[number];

export const ROOT = new URL("../conformance/ag-ui/", import.meta.url);

export interface Expect {
  outcome: "completed" | "failed";
  errorContains?: string;
  runError?: true | string;
  eventTypes?: string[];
  eventTypesAbsent?: string[];
  eventPaths?: Record<string, unknown>;
  eventAbsentPaths?: string[];
  [key: string]: unknown;
}

export interface Fixture {
  version: Version;
  file: string;
  name: string;
  client?: { maxProtocolVersion?: string };
  stream: unknown[];
  expect: Expect;
}

export function fixturesOf(version: Version): Fixture[] {
  const dir = new URL(`${version}/`, ROOT);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const json = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
      return { ...json, version, file };
    });
}

export const FIXTURES: Record<Version, Fixture[]> = {
  "1.1": fixturesOf("1.1"),
  "1.0": fixturesOf("1.0"),
  draft: fixturesOf("draft"),
};

/** Where the verifier rejects a stream: its code and the index it reports. */
export interface Rejection {
  code: VerifyErrorCode;
  index: number;
}

/** `data: <JSON>` and a blank line per event, as UTF-8 bytes. */
export function sse(stream: readonly unknown[]): ReadableStream<Uint8Array> {
  const text = stream.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** The value at `<index>.<dotted path>` of the delivered events, or `absent`. */
export const absent = Symbol("absent");
export function at(events: readonly unknown[], path: string): unknown {
  let value: unknown = events;
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return absent;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function expectEventKeys(fixture: Fixture, events: readonly AgUiEvent[]): void {
  const e = fixture.expect;
  const types = events.map((event) => event.type);
  if (e.eventTypes !== undefined) expect(types).toEqual(e.eventTypes);
  for (const type of e.eventTypesAbsent ?? []) expect(types).not.toContain(type);
  for (const [path, value] of Object.entries(e.eventPaths ?? {})) {
    expect(at(events, path), path).toEqual(value);
  }
  for (const path of e.eventAbsentPaths ?? []) expect(at(events, path), path).toBe(absent);
  if (e.runError !== undefined) {
    const errors = events.filter((event) => event.type === "RUN_ERROR");
    expect(errors.length, "a RUN_ERROR was delivered").toBeGreaterThan(0);
    if (typeof e.runError === "string") {
      const text = e.runError;
      expect(errors.some((event) => String(event.message).includes(text))).toBe(true);
    }
  }
}
