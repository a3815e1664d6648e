import { ConfigurationException } from '../../../src';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import {
  AddressSettingsRepository,
  MAX_PAGE_SIZE_BYTES,
  validateAddressSettings,
} from '../../../src/server/postoffice/address-settings';

const FILE = 'hornetq-configuration.xml';

function serverConfiguration(setting: string) {
  return parseServerConfiguration(
    `<configuration xmlns="urn:hornetq"><security-enabled>false</security-enabled><address-settings>
  <address-setting match="jms.#">${setting}</address-setting>
</address-settings></configuration>`,
    FILE,
    { env: {} },
  );
}

describe('page-size-bytes and page-max-cache-size', () => {
  it("default to HornetQ's 10 MiB pages and 5 cached pages", () => {
    const settings = new AddressSettingsRepository().getMatch('jms.queue.any');
    expect(settings.pageSizeBytes).toBe(10485760);
    expect(settings.pageMaxCacheSize).toBe(5);
  });

  it('are validated, naming the setting, the value and what is allowed', () => {
    expect(() => validateAddressSettings('#', { pageSizeBytes: 0 })).toThrow(
      `invalid address settings for match '#': pageSizeBytes must be an integer from 1 to ${MAX_PAGE_SIZE_BYTES} (bytes) (actual value: 0)`,
    );
    expect(() => validateAddressSettings('#', { pageSizeBytes: MAX_PAGE_SIZE_BYTES + 1 })).toThrow(
      /pageSizeBytes must be an integer from 1 to 2147483647/,
    );
    expect(() => validateAddressSettings('#', { pageMaxCacheSize: 0 })).toThrow(
      "invalid address settings for match '#': pageMaxCacheSize must be an integer >= 1 (pages) (actual value: 0)",
    );
    expect(() => validateAddressSettings('#', { pageSizeBytes: 4096, pageMaxCacheSize: 2 })).not.toThrow();
  });

  it('are read from hornetq-configuration.xml without the old "not implemented" warning', () => {
    const config = serverConfiguration(
      '<page-size-bytes>65536</page-size-bytes><page-max-cache-size>3</page-max-cache-size>',
    );
    expect(config.addressSettings.get('jms.#')).toEqual({ pageSizeBytes: 65536, pageMaxCacheSize: 3 });
    expect(config.warnings.filter((warning) => /pag/i.test(warning.message))).toEqual([]);
  });

  it('a page size out of range in the file is an error naming the element and the value', () => {
    let error: unknown = null;
    try {
      serverConfiguration('<page-size-bytes>4294967296</page-size-bytes>');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationException);
    expect((error as ConfigurationException).message).toContain(
      `<page-size-bytes> must be at most ${MAX_PAGE_SIZE_BYTES} (actual value: 4294967296)`,
    );
  });
});
