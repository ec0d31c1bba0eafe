/**
 * Runs once the app under test is up (Playwright starts the webServer first). Every browser test comes
 * from one address, 127.0.0.1, so the per-address limits on new demo accounts, captcha pictures and codes sent —
 * which protect a real deployment — are widened here; their own tests live in the upstream's suite.
 */
import { setSetting } from './fixtures';

export default async function globalSetup() {
  await setSetting('demos_per_ip_per_hour', '100000');
  await setSetting('captchas_per_ip_per_10_min', '100000');
  await setSetting('codes_per_ip_per_hour', '100000');
}
