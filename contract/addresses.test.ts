import { describe, expect, test } from 'vitest';
import { addressMatchesNetwork } from './addresses';

describe('addressMatchesNetwork', () => {
  test.each([
    ['TRC20', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', true],
    ['TRC20', '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', false],
    ['TRC20', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLS', false],
    ['ERC20', '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', true],
    ['ERC20', '0x742d35Cc6634C0532925a3b844Bc454e4438f44', false],
    ['ERC20', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', false],
    ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', true],
    ['BTC', '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', true],
    ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', true],
    ['BTC', '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', false],
    ['btc', ' bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq ', true],
  ])('%s %s → %s', (network, address, ok) => {
    expect(addressMatchesNetwork(network, address)).toBe(ok);
  });
});
