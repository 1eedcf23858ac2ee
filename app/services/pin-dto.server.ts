/**
 * The one shape in which a pin leaves the server (pages and /api alike).
 * `images` are URL strings (/images/{id}); `thumbnail` is the small card variant of the primary photo.
 */
import type { Pin } from '~/db/schema';
import type { PinDto } from '~/types/pins';
import { imageUrl } from './images.server';

export type { PinDto };

export function toPinDto(
  pin: Pin,
  organization?: { id: string; name: string } | null,
  team?: { id: string; name: string } | null,
): PinDto {
  // the primary photo is shown first
  const ordered = [...pin.images];
  if (pin.primaryPhotoIndex > 0 && pin.primaryPhotoIndex < ordered.length) {
    const [primary] = ordered.splice(pin.primaryPhotoIndex, 1);
    ordered.unshift(primary);
  }
  return {
    id: pin.id,
    name: pin.name,
    description: pin.description,
    images: ordered.map((id) => imageUrl(id)),
    thumbnail: ordered[0] ? imageUrl(ordered[0], 'thumb') : null,
    primaryPhotoIndex: pin.primaryPhotoIndex,
    rarity: pin.rarity,
    rarityScore: pin.rarityScore,
    totalQuantity: pin.totalQuantity,
    availableQuantity: pin.availableQuantity,
    identificationCount: pin.identificationCount,
    organizationId: pin.organizationId,
    organization: organization ?? null,
    teamId: pin.teamId,
    team: team ?? null,
    year: pin.year,
    event: pin.event,
    estimatedValue: pin.estimatedValueCents == null ? null : pin.estimatedValueCents / 100,
    distributionDate: pin.distributionDate,
    createdBy: pin.createdBy,
    createdAt: pin.createdAt.toISOString(),
    isFeatured: pin.isFeatured,
  };
}
