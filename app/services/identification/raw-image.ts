/** A decoded picture: RGB, 3 bytes a pixel, row by row. Its own module, so that the detail check and
 * the feature extraction (which uses the detail check's layout) need not import each other. */
export interface RawImage {
  data: Uint8Array; // RGB, 3 bytes per pixel
  width: number;
  height: number;
}
