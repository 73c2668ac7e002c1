import { createHash } from 'node:crypto';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

/** `SBX` + the first 16 hex characters (upper case) of SHA-256 of the purchase id. */
export function sandboxTrackingNumber(clientReference: string): string {
  return `SBX${createHash('sha256').update(clientReference).digest('hex').slice(0, 16).toUpperCase()}`;
}

export function sandboxTrackingUrl(trackingNumber: string): string {
  return `https://sandbox-carrier.invalid/track/${trackingNumber}`;
}

export const SANDBOX_LABEL_MARK = 'SANDBOX, NOT VALID FOR MAILING';

const POINTS_PER_INCH = 72;

/**
 * The label: one 4 × 6 in page marked "SANDBOX, NOT VALID FOR MAILING" with
 * the tracking number and service. Its dates are the label's, so the same
 * label always renders the same bytes.
 */
export async function renderSandboxLabel(label: {
  trackingNumber: string;
  service: string;
  createdAt: Date;
}): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(`Sandbox label ${label.trackingNumber}`);
  document.setSubject(SANDBOX_LABEL_MARK);
  document.setProducer('sandbox carrier');
  document.setCreator('sandbox carrier');
  document.setCreationDate(label.createdAt);
  document.setModificationDate(label.createdAt);
  const page = document.addPage([4 * POINTS_PER_INCH, 6 * POINTS_PER_INCH]);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const regular = await document.embedFont(StandardFonts.Helvetica);
  page.drawText(SANDBOX_LABEL_MARK, { x: 18, y: 390, size: 13, font: bold, color: rgb(0.8, 0, 0) });
  page.drawText(`Service: ${label.service}`, { x: 18, y: 340, size: 12, font: regular });
  page.drawText('Tracking number', { x: 18, y: 300, size: 10, font: regular });
  page.drawText(label.trackingNumber, { x: 18, y: 280, size: 16, font: bold });
  page.drawText(SANDBOX_LABEL_MARK, { x: 18, y: 30, size: 13, font: bold, color: rgb(0.8, 0, 0) });
  return document.save({ useObjectStreams: false });
}
