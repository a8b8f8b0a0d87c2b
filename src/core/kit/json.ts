/** A JSON value. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object.
 * @inline
 */
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema document, as a plain object. */
export type JsonSchema = JsonObject;
