/**
 * One CSV line (RFC 4180). Cells that a spreadsheet would read as a formula get a leading apostrophe,
 * so an exported name such as `=HYPERLINK(...)` stays text.
 */
export function csvLine(cells: readonly (string | number | boolean | null)[]): string {
  return `${cells
    .map((cell) => {
      const text = cell === null ? '' : String(cell);
      const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
      return /[",\r\n']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    })
    .join(',')}\r\n`;
}
