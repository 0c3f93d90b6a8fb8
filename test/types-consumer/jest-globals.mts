// ag-ui-verify/jest with Jest's own types, as a Node-only ESM consumer sees it: importing it
// puts a typed toBeValidAgUiStream on `expect` from @jest/globals.
import { expect } from "@jest/globals";
import "ag-ui-verify/jest";

export async function check(input: string): Promise<void> {
  await expect(input).toBeValidAgUiStream();
  await expect(input).not.toBeValidAgUiStream({ failOn: "warning", protocol: "draft" });
  // @ts-expect-error: the matcher's name is toBeValidAgUiStream.
  await expect(input).toBeValidAgUIStream();
  // @ts-expect-error: failOn is "error" or "warning".
  await expect(input).toBeValidAgUiStream({ failOn: "none" });
}
