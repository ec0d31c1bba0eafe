/**
 * Runs once the apps under test are up (Playwright starts the webServers first; one per worker). Every browser test comes
 * from one address, 127.0.0.1, so the per-address limits on new demo accounts, captcha pictures and codes sent —
 * which protect a real deployment — are widened here; their own tests live in the upstream's suite.
 */
import { adminOf, dataDirOf } from './fixtures';
import { appPort, WORKERS } from './ports';

export default async function globalSetup() {
  for (let worker = 0; worker < WORKERS; worker++) {
    const admin = adminOf(() => dataDirOf(appPort(worker)));
    for (const key of ['demos_per_ip_per_hour', 'captchas_per_ip_per_10_min', 'codes_per_ip_per_hour']) {
      await admin('POST', '/admin/setting', { key, value: '100000' });
    }
  }
}
