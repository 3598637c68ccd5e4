/** QR code as one SVG path (dark modules), so it renders without inline styles or scripts. */
import qrcode from 'qrcode-generator';

export interface QrPath {
  size: number;
  d: string;
}

/** Byte-mode QR with error correction L; null when the text does not fit in a version-40 code. JSON is compacted first. */
export function qrPath(text: string): QrPath | null {
  try {
    text = compactJson(text);
    const qr = qrcode(0, 'L');
    // Byte mode takes one character per byte: the UTF-8 bytes of the text.
    qr.addData(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(''), 'Byte');
    qr.make();
    const n = qr.getModuleCount();
    const parts: string[] = [];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) if (qr.isDark(r, c)) parts.push(`M${c} ${r}h1v1h-1z`);
    }
    return { size: n, d: parts.join('') };
  } catch {
    return null;
  }
}

function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}
