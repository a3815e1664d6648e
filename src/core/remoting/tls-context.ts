import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { TlsConfigurationError, type TlsMaterial, type TlsSettings } from './tls-settings';

/** The options a node:tls server or client is made with, and the context they make, checked once. */
export interface LoadedTls {
  options: tls.SecureContextOptions;
  context: tls.SecureContext;
}

const JKS_MAGIC = 0xfeedfeed;
const JCEKS_MAGIC = 0xcececece;
const PROTOCOLS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PEM_PRIVATE_KEY = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

/**
 * Reads the stores `settings` name and makes a secure context of them, so that a missing file, a
 * wrong password or an unknown protocol is found here, at start or connect, and never per
 * connection. `owner` ("acceptor 'netty'") starts every message; no message holds a password.
 */
export function loadTls(settings: TlsSettings, owner: string): LoadedTls {
  const options: tls.SecureContextOptions = {
    ...protocolRange(settings.enabledProtocols, owner),
    ...cipherList(settings.enabledCipherSuites),
  };
  const inMemory = inMemoryOptions(settings, owner);
  if (inMemory !== null) {
    Object.assign(options, inMemory);
  } else if (settings.keyStorePath !== undefined) {
    Object.assign(
      options,
      keyStoreOptions(settings.keyStorePath, settings.keyStorePassword, settings.privateKeyPath, owner),
    );
  } else if (settings.privateKeyPath !== undefined) {
    throw new TlsConfigurationError(
      owner,
      'key-path needs key-store-path: the certificate the key belongs to',
    );
  }
  if (settings.ca !== undefined) {
    if (settings.trustStorePath !== undefined) {
      throw new TlsConfigurationError(
        owner,
        'give the CA certificates once: ca or trust-store-path, not both',
      );
    }
    options.ca = inMemoryCa(settings.ca, owner);
  } else if (settings.trustStorePath !== undefined) {
    options.ca = trustStore(settings.trustStorePath, owner);
  }
  try {
    return { options, context: tls.createSecureContext(options) };
  } catch (error) {
    throw new TlsConfigurationError(owner, contextProblem(error, settings), { cause: error });
  }
}

/**
 * This end's certificate and key given in memory (cert and key, or pfx), or null when they come
 * from key-store-path or not at all. Each part is checked for what it must hold; a message names
 * the option, never its content.
 */
function inMemoryOptions(settings: TlsSettings, owner: string): tls.SecureContextOptions | null {
  const { cert, key, pfx } = settings;
  if (cert === undefined && key === undefined && pfx === undefined) return null;
  if (settings.keyStorePath !== undefined || settings.privateKeyPath !== undefined) {
    throw new TlsConfigurationError(
      owner,
      "give this side's certificate once: cert and key, or pfx, or key-store-path, not two of them",
    );
  }
  const password = settings.keyStorePassword;
  const passphrase = password === undefined || password === '' ? {} : { passphrase: password };
  if (pfx !== undefined) {
    if (cert !== undefined || key !== undefined) {
      throw new TlsConfigurationError(
        owner,
        'pfx carries its certificate and key: give no cert or key with it',
      );
    }
    if (!Buffer.isBuffer(pfx) || pfx[0] !== 0x30) {
      throw new TlsConfigurationError(owner, 'pfx must be the bytes of a PKCS#12 store (a Buffer)');
    }
    return { pfx, ...passphrase };
  }
  if (cert === undefined || key === undefined) {
    throw new TlsConfigurationError(
      owner,
      `${cert === undefined ? 'key' : 'cert'} needs ${cert === undefined ? 'cert' : 'key'}: give the certificate chain and its private key together`,
    );
  }
  pemOf('cert', cert, PEM_CERTIFICATE, 'PEM certificate', owner);
  pemOf('key', key, PEM_PRIVATE_KEY, 'PEM private key', owner);
  return { cert, key, ...passphrase };
}

function inMemoryCa(ca: TlsMaterial | readonly TlsMaterial[], owner: string): TlsMaterial[] {
  const list = Array.isArray(ca) ? [...(ca as readonly TlsMaterial[])] : [ca as TlsMaterial];
  if (list.length === 0) throw new TlsConfigurationError(owner, 'ca is an empty list');
  list.forEach((item, index) =>
    pemOf(list.length === 1 ? 'ca' : `ca[${index}]`, item, PEM_CERTIFICATE, 'PEM certificate', owner),
  );
  return list;
}

/** Checks that a string or Buffer holds the PEM block it must; says what it is not, never what it is. */
function pemOf(name: string, value: unknown, block: RegExp, what: string, owner: string): void {
  const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('latin1') : null;
  if (text === null) {
    throw new TlsConfigurationError(owner, `${name} must be a string or a Buffer (actual: ${typeof value})`);
  }
  if (!block.test(text)) throw new TlsConfigurationError(owner, `${name} holds no ${what}`);
}

/** node:tls takes a lowest and a highest version, so the list must be a contiguous run of them. */
function protocolRange(
  protocols: readonly string[] | undefined,
  owner: string,
): Pick<tls.SecureContextOptions, 'minVersion' | 'maxVersion'> {
  if (protocols === undefined || protocols.length === 0) return {};
  const indexes = protocols.map((protocol) => {
    const index = (PROTOCOLS as readonly string[]).indexOf(protocol);
    if (index === -1) {
      throw new TlsConfigurationError(
        owner,
        `enabled-protocols '${protocols.join(',')}': '${protocol}' is not one of ${PROTOCOLS.join(', ')}`,
      );
    }
    return index;
  });
  const low = Math.min(...indexes);
  const high = Math.max(...indexes);
  if (new Set(indexes).size !== high - low + 1) {
    throw new TlsConfigurationError(
      owner,
      `enabled-protocols '${protocols.join(',')}' must be a contiguous range (node:tls takes a lowest and a highest version)`,
    );
  }
  return { minVersion: PROTOCOLS[low], maxVersion: PROTOCOLS[high] };
}

function cipherList(suites: readonly string[] | undefined): Pick<tls.SecureContextOptions, 'ciphers'> {
  return suites === undefined || suites.length === 0 ? {} : { ciphers: suites.join(':') };
}

/** PKCS#12 becomes `pfx`, PEM `cert` and `key` (both from the one file). */
function keyStoreOptions(
  file: string,
  password: string | undefined,
  keyFile: string | undefined,
  owner: string,
): tls.SecureContextOptions {
  const data = readStore('key-store-path', file, owner);
  const passphrase = password === undefined || password === '' ? {} : { passphrase: password };
  const format = storeFormat('key-store-path', file, data, owner);
  if (keyFile !== undefined) return separateKeyOptions(file, data, format, keyFile, passphrase, owner);
  if (format === 'pkcs12') return { pfx: data, ...passphrase };
  const text = data.toString('latin1');
  if (!PEM_CERTIFICATE.test(text) || !PEM_PRIVATE_KEY.test(text)) {
    throw new TlsConfigurationError(
      owner,
      `key-store-path '${file}' is PEM but does not hold both a certificate chain and a private key (put both in one file: cat cert.pem key.pem > store.pem)`,
    );
  }
  return { cert: data, key: data, ...passphrase };
}

/** A PEM certificate chain in key-store-path and its PEM private key in key-path. */
function separateKeyOptions(
  file: string,
  data: Buffer,
  format: 'pkcs12' | 'pem',
  keyFile: string,
  passphrase: { passphrase?: string },
  owner: string,
): tls.SecureContextOptions {
  if (format === 'pkcs12' || !PEM_CERTIFICATE.test(data.toString('latin1'))) {
    throw new TlsConfigurationError(
      owner,
      `key-path is for a PEM certificate chain, and key-store-path '${file}' holds none (a PKCS#12 store carries its key itself)`,
    );
  }
  const key = readStore('key-path', keyFile, owner);
  if (!PEM_PRIVATE_KEY.test(key.toString('latin1'))) {
    throw new TlsConfigurationError(owner, `key-path '${keyFile}' holds no PEM private key`);
  }
  return { cert: data, key, ...passphrase };
}

/** A PEM bundle of CA certificates; a PKCS#12 trust store has no key, which Node's `pfx` needs. */
function trustStore(file: string, owner: string): Buffer {
  const data = readStore('trust-store-path', file, owner);
  if (storeFormat('trust-store-path', file, data, owner) === 'pkcs12') {
    throw new TlsConfigurationError(
      owner,
      `trust-store-path '${file}' is PKCS#12; Node reads trust stores as a PEM bundle of CA certificates: convert it with openssl pkcs12 -in ${file} -nokeys -out ${withExtension(file, '.pem')}`,
    );
  }
  if (!PEM_CERTIFICATE.test(data.toString('latin1'))) {
    throw new TlsConfigurationError(owner, `trust-store-path '${file}' holds no PEM certificate`);
  }
  return data;
}

function readStore(param: string, file: string, owner: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(error)})`;
    throw new TlsConfigurationError(owner, `${param} '${file}' ${why}`, { cause: error });
  }
}

/** What a store file is, by its first bytes first (a JKS file may be called .p12), then its name. */
function storeFormat(param: string, file: string, data: Buffer, owner: string): 'pkcs12' | 'pem' {
  const magic = data.length >= 4 ? data.readUInt32BE(0) : 0;
  if (magic === JKS_MAGIC || magic === JCEKS_MAGIC) {
    const kind = magic === JKS_MAGIC ? 'JKS' : 'JCEKS';
    if (param === 'trust-store-path') {
      throw new TlsConfigurationError(
        owner,
        `${param} '${file}' is a Java ${kind} keystore, which Node cannot read; give a PEM bundle of the CA certificates instead, exported with: keytool -exportcert -rfc -keystore ${file} -alias <alias> -file ${withExtension(file, '.pem')}`,
      );
    }
    throw new TlsConfigurationError(
      owner,
      `${param} '${file}' is a Java ${kind} keystore, which Node cannot read; convert it to PKCS#12 with: keytool -importkeystore -srckeystore ${file} -destkeystore ${withExtension(file, '.p12')} -deststoretype PKCS12`,
    );
  }
  if (data.toString('latin1').includes('-----BEGIN ')) return 'pem';
  const extension = path.extname(file).toLowerCase();
  // PKCS#12 is DER: a SEQUENCE (0x30) at the start.
  if (extension === '.p12' || extension === '.pfx' || data[0] === 0x30) return 'pkcs12';
  throw new TlsConfigurationError(
    owner,
    `${param} '${file}' is neither PKCS#12 nor PEM (nor a Java keystore)`,
  );
}

function withExtension(file: string, extension: string): string {
  return path.join(path.dirname(file), `${path.basename(file, path.extname(file))}${extension}`);
}

/** OpenSSL's reasons, said in HornetQ's parameter names (a bad password never names the password). */
function contextProblem(error: unknown, settings: TlsSettings): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  const keyStore =
    settings.pfx !== undefined
      ? 'pfx'
      : settings.key !== undefined
        ? 'key'
        : `key-store-path '${settings.keyStorePath ?? ''}'`;
  if (/mac verify failure|bad decrypt/i.test(message) || code === 'ERR_OSSL_BAD_DECRYPT') {
    const password = settings.keyStorePath === undefined ? 'passphrase' : 'key-store-password';
    return `${keyStore}: wrong ${password} (or none given for an encrypted store)`;
  }
  if (/PFX|PKCS12|asn1|header too long|wrong tag/i.test(message)) {
    return `${keyStore} cannot be read as PKCS#12 (${message})`;
  }
  if (/key values mismatch/i.test(message)) {
    return `${keyStore}: the private key does not belong to the first certificate`;
  }
  if (/cipher/i.test(message)) {
    return `enabled-cipher-suites '${(settings.enabledCipherSuites ?? []).join(',')}': ${message} (use OpenSSL names, e.g. ECDHE-RSA-AES128-GCM-SHA256, or TLS 1.3 names)`;
  }
  return message;
}
