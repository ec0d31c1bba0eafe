/**
 * The seeded catalogue: five categories and 21 instruments with realistic prices, precisions, lot steps,
 * contract sizes, leverage lists, fee rates and both margin modes. Prices are decimal text here and
 * integers scaled by `precision` in the database.
 */
import { MarginMode } from '../../contract/enums';

export interface CategorySeed {
  id: number;
  code: 'forex' | 'metals' | 'crypto' | 'indices' | 'energy';
  alwaysOpen: boolean;
}

export const CATEGORIES: readonly CategorySeed[] = [
  { id: 1, code: 'forex', alwaysOpen: false },
  { id: 2, code: 'metals', alwaysOpen: false },
  { id: 3, code: 'crypto', alwaysOpen: true },
  { id: 4, code: 'indices', alwaysOpen: false },
  { id: 5, code: 'energy', alwaysOpen: false },
];

export interface InstrumentSeed {
  code: string;
  showCode: string;
  category: CategorySeed['code'];
  precision: number;
  /** Lot step and minimum, in lots. */
  lotStep: string;
  minLots: string;
  contractSize: number;
  /** USD per lot under per-lot fees, or the share of margin otherwise (see the trade_fee_type setting). */
  feeRate: string;
  marginMode: MarginMode;
  leverages: number[];
  quote: string;
  price: string;
  /** Annualised volatility, e.g. 0.07 for 7 %. */
  volatility: number;
  colors: [string, string];
}

const FX_LEVERAGE = [10, 20, 50, 100, 200];
const fx = (code: string, price: string, precision: number, volatility: number, colors: [string, string]): InstrumentSeed => ({
  code,
  showCode: `${code.slice(0, 3)}/${code.slice(3)}`,
  category: 'forex',
  precision,
  lotStep: '0.01',
  minLots: '0.01',
  contractSize: 100000,
  feeRate: '5',
  marginMode: MarginMode.Leverage,
  leverages: FX_LEVERAGE,
  quote: code.slice(3),
  price,
  volatility,
  colors,
});

export const INSTRUMENTS: readonly InstrumentSeed[] = [
  fx('EURUSD', '1.08450', 5, 0.07, ['#1f3f99', '#f5c400']),
  fx('GBPUSD', '1.27120', 5, 0.08, ['#012169', '#c8102e']),
  fx('AUDUSD', '0.65830', 5, 0.09, ['#00008b', '#e4002b']),
  fx('NZDUSD', '0.59870', 5, 0.09, ['#00247d', '#cc142b']),
  fx('USDJPY', '151.240', 3, 0.09, ['#bc002d', '#ffffff']),
  fx('USDCHF', '0.88210', 5, 0.07, ['#d52b1e', '#ffffff']),
  fx('USDCAD', '1.36540', 5, 0.06, ['#d80621', '#ffffff']),
  {
    code: 'XAUUSD',
    showCode: 'XAU/USD',
    category: 'metals',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    contractSize: 100,
    feeRate: '8',
    marginMode: MarginMode.Leverage,
    leverages: [10, 20, 50, 100],
    quote: 'USD',
    price: '2650.40',
    volatility: 0.15,
    colors: ['#b8860b', '#ffd700'],
  },
  {
    // Fixed margin: 50 USD per lot, whatever the price.
    code: 'XAGUSD',
    showCode: 'XAG/USD',
    category: 'metals',
    precision: 3,
    lotStep: '0.01',
    minLots: '0.01',
    contractSize: 50,
    feeRate: '6',
    marginMode: MarginMode.Fixed,
    leverages: [20, 50],
    quote: 'USD',
    price: '31.250',
    volatility: 0.25,
    colors: ['#6e7b8b', '#d9dde2'],
  },
  {
    code: 'XPTUSD',
    showCode: 'XPT/USD',
    category: 'metals',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    contractSize: 50,
    feeRate: '8',
    marginMode: MarginMode.Leverage,
    leverages: [10, 20, 50],
    quote: 'USD',
    price: '968.50',
    volatility: 0.25,
    colors: ['#4b5563', '#e5e7eb'],
  },
  {
    code: 'BTCUSD',
    showCode: 'BTC/USD',
    category: 'crypto',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    contractSize: 1,
    feeRate: '10',
    marginMode: MarginMode.Leverage,
    leverages: [2, 5, 10, 20],
    quote: 'USD',
    price: '67250.00',
    volatility: 0.6,
    colors: ['#f7931a', '#ffffff'],
  },
  {
    code: 'ETHUSD',
    showCode: 'ETH/USD',
    category: 'crypto',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    contractSize: 1,
    feeRate: '3',
    marginMode: MarginMode.Leverage,
    leverages: [2, 5, 10, 20],
    quote: 'USD',
    price: '3520.00',
    volatility: 0.7,
    colors: ['#627eea', '#ffffff'],
  },
  {
    code: 'SOLUSD',
    showCode: 'SOL/USD',
    category: 'crypto',
    precision: 3,
    lotStep: '0.1',
    minLots: '0.1',
    contractSize: 10,
    feeRate: '1',
    marginMode: MarginMode.Leverage,
    leverages: [2, 5, 10],
    quote: 'USD',
    price: '148.500',
    volatility: 0.9,
    colors: ['#9945ff', '#14f195'],
  },
  {
    code: 'XRPUSD',
    showCode: 'XRP/USD',
    category: 'crypto',
    precision: 5,
    lotStep: '1',
    minLots: '1',
    contractSize: 1000,
    feeRate: '1',
    marginMode: MarginMode.Leverage,
    leverages: [2, 5, 10],
    quote: 'USD',
    price: '0.52340',
    volatility: 0.85,
    colors: ['#23292f', '#ffffff'],
  },
  {
    code: 'LTCUSD',
    showCode: 'LTC/USD',
    category: 'crypto',
    precision: 3,
    lotStep: '0.1',
    minLots: '0.1',
    contractSize: 10,
    feeRate: '1',
    marginMode: MarginMode.Leverage,
    leverages: [2, 5, 10],
    quote: 'USD',
    price: '72.400',
    volatility: 0.8,
    colors: ['#345d9d', '#ffffff'],
  },
  {
    code: 'US30',
    showCode: 'US30',
    category: 'indices',
    precision: 1,
    lotStep: '0.1',
    minLots: '0.1',
    contractSize: 1,
    feeRate: '2',
    marginMode: MarginMode.Leverage,
    leverages: [10, 20, 50, 100],
    quote: 'USD',
    price: '42150.0',
    volatility: 0.16,
    colors: ['#0a3161', '#b31942'],
  },
  {
    code: 'NAS100',
    showCode: 'NAS100',
    category: 'indices',
    precision: 1,
    lotStep: '0.1',
    minLots: '0.1',
    contractSize: 1,
    feeRate: '2',
    marginMode: MarginMode.Leverage,
    leverages: [10, 20, 50, 100],
    quote: 'USD',
    price: '19850.0',
    volatility: 0.22,
    colors: ['#0096d6', '#ffffff'],
  },
  {
    code: 'SPX500',
    showCode: 'SPX500',
    category: 'indices',
    precision: 2,
    lotStep: '0.1',
    minLots: '0.1',
    contractSize: 10,
    feeRate: '2',
    marginMode: MarginMode.Leverage,
    leverages: [10, 20, 50, 100],
    quote: 'USD',
    price: '5720.50',
    volatility: 0.17,
    colors: ['#1d4ed8', '#ffffff'],
  },
  {
    // Fixed margin: 100 USD per lot.
    code: 'USOIL',
    showCode: 'US Oil',
    category: 'energy',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    contractSize: 100,
    feeRate: '5',
    marginMode: MarginMode.Fixed,
    leverages: [10, 20, 50],
    quote: 'USD',
    price: '71.35',
    volatility: 0.35,
    colors: ['#111827', '#f59e0b'],
  },
  {
    code: 'UKOIL',
    showCode: 'UK Oil',
    category: 'energy',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    contractSize: 100,
    feeRate: '5',
    marginMode: MarginMode.Leverage,
    leverages: [10, 20, 50],
    quote: 'USD',
    price: '74.90',
    volatility: 0.33,
    colors: ['#1f2937', '#ef4444'],
  },
  {
    // Fixed margin: 1,000 USD per lot.
    code: 'NGAS',
    showCode: 'Natural Gas',
    category: 'energy',
    precision: 3,
    lotStep: '0.1',
    minLots: '0.1',
    contractSize: 1000,
    feeRate: '5',
    marginMode: MarginMode.Fixed,
    leverages: [5, 10, 20],
    quote: 'USD',
    price: '3.215',
    volatility: 0.6,
    colors: ['#0f766e', '#99f6e4'],
  },
];

/** Each currency's colours in a pair's badge (background, text): the three USD/… pairs differ by their quote. */
const CURRENCY_COLOURS: Record<string, [string, string]> = {
  USD: ['#14532d', '#ffffff'],
  EUR: ['#1e3a8a', '#facc15'],
  GBP: ['#4c1d95', '#ffffff'],
  AUD: ['#facc15', '#14532d'],
  NZD: ['#111827', '#ffffff'],
  JPY: ['#ffffff', '#bc002d'],
  CHF: ['#d52b1e', '#ffffff'],
  CAD: ['#7c2d12', '#fde68a'],
};

/**
 * A round SVG badge: small, crisp at any size, no external fonts needed. A currency pair shows both
 * currencies, base over quote, each on its own colour (USD/JPY, USD/CHF and USD/CAD each look their
 * own); any other instrument its code on its colours.
 */
export function logoSvg(seed: Pick<InstrumentSeed, 'code' | 'colors' | 'category'>): string {
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="${seed.code}">`;
  const font = 'font-family="Arial,Helvetica,sans-serif" font-weight="700" text-anchor="middle"';
  const base = CURRENCY_COLOURS[seed.code.slice(0, 3)];
  const quote = CURRENCY_COLOURS[seed.code.slice(3)];
  if (seed.category === 'forex' && base && quote) {
    return (
      open +
      `<clipPath id="c"><circle cx="32" cy="32" r="31"/></clipPath>` +
      `<g clip-path="url(#c)"><rect width="64" height="32" fill="${base[0]}"/><rect y="32" width="64" height="32" fill="${quote[0]}"/></g>` +
      `<circle cx="32" cy="32" r="31" fill="none" stroke="#000" stroke-opacity="0.25" stroke-width="2"/>` +
      `<text x="32" y="27" ${font} font-size="17" fill="${base[1]}">${seed.code.slice(0, 3)}</text>` +
      `<text x="32" y="51" ${font} font-size="17" fill="${quote[1]}">${seed.code.slice(3)}</text>` +
      `</svg>`
    );
  }
  const [bg, fg] = seed.colors;
  const label = seed.code.length <= 4 ? seed.code : seed.code.slice(0, 3);
  const size = label.length <= 3 ? 22 : 17;
  return (
    open +
    `<circle cx="32" cy="32" r="31" fill="${bg}"/>` +
    `<circle cx="32" cy="32" r="27" fill="none" stroke="${fg}" stroke-opacity="0.35" stroke-width="2"/>` +
    `<text x="32" y="${32 + size * 0.36}" ${font} font-size="${size}" fill="${fg}">${label}</text>` +
    `</svg>`
  );
}

/** A service provider's mark: its initials on a rounded square (no instrument's round badge, no real firm's mark). */
export interface ProviderMark {
  initials: string;
  colors: [string, string];
}

export function providerLogoSvg(mark: ProviderMark, name: string): string {
  const [bg, fg] = mark.colors;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="${name}">` +
    `<rect x="2" y="2" width="60" height="60" rx="14" fill="${bg}"/>` +
    `<rect x="14" y="46" width="36" height="4" rx="2" fill="${fg}" fill-opacity="0.6"/>` +
    `<text x="32" y="38" text-anchor="middle" font-family="Georgia,'Times New Roman',serif" font-weight="700" font-size="24" fill="${fg}">${mark.initials}</text>` +
    `</svg>`
  );
}

/** Area codes offered for phone numbers: dialling code and ISO region. */
export const AREA_CODES: readonly { code: string; global: string }[] = [
  { code: '852', global: 'HK' },
  { code: '853', global: 'MO' },
  { code: '886', global: 'TW' },
  { code: '65', global: 'SG' },
  { code: '60', global: 'MY' },
  { code: '66', global: 'TH' },
  { code: '84', global: 'VN' },
  { code: '62', global: 'ID' },
  { code: '63', global: 'PH' },
  { code: '81', global: 'JP' },
  { code: '82', global: 'KR' },
  { code: '91', global: 'IN' },
  { code: '971', global: 'AE' },
  { code: '966', global: 'SA' },
  { code: '90', global: 'TR' },
  { code: '7', global: 'RU' },
  { code: '44', global: 'GB' },
  { code: '49', global: 'DE' },
  { code: '33', global: 'FR' },
  { code: '39', global: 'IT' },
  { code: '34', global: 'ES' },
  { code: '351', global: 'PT' },
  { code: '420', global: 'CZ' },
  { code: '55', global: 'BR' },
  { code: '1', global: 'US' },
  { code: '61', global: 'AU' },
];

/** Service providers listed by the product search when the company switch is on (fictional firms, each with its own mark). */
export const SERVICE_PROVIDERS: readonly {
  id: number;
  name: string;
  logo: string;
  mark: ProviderMark;
  url: string;
  subject: string;
  registered_address: string;
  location: string;
  email: string;
}[] = [
  {
    id: 1,
    name: 'Harbour Prime Markets Ltd',
    logo: '/static/logos/harbourprime.svg',
    mark: { initials: 'HP', colors: ['#0f3d5e', '#7dd3fc'] },
    url: 'https://harbourprime.example.com',
    subject: 'Liquidity and execution for FX and metals',
    registered_address: '18 Queen’s Road Central, Hong Kong',
    location: 'Level 20, One Harbour View, Hong Kong',
    email: 'service@harbourprime.example.com',
  },
  {
    id: 2,
    name: 'Meridian Clearing Services',
    logo: '/static/logos/meridian.svg',
    mark: { initials: 'MC', colors: ['#3f2b63', '#e9d5ff'] },
    url: 'https://meridianclearing.example.com',
    subject: 'Clearing and custody of client funds',
    registered_address: '2 Finsbury Avenue, London EC2M 2PP, United Kingdom',
    location: '2 Finsbury Avenue, London, United Kingdom',
    email: 'clients@meridianclearing.example.com',
  },
  {
    id: 3,
    name: 'Lumen Digital Assets Pte Ltd',
    logo: '/static/logos/lumendigital.svg',
    mark: { initials: 'LD', colors: ['#134e4a', '#fde68a'] },
    url: 'https://lumendigital.example.com',
    subject: 'Crypto price feeds and wallets',
    registered_address: '1 Raffles Place, Singapore 048616',
    location: '8 Marina View, Singapore',
    email: 'support@lumendigital.example.com',
  },
];
