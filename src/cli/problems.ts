/**
 * The command's own failures: a usage or input problem (exit 2), and the one-line messages
 * for failed file operations. Imported by every part of the command; imports none of them.
 * @module
 */

/** A problem with how the command was called, or with reading an input: exit 2. */
export class UsageError extends Error {}

/** A path that, opened, was not a regular file (`what`: `a FIFO`, …); a walk skips it. */
export class NotRegular extends UsageError {
  readonly path: string;
  readonly what: string;

  constructor(path: string, what: string) {
    super(`cannot read ${JSON.stringify(path)}: it is ${what}, not a regular file`);
    this.path = path;
    this.what = what;
  }
}

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOTDIR: "a part of the path is not a directory",
  ENXIO: "nothing can be read from it (a socket, or a device that is not there)",
};

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A one-line message for a failed file operation on `what` (`verb`: what was tried). */
export function ioMessage(error: unknown, what: string, verb = "read"): string {
  const code = error instanceof Error ? Reflect.get(error, "code") : undefined;
  const reason =
    (typeof code === "string" && REASONS[code]) || messageOf(error).replace(/\s+/g, " ");
  return `cannot ${verb} ${what}: ${reason}`;
}
