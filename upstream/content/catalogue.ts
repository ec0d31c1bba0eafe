/** Seeded content: market news in several languages (English is the fallback) and copy-trade leaders. */
import { Random } from '../market/random';

export interface SeedNewsText {
  title: string;
  summary: string;
  /** HTML as an editor would paste it; the web sanitises it (one article carries hostile markup on purpose). */
  content: string;
}

export interface SeedNews {
  id: number;
  logo: string;
  /** Days before the first start. */
  daysAgo: number;
  texts: Partial<Record<string, SeedNewsText>> & { en: SeedNewsText };
}

export const NEWS: readonly SeedNews[] = [
  {
    id: 1,
    logo: '/static/logos/eurusd.svg',
    daysAgo: 0,
    texts: {
      en: {
        title: 'Euro steadies as traders weigh the central bank outlook',
        summary: 'EUR/USD held a narrow range while markets priced the next policy meeting.',
        content:
          '<p>The euro held a narrow range against the dollar on Monday as traders weighed comments from central bank officials ahead of next month’s policy meeting.</p>' +
          '<h3>What moved</h3><ul><li>EUR/USD traded within 40 pips.</li><li>Bond yields eased slightly.</li></ul>' +
          '<p><img src="/static/logos/eurusd.svg" alt="EUR/USD"></p>' +
          '<p>Leveraged positions can lose more quickly than they gain: use a <strong>stop loss</strong>.</p>',
      },
      hk: {
        title: '歐元企穩，交易者評估央行前景',
        summary: '市場為下次議息會議定價，歐元兌美元窄幅上落。',
        content:
          '<p>交易者評估央行官員在下月議息會議前的言論，歐元兌美元週一窄幅上落。</p>' +
          '<h3>市場動向</h3><ul><li>歐元兌美元在 40 點內波動。</li><li>債券孳息輕微回落。</li></ul>' +
          '<p><img src="/static/logos/eurusd.svg" alt="EUR/USD"></p>' +
          '<p>槓桿倉位虧損可能比獲利來得更快：請設定<strong>止損</strong>。</p>',
      },
      ar: {
        title: 'اليورو يستقر بينما يقيّم المتداولون توقعات البنك المركزي',
        summary: 'تداول زوج اليورو/الدولار في نطاق ضيق بينما تسعّر الأسواق الاجتماع المقبل.',
        content:
          '<p>استقر اليورو مقابل الدولار يوم الاثنين بينما قيّم المتداولون تصريحات مسؤولي البنك المركزي.</p><p>استخدم <strong>وقف الخسارة</strong> دائماً.</p>',
      },
    },
  },
  {
    id: 2,
    logo: '/static/logos/xauusd.svg',
    daysAgo: 1,
    texts: {
      en: {
        title: 'Gold edges higher on a softer dollar',
        summary: 'XAU/USD gained as the dollar index slipped after weaker data.',
        content:
          '<p>Gold rose for a second session as the dollar slipped after weaker-than-expected data.</p>' +
          '<p>Analysts watch the <a href="https://example.com/report" onclick="steal()">weekly report</a> for direction.</p>' +
          // Hostile markup a careless editor might paste: the web must render neither the script nor the handler.
          '<script>document.title="pwned"</script><img src="x" onerror="document.title=\'pwned\'"><iframe src="https://evil.example"></iframe>' +
          '<p style="position:fixed;top:0">Volatility remains elevated.</p>',
      },
      hk: {
        title: '美元走軟，金價微升',
        summary: '數據遜於預期，美匯指數回落，金價上升。',
        content:
          '<p>數據遜於預期令美元回落，金價連升兩個交易日。</p>' +
          '<p>分析師關注<a href="https://example.com/report" onclick="steal()">每週報告</a>以判斷走勢。</p>' +
          '<script>document.title="pwned"</script><img src="x" onerror="document.title=\'pwned\'">' +
          '<p>波動仍然偏高。</p>',
      },
    },
  },
  {
    id: 3,
    logo: '/static/logos/btcusd.svg',
    daysAgo: 2,
    texts: {
      en: {
        title: 'Bitcoin swings as weekend liquidity thins',
        summary: 'Crypto markets trade around the clock: thin weekend books mean larger moves.',
        content:
          '<p>Bitcoin swung by more than 3% over the weekend as liquidity thinned.</p><blockquote>Crypto never closes; your risk does not either.</blockquote>',
      },
      jp: {
        title: '週末の流動性低下でビットコインが乱高下',
        summary: '暗号資産は24時間取引。週末は板が薄く、値動きが大きくなります。',
        content: '<p>週末に流動性が低下し、ビットコインは3%以上変動しました。</p>',
      },
    },
  },
  {
    id: 4,
    logo: '/static/logos/usdjpy.svg',
    daysAgo: 3,
    texts: {
      en: {
        title: 'Yen slips to a three-week low',
        summary: 'USD/JPY climbed as yield differentials widened.',
        content:
          '<p>The yen weakened to a three-week low against the dollar as the gap between yields widened.</p><ol><li>USD/JPY +0.6%</li><li>EUR/JPY +0.4%</li></ol>',
      },
    },
  },
];

export interface SeedLeader {
  id: number;
  name: string;
  code: string;
  multiple: number;
  /** Percent × 100. */
  threeWeekRate: number;
  threeWeekWin: number;
  /** Micro-USD. */
  threeWeekProfit: number;
  totalRate: number;
  totalTrades: number;
  followers: number;
}

const FIRST = ['Alex', 'Mei', 'Kenji', 'Sofia', 'Omar', 'Lena', 'Ravi', 'Chloe', 'Diego', 'Hana', 'Yusuf', 'Ana'];
const LAST = ['W.', 'L.', 'T.', 'R.', 'K.', 'M.', 'S.', 'P.'];
const CODES = ['EURUSD', 'XAUUSD', 'BTCUSD', 'USDJPY', 'GBPUSD', 'XAGUSD'];
const MULTIPLES = [10, 20, 50, 100];

/** Twenty-four leaders, the same under the same seed, best three-week return first. */
export function seedLeaders(seed: number): SeedLeader[] {
  const r = new Random(seed ^ 0x1ead);
  const list = Array.from({ length: 24 }, (_, i) => {
    const rate = Math.round((r.next() * 90 - 15) * 100);
    return {
      id: i + 1,
      name: `${FIRST[r.int(FIRST.length)]} ${LAST[r.int(LAST.length)]}`,
      code: CODES[r.int(CODES.length)]!,
      multiple: MULTIPLES[r.int(MULTIPLES.length)]!,
      threeWeekRate: rate,
      threeWeekWin: Math.round((40 + r.next() * 45) * 100),
      threeWeekProfit: Math.round(rate * (50 + r.next() * 500)) * 100,
      totalRate: rate + Math.round((r.next() * 200 - 40) * 100),
      totalTrades: 20 + r.int(900),
      followers: r.int(5000),
    };
  });
  return list.sort((a, b) => b.threeWeekRate - a.threeWeekRate);
}
