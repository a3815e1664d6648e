import { moduleClasspath } from './java-harness';

/**
 * The interop run needs the built Java harness. scripts/interop.mjs (npm run test:interop) builds
 * it before jest starts, where a missing Java or Maven is reported in one line; run directly, jest
 * stops here with the same instruction instead of failing in every test.
 */
export default function requireBuiltHarness(): void {
  moduleClasspath('hornetq');
  moduleClasspath('artemis');
}
