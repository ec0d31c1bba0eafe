/**
 * CSV as RFC 4180 writes it: CRLF after every record, a field holding a comma, a double quote, CR or LF is quoted
 * with its quotes doubled. The file starts with a UTF-8 byte order mark: without it spreadsheet apps read the
 * bytes in the system's code page and Chinese or Arabic text comes out garbled.
 */
const BOM = '\uFEFF';

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The whole file: the byte order mark, then each row's fields joined by commas, each record ended by CRLF. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return BOM + rows.map((row) => row.map(csvField).join(',') + '\r\n').join('');
}
