import PDFDocument from 'pdfkit';
import type { Certificate } from './certificate.entity';

/** DejaVu Sans has every Vietnamese letter; the built-in PDF fonts have none of the diacritics. */
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** A one-page bilingual certificate (Vietnamese and English). */
export function certificatePdf(certificate: Certificate, verifyUrl: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 60,
    info: { Title: `Certificate ${certificate.code}` },
  });
  doc.registerFont('text', FONT).registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const date = certificate.issuedAt.toISOString().slice(0, 10);
  doc.font('bold').fontSize(30).text('CHỨNG NHẬN HOÀN THÀNH', { align: 'center' });
  doc.font('text').fontSize(18).text('Certificate of completion', { align: 'center' }).moveDown(1.5);
  doc.fontSize(14).text('Chứng nhận / This certifies that', { align: 'center' }).moveDown(0.5);
  doc.font('bold').fontSize(26).text(certificate.learner.displayName, { align: 'center' }).moveDown(0.5);
  doc
    .font('text')
    .fontSize(14)
    .text('đã hoàn thành khóa học / has completed the course', { align: 'center' })
    .moveDown(0.5);
  doc.font('bold').fontSize(20).text(certificate.course.title.vi, { align: 'center' });
  doc.font('text').fontSize(16).text(certificate.course.title.en, { align: 'center' }).moveDown(1);
  doc.fontSize(12).text(`Điểm trung bình / Average score: ${certificate.averageScore}`, { align: 'center' });
  doc.text(`Ngày cấp / Issued on: ${date}`, { align: 'center' });
  doc.text(`Mã / Code: ${certificate.code} — ${verifyUrl}`, { align: 'center' });
  doc.end();
  return done;
}
