import { expect, test } from 'vitest';
import { burstViolations } from './burst-kills';

const rows = (entries: [string, number[]][]) => new Map(entries.map(([key, ids]) => [key, ids.map((id) => ({ id, parent_id: null }))]));

test('a round passes when every acknowledged order survived the kill and every key resolves to one order', () => {
  const round = {
    acknowledged: new Map([['a', 1]]),
    sent: ['a', 'b'],
    retried: new Map([
      ['a', 1],
      ['b', 2],
    ]),
  };
  expect(
    burstViolations(
      round,
      rows([['a', [1]]]),
      rows([
        ['a', [1]],
        ['b', [2]],
      ]),
    ),
  ).toEqual([]);
});

test('an acknowledged order the kill lost, a key on two orders, and a retry told another order are each named', () => {
  const round = {
    acknowledged: new Map([
      ['a', 1],
      ['c', 3],
    ]),
    sent: ['a', 'b', 'c'],
    retried: new Map<string, number | undefined>([
      ['a', 1],
      ['b', 2],
      ['c', 4],
    ]),
  };
  expect(
    burstViolations(
      round,
      rows([['c', [3]]]),
      rows([
        ['a', [1]],
        ['b', [2, 5]],
        ['c', [4]],
      ]),
    ),
  ).toEqual([
    'a: acknowledged as order 1, but after the kill its key is on no order',
    'b: the retry was told order 2, but its key is on 2, 5',
    'c: acknowledged as order 3, the retry was told 4',
  ]);
});

test('a retry that was not acknowledged after the restart is a violation', () => {
  const round = { acknowledged: new Map<string, number>(), sent: ['a'], retried: new Map([['a', undefined]]) };
  expect(burstViolations(round, rows([]), rows([]))).toEqual(['a: the retry after the restart was not acknowledged']);
});
