/**
 * The shape of a coin address on each network a withdrawal currency names (its `protocol`), checked the
 * same way by the web form and the upstream. A shape check, not a checksum: it catches a pasted address
 * of the wrong network or a truncated one, which are the mistakes that lose a trader's money.
 */
const BASE58 = '[1-9A-HJ-NP-Za-km-z]';

const ADDRESS_SHAPES: Record<string, RegExp> = {
  TRC20: new RegExp(`^T${BASE58}{33}$`),
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  BEP20: /^0x[0-9a-fA-F]{40}$/,
  // Legacy (1…), script (3…) and bech32/bech32m (bc1…) addresses.
  BTC: new RegExp(`^(?:[13]${BASE58}{25,34}|bc1[02-9ac-hj-np-z]{11,71})$`),
};

export function addressMatchesNetwork(protocol: string, address: string): boolean {
  const a = address.trim();
  const shape = ADDRESS_SHAPES[protocol.trim().toUpperCase()];
  if (shape) return shape.test(a);
  return /^[A-Za-z0-9:_-]{16,128}$/.test(a);
}

/** A SWIFT/BIC code: bank (4 letters), country (2 letters), location (2), optional branch (3). */
export function swiftValid(code: string): boolean {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(code.trim().toUpperCase());
}
