/**
 * The Standard Schema v1 interface (https://standardschema.dev), the convention zod, valibot
 * and arktype share, declared here so that using it costs no dependency. Only the parts
 * this library reads or produces are spelled out; any conforming schema fits.
 *
 * @module
 */

/**
 * A value that can validate unknown input: `schema["~standard"].validate(value)` returns
 * `{ value }` or `{ issues }` (or a Promise of one, which the verifier refuses).
 *
 * @example
 * ```ts
 * import type { StandardSchemaV1 } from "ag-ui-verify/schema";
 *
 * const isString: StandardSchemaV1<unknown, string> = {
 *   "~standard": {
 *     version: 1,
 *     vendor: "example",
 *     validate: (value) =>
 *       typeof value === "string" ? { value } : { issues: [{ message: "expected a string" }] },
 *   },
 * };
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** The types that go with {@link StandardSchemaV1}. */
export declare namespace StandardSchemaV1 {
  /** What a schema carries under `"~standard"`. */
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
      options?: Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    /** Present only in types, for inference. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** Options a caller may pass to `validate`. */
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The outcome of `validate`. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** Success: the (possibly transformed) value. */
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  /** Failure: at least one issue. */
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One problem found: what, and where (keys from the root of the value). */
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path segment given as an object. */
  interface PathSegment {
    readonly key: PropertyKey;
  }
  /** The input and output types, for inference. */
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** The input type of a schema. */
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema["~standard"]["types"]
  >["input"];
  /** The output type of a schema. */
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema["~standard"]["types"]
  >["output"];
}
