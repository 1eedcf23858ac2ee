/**
 * Stored reference pixels as an earlier version wrote them (RPX1: grayscale and thumbnail, no tint
 * channel), made from a blob of the current form, for the tests of reading and remaking them.
 */
export function firstFormPixels(blob: Uint8Array): Uint8Array {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const HEADER = 12 * 4;
  const FIRST_HEADER = 7 * 4;
  const grayLength = dv.getUint32(12, true);
  const thumbLength = dv.getUint32(24, true);
  const out = new Uint8Array(FIRST_HEADER + grayLength + thumbLength);
  out.set(blob.subarray(0, FIRST_HEADER));
  new DataView(out.buffer).setUint32(0, 0x31585052, true); // "RPX1"
  out.set(blob.subarray(HEADER, HEADER + grayLength + thumbLength), FIRST_HEADER);
  return out;
}

/**
 * Stored reference pixels as the version before the pin mask wrote them (RPX2: grayscale, thumbnail
 * and tint channel), made from a blob of the current form.
 */
export function secondFormPixels(blob: Uint8Array): Uint8Array {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const HEADER = 12 * 4;
  const SECOND_HEADER = 11 * 4;
  const kept = dv.getUint32(12, true) + dv.getUint32(24, true) + dv.getUint32(28, true); // gray, thumbnail, tint
  const out = new Uint8Array(SECOND_HEADER + kept);
  out.set(blob.subarray(0, SECOND_HEADER));
  new DataView(out.buffer).setUint32(0, 0x32585052, true); // "RPX2"
  out.set(blob.subarray(HEADER, HEADER + kept), SECOND_HEADER);
  return out;
}
