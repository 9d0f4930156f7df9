import { Resvg } from '@resvg/resvg-js';

/**
 * An SVG picture as PNG bytes at `scale` times its size (sharp when printed), for PDFs. Text uses the
 * machine's fonts; a sans-serif family is named so that charts look alike everywhere.
 */
export function svgToPng(svg: string, scale = 2): { png: Buffer; width: number; height: number } {
  const rendered = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: '#ffffff',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  }).render();
  return { png: rendered.asPng(), width: rendered.width / scale, height: rendered.height / scale };
}
