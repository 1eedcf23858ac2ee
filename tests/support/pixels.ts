/**
 * Stored reference pixels as an earlier version wrote them, made from a blob of the current form (RPX3),
 * for the tests of reading and remaking them: RPX1 kept the grayscale and the thumbnail, RPX2 added
 * the tint channel (and its length and axis to the header), RPX3 the thumbnail's pin masks.
 */
export function earlierFormPixels(blob: Uint8Array, form: 1 | 2): Uint8Array {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const HEADER = 12 * 4;
  const earlierHeader = form === 1 ? 7 * 4 : 11 * 4;
  // gray, thumbnail and (from RPX2 on) tint, in that order after the header
  const kept = dv.getUint32(12, true) + dv.getUint32(24, true) + (form === 2 ? dv.getUint32(28, true) : 0);
  const out = new Uint8Array(earlierHeader + kept);
  out.set(blob.subarray(0, earlierHeader));
  new DataView(out.buffer).setUint32(0, form === 1 ? 0x31585052 : 0x32585052, true); // "RPX1", "RPX2"
  out.set(blob.subarray(HEADER, HEADER + kept), earlierHeader);
  return out;
}
