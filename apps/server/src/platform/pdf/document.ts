import PDFDocument from 'pdfkit';

/**
 * A small document builder over pdfkit for the product's PDFs (reports, assessments, evidence):
 * a cover page, headings, paragraphs, tables and pictures on A4 pages that break by themselves,
 * with a page number in the footer. Text uses the PDF's built-in Helvetica.
 */

export type Cell = string | number | null | undefined;

export interface CoverPage {
  title: string;
  subtitle?: string;
  /** Label and value lines under the title, e.g. Organisation, Range, Generated. */
  facts: { label: string; value: string }[];
}

const MARGIN = 50;
const BODY_SIZE = 10;
const TABLE_SIZE = 8;
const ACCENT = '#1c7ed6';
const MUTED = '#666666';

export class PdfBuilder {
  private readonly doc: PDFKit.PDFDocument;
  private readonly done: Promise<Buffer>;

  constructor(info: { title: string; author?: string }) {
    this.doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      bufferPages: true,
      info: { Title: info.title, Author: info.author ?? 'Vigil', Creator: 'Vigil' },
    });
    const chunks: Buffer[] = [];
    this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    this.doc.font('Helvetica').fontSize(BODY_SIZE);
  }

  /** Width available between the margins. */
  get contentWidth() {
    return this.doc.page.width - 2 * MARGIN;
  }

  /** The cover on the current (first) page; what follows starts on a new page. */
  cover({ title, subtitle, facts }: CoverPage): this {
    const doc = this.doc;
    doc.moveDown(8);
    doc.font('Helvetica-Bold').fontSize(26).fillColor('#000000').text(title, { align: 'left' });
    if (subtitle) doc.moveDown(0.3).font('Helvetica').fontSize(14).fillColor(MUTED).text(subtitle);
    doc.moveDown(1.2);
    doc
      .strokeColor(ACCENT)
      .lineWidth(2)
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + this.contentWidth, doc.y)
      .stroke();
    doc.moveDown(1.2);
    for (const fact of facts) {
      doc
        .font('Helvetica-Bold')
        .fontSize(11)
        .fillColor('#000000')
        .text(`${fact.label}: `, { continued: true });
      doc.font('Helvetica').text(fact.value);
      doc.moveDown(0.3);
    }
    doc.fontSize(BODY_SIZE);
    return this.pageBreak();
  }

  pageBreak(): this {
    this.doc.addPage();
    return this;
  }

  /** Level 1 starts a section, level 2 a part of one. */
  heading(text: string, level: 1 | 2 = 1): this {
    const doc = this.doc;
    const size = level === 1 ? 16 : 12;
    this.ensureSpace(size * 4);
    if (doc.y > doc.page.margins.top) doc.moveDown(0.8);
    doc.font('Helvetica-Bold').fontSize(size).fillColor('#000000').text(text);
    doc.moveDown(0.4).font('Helvetica').fontSize(BODY_SIZE);
    return this;
  }

  paragraph(text: string, options: { muted?: boolean; size?: number } = {}): this {
    this.doc
      .font('Helvetica')
      .fontSize(options.size ?? BODY_SIZE)
      .fillColor(options.muted ? MUTED : '#000000')
      .text(text, { width: this.contentWidth });
    this.doc.moveDown(0.5).fillColor('#000000').fontSize(BODY_SIZE);
    return this;
  }

  /** A table with a header row; long tables continue on the following pages. */
  table(columns: string[], rows: Cell[][]): this {
    const doc = this.doc;
    this.ensureSpace(60);
    doc.font('Helvetica').fontSize(TABLE_SIZE).fillColor('#000000');
    const text = (cell: Cell) => (cell === null || cell === undefined ? '' : String(cell));
    doc.table({
      position: { x: MARGIN },
      maxWidth: this.contentWidth,
      defaultStyle: { border: 0.5, borderColor: '#cccccc', padding: 3 },
      data: [
        columns.map((column) => ({
          text: column,
          type: 'TH' as const,
          backgroundColor: '#eef3f8',
          font: { src: 'Helvetica-Bold', size: TABLE_SIZE },
        })),
        ...rows.map((row) => row.map(text)),
      ],
    });
    doc.x = MARGIN;
    doc.moveDown(0.8).fontSize(BODY_SIZE);
    return this;
  }

  /** A PNG picture fitted to the content width and `maxHeight`, on a new page when it would not fit. */
  image(png: Buffer, size: { width: number; height: number }, maxHeight = 320): this {
    const doc = this.doc;
    const scale = Math.min(this.contentWidth / size.width, maxHeight / size.height, 1);
    const width = size.width * scale;
    const height = size.height * scale;
    this.ensureSpace(height + 10);
    doc.image(png, MARGIN, doc.y, { width, height });
    doc.y += height + 10;
    doc.x = MARGIN;
    return this;
  }

  /** Finishes the document (page numbers in the footers) and answers its bytes. */
  async finish(): Promise<Buffer> {
    const doc = this.doc;
    const range = doc.bufferedPageRange();
    for (let index = range.start; index < range.start + range.count; index++) {
      doc.switchToPage(index);
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font('Helvetica')
        .fontSize(8)
        .fillColor(MUTED)
        .text(`${index + 1} / ${range.count}`, MARGIN, doc.page.height - bottom / 2 - 4, {
          width: this.contentWidth,
          align: 'right',
          lineBreak: false,
        });
      doc.page.margins.bottom = bottom;
    }
    doc.end();
    return this.done;
  }

  private ensureSpace(height: number) {
    const doc = this.doc;
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) this.pageBreak();
  }
}
