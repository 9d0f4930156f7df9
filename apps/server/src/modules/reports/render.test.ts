import type { Chart, ChartData } from '@vigil/contracts';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { PdfBuilder } from '../../platform/pdf/document';
import { addChartSection, mapSvg } from './render';

const data: ChartData = {
  begin: '2026-03-01T00:00:00.000Z',
  end: '2026-03-08T00:00:00.000Z',
  timeAxis: false,
  categories: ['US', 'DE'],
  series: [{ name: 'Logins', values: [4, 1] }],
  total: 6,
};

/** The number of image objects of a PDF (a picture with transparency counts its mask too). */
const pictures = (bytes: Buffer) => bytes.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

describe('map charts in report PDFs', () => {
  it('are drawn over the world borders, the country with most events darkest', () => {
    const svg = mapSvg(data);
    // One path per country of Natural Earth's 1:110m borders.
    expect(svg.match(/<path /g)!.length).toBeGreaterThan(150);
    expect(svg).toMatch(/fill="rgb\(24,\s?100,\s?171\)"/);
    expect(svg).not.toMatch(/fill="rgb\(24,\s?100,\s?171\)"[\s\S]*fill="rgb\(24,\s?100,\s?171\)"/);
  });

  it('show as a picture above their table', async () => {
    const section = async (type: Chart['type']) => {
      const pdf = new PdfBuilder({ title: 'Access' });
      addChartSection(pdf, { name: 'Logins by country', description: '', type } as Chart, data);
      return pdf.finish();
    };
    const bytes = await section('map');
    // The same data as a table has no picture.
    expect(pictures(await section('table'))).toBe(0);
    expect(pictures(bytes)).toBeGreaterThan(0);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    expect(text).toContain('Logins by country');
    expect(text).toMatch(/US\s+4/);
  });
});
