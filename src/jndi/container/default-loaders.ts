import { parseJmsConfiguration } from '../config/jms-config-parser';
import { parseServerConfiguration } from '../config/server-config-parser';
import type { JmsConfigLoader, ServerConfigLoader } from './service-ids';

export const defaultJmsConfigLoader: JmsConfigLoader = { parse: parseJmsConfiguration };

export const defaultServerConfigLoader: ServerConfigLoader = { parse: parseServerConfiguration };
