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
  /** Where a Standard Schema keeps its properties, under a name no schema API uses. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** The types that go with {@link StandardSchemaV1}. */
export declare namespace StandardSchemaV1 {
  /** What a schema carries under `"~standard"`. */
  interface Props<Input = unknown, Output = Input> {
    /** The version of the interface: 1. */
    readonly version: 1;
    /** Who made the schema (`"zod"`, `"ag-ui-verify"`...). */
    readonly vendor: string;
    /** Checks `value`: `{ value }` when it passes, `{ issues }` when it does not. */
    readonly validate: (
      value: unknown,
      options?: Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    /** Present only in types, for inference. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** Options a caller may pass to `validate`. */
  interface Options {
    /** Settings particular to the schema's library. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The outcome of `validate`. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** Success: the (possibly transformed) value. */
  interface SuccessResult<Output> {
    /** The value, as the schema outputs it. */
    readonly value: Output;
    /** Absent on success. */
    readonly issues?: undefined;
  }
  /** Failure: at least one issue. */
  interface FailureResult {
    /** What is wrong with the value. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One problem found: what, and where (keys from the root of the value). */
  interface Issue {
    /** What is wrong, for people. */
    readonly message: string;
    /** Where, as keys from the root of the value; absent or empty for the value itself. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path segment given as an object. */
  interface PathSegment {
    /** The property name or array index. */
    readonly key: PropertyKey;
  }
  /** The input and output types, for inference. */
  interface Types<Input = unknown, Output = Input> {
    /** What the schema accepts. */
    readonly input: Input;
    /** What a successful validation gives. */
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
