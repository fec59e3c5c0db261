/**
 * An integer with thousands separators, as `toLocaleString('en-US')` writes it (`113,691`), without
 * loading ICU's number formatting, whose first use is slow and would be paid by every `fds build`
 * that renders the front door or prints its summary (docs/performance.md). Fractions (and -0) go to
 * ICU.
 */
export function thousands(v: number): string {
  if (!Number.isSafeInteger(v) || Object.is(v, -0)) return v.toLocaleString('en-US');
  const digits = String(Math.abs(v));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    out = out ? `${group},${out}` : group;
  }
  return v < 0 ? `-${out}` : out;
}

/** Bytes in decimal megabytes with one decimal, as the build's summary and its errors give sizes (`12.3 MB`). */
export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** Bytes as kilobytes under a megabyte, else as `mb` gives them (`432 KB`, `1.5 MB`): what a request cost. */
export const kbOrMb = (bytes: number): string => (bytes >= 1e6 ? mb(bytes) : `${Math.round(bytes / 1e3)} KB`);
