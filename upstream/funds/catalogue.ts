/** The seeded payment rails: where traders send deposits, and the currencies they can withdraw in. */
import { WithdrawFeeType, WithdrawType } from '../../contract/enums';

export interface SeedCoinChannel {
  id: number;
  currency: string;
  protocol: string;
  address: string;
}
export interface SeedWireChannel {
  id: number;
  currency: string;
  bankName: string;
  bankAddress: string;
  swift: string;
  payeeName: string;
  payeeAccount: string;
}

export const COIN_CHANNELS: readonly SeedCoinChannel[] = [
  { id: 1, currency: 'USDT', protocol: 'TRC20', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
  { id: 2, currency: 'USDT', protocol: 'ERC20', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' },
  { id: 3, currency: 'BTC', protocol: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
];

export const WIRE_CHANNELS: readonly SeedWireChannel[] = [
  {
    id: 4,
    currency: 'USD',
    bankName: 'First Harbour Bank',
    bankAddress: '1 Queen’s Road Central, Hong Kong',
    swift: 'FHBKHKHH',
    payeeName: 'LotFX Markets Ltd',
    payeeAccount: '012-345678-901',
  },
];

export interface SeedWithdrawCurrency {
  id: number;
  type: WithdrawType;
  code: string;
  protocol: string;
  feeType: WithdrawFeeType;
  /** Fixed fee in USD, or percent of the amount. */
  rate: string;
  /** USD per unit. */
  usdPrice: string;
  min: string;
  max: string;
}

export const WITHDRAW_CURRENCIES: readonly SeedWithdrawCurrency[] = [
  {
    id: 1,
    type: WithdrawType.Crypto,
    code: 'USDT',
    protocol: 'TRC20',
    feeType: WithdrawFeeType.Fixed,
    rate: '1',
    usdPrice: '1',
    min: '10',
    max: '50000',
  },
  {
    id: 2,
    type: WithdrawType.Crypto,
    code: 'USDT',
    protocol: 'ERC20',
    feeType: WithdrawFeeType.Fixed,
    rate: '5',
    usdPrice: '1',
    min: '20',
    max: '50000',
  },
  {
    id: 3,
    type: WithdrawType.Crypto,
    code: 'BTC',
    protocol: 'BTC',
    feeType: WithdrawFeeType.Percent,
    rate: '0.5',
    usdPrice: '60000',
    min: '50',
    max: '100000',
  },
  {
    id: 4,
    type: WithdrawType.Bank,
    code: 'USD',
    protocol: 'WIRE',
    feeType: WithdrawFeeType.Percent,
    rate: '1',
    usdPrice: '1',
    min: '50',
    max: '100000',
  },
];
