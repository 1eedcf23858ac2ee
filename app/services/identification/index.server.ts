/**
 * The live visual index of the catalogue (owned by the identification service).
 * Pin services call these after a pin's images change (create, update, delete), outside their
 * transaction; the index extracts features for new reference images and updates memory at once.
 */

/** Extracts (and stores) features for the given reference images of a pin and indexes them. */
export async function indexPinImages(_pinId: string, _imageIds: string[]): Promise<void> {
  // filled in by the identification engine integration
}

/** Drops a deleted pin (or replaced images) from the index. */
export async function removePinFromIndex(_pinId: string): Promise<void> {
  // filled in by the identification engine integration
}
