import type { IncomingHttpHeaders } from 'node:http';

/**
 * The console's defences against other web sites, as pure functions of a request's headers:
 *
 * - DNS rebinding: a page of evil.example whose name is made to resolve to 127.0.0.1 reaches a
 *   loopback console as "its own" origin; the Host header still says evil.example, and only the
 *   console's own names are served (allowedHosts).
 * - Cross-site requests: a POST (every change is one) must come from the console's own origin.
 *   Browsers send Origin with every POST and Sec-Fetch-Site with every request, so a form or a
 *   fetch from another site is recognised and refused; a script (curl) sends neither, and is
 *   let through to authentication. A POST must also be `Content-Type: application/json`, which a
 *   cross-site form cannot send and a cross-site fetch can only send after a CORS preflight, which
 *   the console never grants.
 */

/** The Host header's name without its port, lower-cased (`[::1]` stays bracketed); null when unusable. */
export function hostNameOf(host: string | undefined): string | null {
  if (host === undefined || host === '') return null;
  const lowered = host.toLowerCase();
  if (lowered.startsWith('[')) {
    const end = lowered.indexOf(']');
    return end < 0 ? null : lowered.slice(0, end + 1);
  }
  const colon = lowered.indexOf(':');
  return colon < 0 ? lowered : lowered.slice(0, colon);
}

/** Why the Host header is refused (DNS rebinding), or null; allowedHosts null accepts any name. */
export function hostProblem(
  headers: IncomingHttpHeaders,
  allowedHosts: ReadonlySet<string> | null,
): string | null {
  const name = hostNameOf(headers.host);
  if (name === null) return 'the request has no Host header';
  if (allowedHosts === null || allowedHosts.has(name)) return null;
  return `the console does not answer to the host name '${name.slice(0, 100)}' (allowed: ${[...allowedHosts].join(', ')}); a page whose own name resolves to this address must not reach it`;
}

/** Sec-Fetch-Site values of requests that did not come from another site. */
const OWN_SITE = new Set(['same-origin', 'none']);

/** Why a GET of the API is refused as coming from another site, or null. */
export function crossSiteReadProblem(headers: IncomingHttpHeaders): string | null {
  const site = single(headers['sec-fetch-site']);
  if (site !== undefined && !OWN_SITE.has(site))
    return `a request from another site (Sec-Fetch-Site: ${site.slice(0, 40)}) is refused`;
  return null;
}

/** Why a POST is refused as cross-site (or as not JSON), or null. */
export function crossSiteWriteProblem(headers: IncomingHttpHeaders): string | null {
  const read = crossSiteReadProblem(headers);
  if (read !== null) return read;
  const origin = single(headers.origin);
  if (origin !== undefined && origin !== `http://${headers.host ?? ''}`)
    return `a POST from another origin (Origin: ${origin.slice(0, 100)}) is refused`;
  const type = single(headers['content-type']);
  const mediaType = type?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json')
    return `a POST must have Content-Type: application/json (it has ${type === undefined ? 'none' : type.slice(0, 100)})`;
  return null;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
