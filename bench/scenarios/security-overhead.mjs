// security-overhead: what security costs. np and p throughput with security off and on (one user,
// an scrypt hash, every permission on `#` among 20 other matches: each send is checked), measured
// back to back in the same run so that machine noise hits both alike; the summary reports
// 1 - on/off over the medians. And what a login costs: a connection's first session, connection
// after connection (in this process; a connection's later sessions reuse its login), with security
// off, a plain-text password and an scrypt hash.
import hornetq from '../../dist/index.js';
import { round } from '../payload.mjs';
import { median } from '../lib/stats.mjs';
import { measureThroughput } from '../lib/throughput.mjs';
import { nonPersistentSpec, persistentSpec } from './ours-workloads.mjs';

const { Broker, ClientSessionFactory, FileSecurityManager, hashPassword } = hornetq;
const USER = 'bench';
const PASSWORD = 'bench-password';
const LOGINS = 40;

export default {
  name: 'security-overhead',
  repeated: true,
  async run(options) {
    const lines = [];
    for (const spec of [nonPersistentSpec, persistentSpec]) {
      for (const security of ['off', 'on'])
        lines.push(await measureThroughput(withSecurity(spec(options), security)));
    }
    for (const password of ['off', 'plain', 'scrypt']) lines.push(await measureLogins(password));
    return lines;
  },
};

function withSecurity(spec, security) {
  const login = { BENCH_USER: USER, BENCH_PASSWORD: PASSWORD };
  return {
    ...spec,
    scenario: 'security-overhead',
    brokerEnv: { ...spec.brokerEnv, BENCH_SECURITY: security === 'on' ? '1' : '0', ...login },
    clientEnv: { ...spec.clientEnv, ...(security === 'on' ? login : {}) },
    extra: { ...spec.extra, security },
  };
}

/**
 * Milliseconds per login: a new connection's first CREATESESSION (the connect itself is not timed),
 * over LOGINS connections made one at a time.
 */
async function measureLogins(password) {
  const securityEnabled = password !== 'off';
  const stored = password === 'scrypt' ? await hashPassword(PASSWORD) : PASSWORD;
  const broker = new Broker({
    persistenceEnabled: false,
    acceptors: [{ name: 'bench', type: 'tcp', host: '127.0.0.1', port: 0 }],
    securityEnabled,
    ...(securityEnabled
      ? {
          securityManager: new FileSecurityManager({
            defaultUser: null,
            users: [{ name: USER, password: stored, roles: ['bench'] }],
          }),
        }
      : {}),
  });
  await broker.start();
  const times = [];
  try {
    for (let i = 0; i < LOGINS; i++) {
      const factory = await ClientSessionFactory.connect({
        connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
      });
      try {
        const startedNs = process.hrtime.bigint();
        await factory.createSession({ username: USER, password: PASSWORD });
        times.push(Number(process.hrtime.bigint() - startedNs) / 1e6);
      } finally {
        await factory.close();
      }
    }
  } finally {
    await broker.stop();
  }
  return {
    peer: 'ours',
    scenario: 'security-overhead',
    mode: 'login',
    password,
    logins: LOGINS,
    p50_login_ms: round(median(times), 3),
    max_login_ms: round(Math.max(...times), 3),
  };
}
