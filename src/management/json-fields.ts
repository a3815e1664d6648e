import type { ManagementValue } from './management-codec';
import { ManagementError, ManagementErrorCode } from './management-error';

/**
 * Reading the JSON a server answered, field by field, with an error that names the request and
 * the field when one is missing or of another type. Artemis' list views give every value as a
 * string ("12", "true"), HornetQ's as JSON numbers and booleans: both are read here.
 */
export type JsonObject = { readonly [key: string]: ManagementValue };

export class JsonFields {
  constructor(
    /** The request, for errors: `core.server listConnectionsAsJSON`. */
    private readonly what: string,
  ) {}

  /** A result that is a JSON text (the servers' `...AsJSON` operations answer a string). */
  parse(result: ManagementValue): ManagementValue {
    if (typeof result !== 'string') return result;
    try {
      return JSON.parse(result) as ManagementValue;
    } catch (error) {
      throw this.bad(`the result is not JSON: ${result.slice(0, 80)}`, error);
    }
  }

  /** The objects of an array. */
  objects(value: ManagementValue): JsonObject[] {
    if (!Array.isArray(value)) throw this.bad(`the result is not an array: ${preview(value)}`);
    return (value as readonly ManagementValue[]).map((item, index) => {
      if (!isObject(item)) throw this.bad(`item ${index} is not an object: ${preview(item)}`);
      return item;
    });
  }

  object(value: ManagementValue): JsonObject {
    if (!isObject(value)) throw this.bad(`the result is not an object: ${preview(value)}`);
    return value;
  }

  number(object: JsonObject, key: string): number {
    const value = object[key];
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      throw this.bad(`field '${key}' is not a number: ${preview(value)}`);
    }
    return number;
  }

  optionalNumber(object: JsonObject, key: string): number | null {
    return object[key] === undefined || object[key] === null ? null : this.number(object, key);
  }

  text(object: JsonObject, key: string): string {
    const value = object[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
    throw this.bad(`field '${key}' is not a string: ${preview(value)}`);
  }

  /** A string, or null for a field absent, null, or (Artemis' views) empty. */
  optionalText(object: JsonObject, key: string): string | null {
    const value = object[key];
    if (value === undefined || value === null || value === '') return null;
    return this.text(object, key);
  }

  boolean(object: JsonObject, key: string): boolean {
    const value = object[key];
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    throw this.bad(`field '${key}' is not a boolean: ${preview(value)}`);
  }

  bad(detail: string, cause?: unknown): ManagementError {
    return new ManagementError(
      ManagementErrorCode.BAD_REPLY,
      this.what,
      detail,
      cause === undefined ? undefined : { cause },
    );
  }
}

function isObject(value: ManagementValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(value: ManagementValue | undefined): string {
  return value === undefined ? 'absent' : JSON.stringify(value).slice(0, 80);
}
