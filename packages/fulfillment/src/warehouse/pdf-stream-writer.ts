import {
  PDFArray,
  PDFContext,
  type PDFDocument,
  PDFHeader,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectCopier,
  type PDFRef,
  PDFString,
} from 'pdf-lib';

const encoder = new TextEncoder();

/**
 * Writes one PDF as it is built, page group by page group, so that only the pages being added are
 * in memory (the labels batch: 50 labels of up to 2 MiB were a 100 MiB document held, then saved
 * into a second 100 MiB buffer). Pages copied from a source document are serialized and dropped
 * from memory at once; the page tree, the catalog, the information dictionary and the cross-reference
 * table (offsets only: 20 bytes an object) come last. The file is a classic PDF 1.7 with an xref
 * table, as pdf-lib reads and writes it.
 */
export class PdfStreamWriter {
  private readonly context = PDFContext.create();
  private readonly pagesRef: PDFRef;
  private readonly kids: PDFRef[] = [];
  /** Byte offset of each written object, by object number. */
  private readonly offsets: number[] = [];
  private written = 0;
  private started = false;

  constructor() {
    this.pagesRef = this.context.nextRef();
  }

  /** The file's header: the first bytes to send. */
  header(): Uint8Array {
    if (this.started) throw new Error('header() is written once, first');
    this.started = true;
    const header = PDFHeader.forVersion(1, 7);
    // The version line, a comment of bytes above 127 (the file is binary), then a blank line, as pdf-lib writes it.
    const bytes = new Uint8Array(header.sizeInBytes() + 2);
    const end = header.copyBytesInto(bytes, 0);
    bytes.set([0x0a, 0x0a], end);
    this.written += bytes.byteLength;
    return bytes;
  }

  /** Copies every page of `source` (in order) and answers their bytes; nothing of them stays. */
  addPagesOf(source: PDFDocument): Uint8Array {
    if (!this.started) throw new Error('header() first');
    const copier = PDFObjectCopier.for(source.context, this.context);
    for (const page of source.getPages()) {
      // The copy leaves out the source's tree (its parent); the page joins this file's one.
      const copied = copier.copy(page.node);
      copied.set(PDFName.of('Parent'), this.pagesRef);
      this.kids.push(this.context.register(copied));
    }
    return this.flush();
  }

  /** The page tree, the catalog and the information dictionary, then the cross-reference table. */
  finish(info: { title: string }): Uint8Array {
    const { context } = this;
    const kids = PDFArray.withContext(context);
    for (const kid of this.kids) kids.push(kid);
    context.assign(
      this.pagesRef,
      context.obj({ Type: 'Pages', Kids: kids, Count: PDFNumber.of(this.kids.length) }),
    );
    const root = context.register(context.obj({ Type: 'Catalog', Pages: this.pagesRef }));
    const infoRef = context.register(
      context.obj({ Title: PDFString.of(info.title), Producer: PDFString.of('commerce') }),
    );
    const objects = this.flush();
    const size = this.offsets.length;
    const xrefAt = this.written;
    const lines = ['xref', `0 ${size}`, '0000000000 65535 f '];
    for (let number = 1; number < size; number++) {
      const offset = this.offsets[number];
      // Every number was written (they are handed out in order); a gap would be a free entry.
      lines.push(
        offset === undefined ? '0000000000 65535 f ' : `${String(offset).padStart(10, '0')} 00000 n `,
      );
    }
    const trailer = [
      ...lines,
      'trailer',
      `<< /Size ${size} /Root ${root.objectNumber} 0 R /Info ${infoRef.objectNumber} 0 R >>`,
      'startxref',
      String(xrefAt),
      '%%EOF',
      '',
    ].join('\n');
    const tail = encoder.encode(trailer);
    const bytes = new Uint8Array(objects.byteLength + tail.byteLength);
    bytes.set(objects, 0);
    bytes.set(tail, objects.byteLength);
    this.written += tail.byteLength;
    return bytes;
  }

  /** Serializes every object registered since the last flush and drops it from memory. */
  private flush(): Uint8Array {
    const entries = this.context.enumerateIndirectObjects();
    const parts: Uint8Array[] = [];
    let length = 0;
    for (const [ref, object] of entries) {
      const bytes = serialize(ref, object);
      this.offsets[ref.objectNumber] = this.written + length;
      parts.push(bytes);
      length += bytes.byteLength;
      this.context.delete(ref);
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    this.written += length;
    return out;
  }
}

function serialize(ref: PDFRef, object: PDFObject): Uint8Array {
  const head = encoder.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
  const tail = encoder.encode('\nendobj\n\n');
  const bytes = new Uint8Array(head.byteLength + object.sizeInBytes() + tail.byteLength);
  bytes.set(head, 0);
  const end = head.byteLength + object.copyBytesInto(bytes, head.byteLength);
  bytes.set(tail, end);
  return bytes;
}
