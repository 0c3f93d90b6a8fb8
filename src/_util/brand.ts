/**
 * Recognising the library's error classes across realms: each carries a getter named by a
 * `Symbol.for` key, which every realm of an agent shares, so a guard also knows an error
 * made in an iframe or by another copy of this library, where `instanceof` fails.
 * @module
 */

/**
 * True when `value` is an instance of `Class`, or an object whose `brand` getter returns
 * true. Never throws, not even for a revoked Proxy.
 * @internal
 */
export function isBranded(
  value: unknown,
  Class: abstract new (...args: never[]) => object,
  brand: symbol,
): boolean {
  if (typeof value !== "object" || value === null) return false;
  try {
    return value instanceof Class || (brand in value && Reflect.get(value, brand) === true);
  } catch {
    return false;
  }
}
