/**
 * `ag-ui-verify/proto`: AG-UI over protobuf (SPEC §21), the second wire of AG-UI 1.1.
 * Nothing of it is in the main entry's bundle.
 * @module
 */

import type { ProtobufSupport } from "../_util/transport.ts";
import type { VerifyResponseOptions } from "../http/proxy.ts";
import { PROTO_MEDIA_TYPE, ProtoDecoder } from "./decoder.ts";
import { verifiedFrames } from "./proxy.ts";

export {
  encodeFrame,
  PROTO_MEDIA_TYPE,
  ProtoDecodeFailure,
  type ProtoDecodeFailureCode,
  type ProtoDecoderOptions,
  ProtoDecoderStream,
  ProtoEncoderStream,
} from "./decoder.ts";

/**
 * The protobuf transport for the event APIs of the main entry and `ag-ui-verify/conform`
 * (SPEC §21.3): with `{ protobuf }` in their options, `verifiedEvents`, `conformingEvents`
 * and `runAgent` read a `Response` whose content type is `application/vnd.ag-ui.event+proto`
 * as protobuf frames, with the same verdicts as SSE, and `runAgent` asks for it (`accept`);
 * `verifyResponse` and `verifyingFetch` re-serve such a response frame for frame, verified.
 * An application that never imports it ships none of the protobuf code.
 *
 * @example
 * ```ts
 * import { verifiedEvents } from "ag-ui-verify";
 * import { PROTO_MEDIA_TYPE, ProtoEncoderStream, protobuf } from "ag-ui-verify/proto";
 * // A protobuf response, here made locally: `await fetch(url, init)` in an app.
 * const body = ReadableStream.from([
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ]).pipeThrough(new ProtoEncoderStream());
 * const response = new Response(body, { headers: { "content-type": PROTO_MEDIA_TYPE } });
 * for await (const event of verifiedEvents(response, { protobuf })) console.log(event.type);
 * // RUN_STARTED, RUN_FINISHED
 * ```
 */
export const protobuf: ProtobufSupport = {
  mediaType: PROTO_MEDIA_TYPE,
  decoder: (emit, options) => new ProtoDecoder(emit, options),
  proxy: (body, options) => verifiedFrames(body, options as VerifyResponseOptions),
};
