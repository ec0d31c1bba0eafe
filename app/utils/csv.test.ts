import { describe, expect, test } from 'vitest';
import { csvField, toCsv } from './csv';

describe('csv', () => {
  test('plain fields stay as they are; commas, quotes and line breaks are quoted with quotes doubled', () => {
    expect(csvField('EURUSD')).toBe('EURUSD');
    expect(csvField('')).toBe('');
    expect(csvField('1,000.50')).toBe('"1,000.50"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' spaces kept ')).toBe(' spaces kept ');
  });

  test('a file starts with the UTF-8 BOM and ends every record with CRLF', () => {
    const text = toCsv([
      ['Time', 'Amount'],
      ['2026-11-28 09:00:00', '-2.50'],
    ]);
    expect(text).toBe('\uFEFFTime,Amount\r\n2026-11-28 09:00:00,-2.50\r\n');
    const bytes = new TextEncoder().encode(text);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(toCsv([])).toBe('\uFEFF');
  });

  test('Chinese and Arabic text survives as UTF-8, quoted only when it must be', () => {
    const text = toCsv([
      ['入金', 'إيداع'],
      ['備註, "重要"', 'تعديل\nيدوي'],
    ]);
    expect(text).toBe('\uFEFF入金,إيداع\r\n"備註, ""重要""","تعديل\nيدوي"\r\n');
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(new TextEncoder().encode(text))).toBe(text);
  });
});
