import {
  crossSiteReadProblem,
  crossSiteWriteProblem,
  hostNameOf,
  hostProblem,
} from '../../../src/server/console/cross-site-guard';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const JSON_POST = { host: '127.0.0.1:8161', 'content-type': 'application/json' };

describe('hostNameOf', () => {
  it.each([
    ['localhost:8161', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]:8161', '[::1]'],
    ['[::1]', '[::1]'],
  ])('%s names %s', (host, name) => expect(hostNameOf(host)).toBe(name));

  it('is null without a host or with an unclosed bracket', () => {
    expect(hostNameOf(undefined)).toBeNull();
    expect(hostNameOf('')).toBeNull();
    expect(hostNameOf('[::1')).toBeNull();
  });
});

describe('hostProblem (DNS rebinding)', () => {
  it('accepts the allowed names on any port', () => {
    expect(hostProblem({ host: 'localhost:9999' }, LOOPBACK)).toBeNull();
    expect(hostProblem({ host: '[::1]:8161' }, LOOPBACK)).toBeNull();
  });

  it('refuses another name, saying which and what is allowed', () => {
    expect(hostProblem({ host: 'evil.example:8161' }, LOOPBACK)).toMatch(
      /host name 'evil.example' .*allowed: localhost, 127.0.0.1, \[::1\]/,
    );
  });

  it('refuses a request without Host', () => {
    expect(hostProblem({}, LOOPBACK)).toMatch(/no Host header/);
  });

  it('accepts any name when no list is kept (a console on every interface)', () => {
    expect(hostProblem({ host: 'broker.internal:8161' }, null)).toBeNull();
  });
});

describe('crossSiteReadProblem', () => {
  it('lets same-origin fetches, navigations and scripts without the header through', () => {
    expect(crossSiteReadProblem({ 'sec-fetch-site': 'same-origin' })).toBeNull();
    expect(crossSiteReadProblem({ 'sec-fetch-site': 'none' })).toBeNull();
    expect(crossSiteReadProblem({})).toBeNull();
  });

  it.each(['cross-site', 'same-site'])('refuses Sec-Fetch-Site: %s', (site) => {
    expect(crossSiteReadProblem({ 'sec-fetch-site': site })).toMatch(new RegExp(`another site .*${site}`));
  });
});

describe('crossSiteWriteProblem', () => {
  it('lets a JSON POST of the same origin through', () => {
    expect(
      crossSiteWriteProblem({
        ...JSON_POST,
        origin: 'http://127.0.0.1:8161',
        'sec-fetch-site': 'same-origin',
      }),
    ).toBeNull();
    expect(
      crossSiteWriteProblem({ ...JSON_POST, 'content-type': 'application/json; charset=utf-8' }),
    ).toBeNull();
  });

  it('refuses another origin, and the opaque origin of a sandboxed frame', () => {
    expect(crossSiteWriteProblem({ ...JSON_POST, origin: 'http://evil.example' })).toMatch(
      /another origin \(Origin: http:\/\/evil.example\)/,
    );
    expect(crossSiteWriteProblem({ ...JSON_POST, origin: 'null' })).toMatch(/another origin/);
    expect(crossSiteWriteProblem({ ...JSON_POST, origin: 'http://127.0.0.1:8162' })).toMatch(
      /another origin/,
    );
  });

  it('refuses what a cross-site form can send: no JSON content type', () => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain'])
      expect(crossSiteWriteProblem({ ...JSON_POST, 'content-type': type })).toMatch(
        /must have Content-Type: application\/json/,
      );
    expect(crossSiteWriteProblem({ host: '127.0.0.1:8161' })).toMatch(/it has none/);
  });

  it('refuses a cross-site Sec-Fetch-Site even with a matching Origin', () => {
    expect(
      crossSiteWriteProblem({
        ...JSON_POST,
        origin: 'http://127.0.0.1:8161',
        'sec-fetch-site': 'cross-site',
      }),
    ).toMatch(/another site/);
  });
});
