/**
 * The compatibility boundary of AG-UI 1.1's consumer pipeline (SPEC §20.1 stage 1): the five
 * retired `THINKING_*` event types become the reasoning events they stand for, as
 * `@ag-ui/client` 1.0.0's always-on boundary translates them (a differential test holds
 * this). A span or message the producer never identified gets an id minted here
 * (`ag-ui-verify-thinking-N`), as the client mints one; `THINKING_START`'s `title` has no
 * place in `REASONING_START` and is dropped.
 * @module
 */

import type { Rec } from "../verify/verifier.ts";

const TRANSLATION: ReadonlyMap<string, string> = new Map([
  ["THINKING_START", "REASONING_START"],
  ["THINKING_END", "REASONING_END"],
  ["THINKING_TEXT_MESSAGE_START", "REASONING_MESSAGE_START"],
  ["THINKING_TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT"],
  ["THINKING_TEXT_MESSAGE_END", "REASONING_MESSAGE_END"],
]);

/** One stream's boundary: it remembers the open span's and message's minted ids. */
export class Boundary {
  #span: string | undefined;
  #message: string | undefined;
  #minted = 0;

  #mint(): string {
    return `ag-ui-verify-thinking-${++this.#minted}`;
  }

  /** The reasoning event a `THINKING_*` event stands for; undefined for any other event. */
  translate(event: Rec): Rec | undefined {
    const type = TRANSLATION.get(event.type as string);
    if (type === undefined) return undefined;
    switch (event.type) {
      case "THINKING_START": {
        const { title: _title, ...rest } = event;
        this.#span = this.#mint();
        return { ...rest, type, messageId: this.#span };
      }
      case "THINKING_TEXT_MESSAGE_START":
        this.#message = this.#mint();
        return { ...event, type, messageId: this.#message, role: "reasoning" };
      case "THINKING_TEXT_MESSAGE_CONTENT":
        return { ...event, type, messageId: this.#message ?? this.#mint() };
      case "THINKING_TEXT_MESSAGE_END": {
        const id = this.#message ?? this.#mint();
        this.#message = undefined;
        return { ...event, type, messageId: id };
      }
      default: {
        const id = this.#span ?? this.#mint();
        this.#span = undefined;
        return { ...event, type, messageId: id };
      }
    }
  }
}
