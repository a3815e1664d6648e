import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request on a connection of its own (no agent, no keep-alive), so nothing stays open after
 * the answer; fails after `timeoutMs` saying which request did not come back.
 */
export function httpRequest(
  url: string,
  options: {
    method?: string;
    body?: Buffer | string;
    timeoutMs?: number;
    headers?: Readonly<Record<string, string>>;
  } = {},
): Promise<HttpAnswer> {
  const { method = 'GET', body, timeoutMs = 10_000, headers = {} } = options;
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent: false, headers: { ...headers, Connection: 'close' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.setTimeout(timeoutMs, () =>
      request.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)),
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * The samples of a Prometheus text exposition, by `name{labels}` exactly as written; fails on a
 * line that is not a comment and has no value.
 */
export function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    if (space <= 0) throw new Error(`not a sample line: ${line}`);
    const raw = line.slice(space + 1);
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    if (raw !== 'NaN' && Number.isNaN(value)) throw new Error(`not a number in: ${line}`);
    samples.set(line.slice(0, space), value);
  }
  return samples;
}
