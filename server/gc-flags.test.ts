import { expect, test } from 'vitest';
import { gcFlags } from './gc-flags';

test('one GC thread per process once the processes fill the cores, V8’s helpers while cores are left over', () => {
  expect(gcFlags(3, 2)).toEqual(['--single-threaded-gc']);
  expect(gcFlags(2, 2)).toEqual(['--single-threaded-gc']);
  expect(gcFlags(3, 8)).toEqual([]);
});
