/** A client's address as its owner may see it, and as a device is recognised: IPv4 to its /24, IPv6 to its /48. */
import net from 'node:net';

export function maskAddress(ip: string): string {
  const plain = ip.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (net.isIPv4(plain)) return `${plain.split('.').slice(0, 3).join('.')}.x`;
  if (!net.isIPv6(plain)) return '';
  const [head = '', tail = ''] = plain.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 3)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}:…`;
}
