/**
 * Stored reference pixels as an earlier version wrote them (RPX1: grayscale and thumbnail, no tint
 * channel), made from a blob of the current form, for the tests of reading and remaking them.
 */
export function firstFormPixels(blob: Uint8Array): Uint8Array {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const HEADER = 11 * 4;
  const FIRST_HEADER = 7 * 4;
  const grayLength = dv.getUint32(12, true);
  const thumbLength = dv.getUint32(24, true);
  const out = new Uint8Array(FIRST_HEADER + grayLength + thumbLength);
  out.set(blob.subarray(0, FIRST_HEADER));
  new DataView(out.buffer).setUint32(0, 0x31585052, true); // "RPX1"
  out.set(blob.subarray(HEADER, HEADER + grayLength + thumbLength), FIRST_HEADER);
  return out;
}
