/**
 * A strict RFC 4180 reader for test assertions (the product only writes CSV): CRLF between
 * records, fields quoted with " and "" for a quote inside. Throws on anything else, so a test
 * fails when the output is not valid RFC 4180.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) throw new Error(`unterminated quoted field at ${i}`);
        field += text.slice(i, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
    } else {
      const end = text.slice(i).search(/,|\r\n/);
      field = end === -1 ? text.slice(i) : text.slice(i, i + end);
      if (/["\r\n]/.test(field)) throw new Error(`unquoted field with a quote or line break at ${i}`);
      i += field.length;
    }
    record.push(field);
    if (text[i] === ",") {
      i += 1;
    } else if (text.startsWith("\r\n", i)) {
      records.push(record);
      record = [];
      i += 2;
    } else if (i < text.length) {
      throw new Error(`unexpected character ${JSON.stringify(text[i])} at ${i}`);
    }
  }
  if (record.length > 0) throw new Error("last record not terminated by CRLF");
  return records;
}
