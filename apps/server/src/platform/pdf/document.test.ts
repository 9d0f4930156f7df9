import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { PdfBuilder } from './document';
import { svgToPng } from './svg';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#1c7ed6"/></svg>';

describe('PDF builder', () => {
  it('writes a cover, headings, paragraphs, long tables over several pages and pictures', async () => {
    const pdf = new PdfBuilder({ title: 'Quarterly review' });
    pdf.cover({
      title: 'Quarterly review',
      facts: [
        { label: 'Organisation', value: 'First Bank' },
        { label: 'Range', value: 'Last 7 days' },
      ],
    });
    pdf.heading('Logins').paragraph('Successful logins per host.');
    const picture = svgToPng(SVG);
    expect(picture).toMatchObject({ width: 200, height: 100 });
    pdf.image(picture.png, picture);
    pdf.table(
      ['Host', 'Count'],
      Array.from({ length: 120 }, (_, index) => [`host-${index}`, index]),
    );
    const bytes = await pdf.finish();
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const document = await getDocumentProxy(new Uint8Array(bytes));
    const { totalPages, text } = await extractText(document, { mergePages: false });
    expect(totalPages).toBeGreaterThanOrEqual(3);
    expect(text[0]).toContain('Quarterly review');
    expect(text[0]).toContain('Organisation: First Bank');
    expect(text[1]).toContain('Logins');
    expect(text[1]).toContain('host-0');
    expect(text.join('\n')).toContain('host-119');
    expect(text.at(-1)).toContain(`${totalPages} / ${totalPages}`);
  });
});
