/**
 * Just enough PNG decoding (8-bit, non-interlaced, as Chromium writes them) to compare two
 * screenshots pixel by pixel, so a test run rewrites docs/screenshots only when the picture
 * changed, not when a few anti-aliased pixels of a rounded corner did.
 */
import { inflateSync } from "node:zlib";

export interface Pixels {
  width: number;
  height: number;
  /** Bytes per pixel (3 for RGB, 4 for RGBA). */
  channels: number;
  data: Uint8Array;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export function decodePng(png: Uint8Array): Pixels {
  const buffer = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const chunks: Buffer[] = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString("ascii", offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error("only 8-bit, non-interlaced PNGs");
      channels = CHANNELS[data[9]!] ?? 0;
      if (!channels) throw new Error(`unsupported PNG colour type ${data[9]}`);
    } else if (type === "IDAT") chunks.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? out[row + x - channels]! : 0;
      const up = y > 0 ? out[row - stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? out[row - stride + x - channels]! : 0;
      let value = raw[line + x]!;
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      out[row + x] = value & 255;
    }
  }
  return { width, height, channels, data: out };
}

/** The share of pixels that differ (1 when the sizes differ). */
export function pixelDifference(a: Pixels, b: Pixels): number {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) return 1;
  let differing = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < a.channels; c++) {
      if (a.data[i * a.channels + c] !== b.data[i * a.channels + c]) {
        differing++;
        break;
      }
    }
  }
  return differing / n;
}
