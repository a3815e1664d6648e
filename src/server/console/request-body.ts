import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './http-problem';

/**
 * A POST's JSON body as an object, read up to `maxBytes`: a larger one is refused (413) as soon
 * as it passes the bound, not once it is all in memory; an empty body is `{}`.
 */
export async function readJsonObject(request: IncomingMessage, maxBytes: number): Promise<JsonObject> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = (await readUpTo(request, maxBytes)).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(400, `the request body is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HttpProblem(400, 'the request body must be a JSON object ({...})');
  return value as JsonObject;
}

/**
 * The body's bytes, or a 413 once they pass `maxBytes`. Listeners, not an async iterator: leaving
 * an iterator early destroys the request, and its socket with it, before the 413 is written; the
 * server then discards what is left (see discardRest).
 */
function readUpTo(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) {
        stop();
        request.pause();
        reject(tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    const onClose = (): void => {
      stop();
      reject(new Error('the client closed the connection before the request body was complete'));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}

export type JsonObject = Readonly<Record<string, unknown>>;

function tooLarge(maxBytes: number): HttpProblem {
  return new HttpProblem(413, `the request body is larger than ${maxBytes} bytes`);
}

/** `body[name]` as a string of at most `maxChars`; undefined when absent and optional. */
export function stringField(
  body: JsonObject,
  name: string,
  options: { maxChars: number; required: true },
): string;
export function stringField(
  body: JsonObject,
  name: string,
  options: { maxChars: number; required?: false },
): string | undefined;
export function stringField(
  body: JsonObject,
  name: string,
  options: { maxChars: number; required?: boolean },
): string | undefined {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  if (value === undefined || value === null) {
    if (options.required === true) throw new HttpProblem(400, `the request body needs "${name}" (a string)`);
    return undefined;
  }
  if (typeof value !== 'string')
    throw new HttpProblem(400, `"${name}" in the request body must be a string (it is ${typeof value})`);
  if (value.length > options.maxChars)
    throw new HttpProblem(
      400,
      `"${name}" in the request body is ${value.length} characters long; at most ${options.maxChars} are accepted`,
    );
  return value;
}
