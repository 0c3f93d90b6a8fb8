/**
 * How another wire than SSE plugs into the event APIs (SPEC §21.3) without the main entry
 * bundling it: the decoder it brings, and how its failures reach the verifier.
 * @module
 */

import type { ConformWarning, VerifyErrorCode } from "../errors.ts";

/**
 * The key under which a failure value of another wire's decoder (protobuf, SPEC §21) tells
 * the verifier the rule 0 violation it stands for, so the verifier needs no code of that
 * decoder: `{ code, text, cause }`, where `text` is the message after "frame at index N: ".
 */
export const WIRE_FAILURE: unique symbol = Symbol.for("ag-ui-verify.wire-failure");

/** What a failure value holds under {@link WIRE_FAILURE}. */
export interface WireFailureInfo {
  readonly code: VerifyErrorCode;
  readonly text: string;
  readonly cause: unknown;
}

/** A body decoder: bytes pushed as they come, `finish` at the end; values go to its `emit`. */
export interface BodyDecoder {
  push(bytes: Uint8Array): void;
  finish(): void;
  /** While a value is handed on: the byte offset where its frame starts. */
  readonly frameStart?: number;
}

/** What a protobuf decoder is made with. */
export interface ProtobufDecoderOptions {
  readonly maxFrameSize?: number | undefined;
  readonly onWarning?: ((warning: ConformWarning) => void) | undefined;
}

/**
 * The protobuf transport, as `ag-ui-verify/proto` exports it (`protobuf`): handed to an
 * event API's `protobuf` option, it lets the API read `application/vnd.ag-ui.event+proto`
 * responses. Its members are the library's own.
 */
export interface ProtobufSupport {
  /** The media type it reads. */
  readonly mediaType: string;
  /** @internal */
  readonly decoder: (
    emit: (value: unknown) => void,
    options: ProtobufDecoderOptions,
  ) => BodyDecoder;
  /** @internal `verifyResponse`'s body for a protobuf upstream; `options` are its options. */
  readonly proxy: (
    body: ReadableStream<Uint8Array> | null,
    options: unknown,
  ) => ReadableStream<Uint8Array>;
}
