// ag-ui-verify/jest with @types/jest's global `expect` (no import of it): the matcher is
// typed on jest.Matchers too.
import "ag-ui-verify/jest";

export async function check(input: string): Promise<void> {
  await expect(input).toBeValidAgUiStream();
  await expect(input).not.toBeValidAgUiStream({ failOn: "warning" });
  // @ts-expect-error: the matcher's name is toBeValidAgUiStream.
  await expect(input).toBeValidAgUIStream();
}
