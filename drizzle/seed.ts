/**
 * Demo data: `npm run db:seed` (DATABASE_URL chooses the database; default file:./data/pindex.db).
 * Deterministic: the same pins, people and orders every time. Refuses to run on a database that
 * already has users unless SEED_FORCE=1 (it never deletes anything).
 */
import sharp from 'sharp';
import { count, eq } from 'drizzle-orm';
import { hashPassword } from '../app/auth/password.server';
import { ensureMigrated, getDatabase } from '../app/db/client.server';
import { transaction } from '../app/db/index.server';
import * as s from '../app/db/schema';
import { ensureAchievements } from '../app/services/achievement-definitions.server';
import { recordIdentificationActivity } from '../app/services/achievements.server';
import { addCollectionEntry } from '../app/services/collection.server';
import { prepareImage, savePreparedImage } from '../app/services/images.server';
import { storeComputedFeatures } from '../app/services/identification/index.server';
import { mulberry32 } from '../app/utils/random';
import { rarityFromQuantity } from '../app/utils/rarity';
import { seedMarketplace } from './seed-data/marketplace';
import { PinImagePool, seedCacheDir } from './seed-data/pin-images';
import { ENAMELS, METALS, SHAPES, type Metal, type PinArt } from './seed-data/pin-art';
import { seedTeamExtras } from './seed-data/teams';
import { seedCollectorDemo } from './seed-data/collector';
import { seedTradingDemo } from './seed-data/trading';
import { seedChallengesDemo } from './seed-data/challenges';

const quiet = process.env.SEED_QUIET === '1';
const log = (...args: unknown[]) => {
  if (!quiet) console.log(...args);
};

const rand = mulberry32(20261122);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

export const DEMO_PASSWORD = 'pindex-demo-2026';
export const DEMO_ACCOUNTS = [
  { email: 'superadmin@pindex.test', role: 'super_admin', firstName: 'Sam', lastName: 'Super', nickname: 'SuperSam' },
  { email: 'admin@pindex.test', role: 'admin', firstName: 'Alex', lastName: 'Admin', nickname: 'AdminAlex' },
  { email: 'manager@pindex.test', role: 'manager', firstName: 'Morgan', lastName: 'Manager', nickname: 'CoachMorgan' },
  { email: 'coach@pindex.test', role: 'assistant_coach', firstName: 'Casey', lastName: 'Coach', nickname: 'CaseyC' },
  { email: 'vendor@pindex.test', role: 'vendor', firstName: 'Val', lastName: 'Vendor', nickname: 'PinValerie' },
  { email: 'player@pindex.test', role: 'player', firstName: 'Parker', lastName: 'Player', nickname: 'PinHunter' },
] as const;

const ORGANIZATIONS = [
  ['Cooperstown Dreams Park', 'The summer tournament where 12U teams trade pins all week.'],
  ['Little League Baseball', 'Local leagues and the World Series in Williamsport.'],
  ['Cal Ripken Baseball', 'Regional and World Series tournaments for ages 4-12.'],
  ['Perfect Game', 'Showcases and national championships for travel teams.'],
  ['USSSA Baseball', 'Travel-ball tournaments across the country.'],
  ['Babe Ruth League', 'Youth leagues for ages 13-18.'],
  ['Myrtle Beach Invitational', 'Spring and summer invitationals on the coast.'],
  ['Ocean City Slam', 'A beach-town tournament famous for its pin trading night.'],
  ['Major League Clubs', 'Club-issued pins from professional ballparks and giveaways.'],
  ['Field of Dreams Invitational', 'Iowa cornfield tournament pins.'],
] as const;

const CITIES = ['Springfield', 'Riverside', 'Oak Ridge', 'Lakeview', 'Maple Grove', 'Fair Oaks', 'Cedar Falls', 'Bear Creek', 'Windsor', 'Aspen Hill', 'Twin Peaks', 'Mill Creek', 'Sandy Hook', 'Pine Bluff', 'Bayside', 'Harbor City', 'Elm Park', 'Stone Ridge'];
const MASCOTS = ['Tigers', 'Hawks', 'Sharks', 'Thunder', 'Storm', 'Rattlers', 'Mustangs', 'Knights', 'Cyclones', 'Bombers', 'Raptors', 'Pirates', 'Outlaws', 'Bulldogs', 'Wildcats', 'Comets', 'Titans', 'Gators'];
const AGES = ['9U', '10U', '11U', '12U', '13U', '14U'];
const MOTIFS: PinArt['motif'][] = ['bats', 'ball', 'star', 'glove'];

async function main() {
  const handle = getDatabase();
  await ensureMigrated();
  const db = handle.db;
  const [existing] = await db.select({ n: count() }).from(s.users);
  if ((existing?.n ?? 0) > 0 && process.env.SEED_FORCE !== '1') {
    console.log('The database already has users; not seeding (set SEED_FORCE=1 to add demo data anyway).');
    return;
  }
  const started = Date.now();
  log(`Seeding ${handle.driver}: ${handle.url}`);
  // the pins' photos are made on worker threads (pin-images.ts): started now, ready by the pins
  const photos = new PinImagePool(undefined, seedCacheDir(handle.url));
  photos.warm();

  // ------------------------------------------------------------ people
  const hash = await hashPassword(DEMO_PASSWORD);
  const userIds: Record<string, string> = {};
  const baseTime = Date.UTC(2026, 9, 1); // fixed, so demo data looks the same everywhere
  for (const [i, account] of DEMO_ACCOUNTS.entries()) {
    const [row] = await db
      .insert(s.users)
      .values({ ...account, isOnboardingComplete: true, createdAt: new Date(baseTime - (10 - i) * 86_400_000) })
      .returning();
    await db.insert(s.passwords).values({ userId: row.id, hash });
    await db.insert(s.userStats).values({ userId: row.id });
    userIds[account.role] = row.id;
  }
  // a few more collectors for the admin tables
  for (let i = 1; i <= 14; i++) {
    const [row] = await db
      .insert(s.users)
      .values({
        email: `collector${i}@pindex.test`,
        firstName: pick(['Jordan', 'Riley', 'Avery', 'Quinn', 'Taylor', 'Drew', 'Jamie', 'Reese']),
        lastName: pick(['Lopez', 'Nguyen', 'Smith', 'Patel', 'Brown', 'Garcia', 'Kim', 'Davis']),
        nickname: i % 3 === 0 ? null : `collector${i}`,
        role: i % 5 === 0 ? 'manager' : 'player',
        isOnboardingComplete: i % 4 !== 0,
        createdAt: new Date(baseTime - i * 3 * 86_400_000),
      })
      .returning();
    await db.insert(s.userStats).values({ userId: row.id });
  }
  await ensureAchievements();

  // ------------------------------------------------------------ organizations and team
  const orgIds: string[] = [];
  for (const [name, description] of ORGANIZATIONS) {
    const [row] = await db.insert(s.organizations).values({ name, description }).returning();
    orgIds.push(row.id);
  }
  const [demoTeam] = await db
    .insert(s.teams)
    .values({
      name: 'Springfield Thunder 12U',
      description: 'Travel team heading to Cooperstown this summer.',
      location: 'Springfield, IL',
      managerId: userIds.manager,
    })
    .returning();
  // a full youth roster: 13 players with positions and numbers (one inactive), one of them the
  // demo player's own account, so that a player sees the team in their /teams too
  const players = ['Eli Carter', 'Mason Reyes', 'Noah Brooks', 'Liam Foster', 'Owen Price', 'Lucas Ward', 'Ethan Cole', 'Henry Diaz', 'Jack Moore', 'Leo Turner', 'Parker Player', 'Caleb Young', 'Miles Bennett'];
  const positions = ['Pitcher', 'Catcher', 'First Base', 'Second Base', 'Third Base', 'Shortstop', 'Left Field', 'Center Field', 'Right Field', 'Designated Hitter', 'Pitcher', 'Catcher', 'Center Field'];
  for (const [i, name] of players.entries()) {
    await db.insert(s.rosters).values({
      teamId: demoTeam.id,
      playerName: name,
      playerId: name === 'Parker Player' ? userIds.player : null,
      position: positions[i],
      jerseyNumber: String(i * 3 + 2),
      isActive: i !== 9,
    });
  }
  const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#ffffff"/><circle cx="200" cy="200" r="180" fill="#1d4ed8" stroke="#facc15" stroke-width="18"/><path d="M215 70 L140 215 H195 L170 330 L265 170 H208 Z" fill="#facc15"/><text x="200" y="375" font-family="sans-serif" font-size="34" font-weight="bold" fill="#1d4ed8" text-anchor="middle">12U</text></svg>`;
  const logo = await prepareImage(await sharp(Buffer.from(logoSvg)).png().toBuffer());
  await transaction(async (tx) => {
    const stored = await savePreparedImage(tx, logo);
    await tx.update(s.teams).set({ logoUrl: `/images/${stored.id}` }).where(eq(s.teams.id, demoTeam.id));
  });
  await db.insert(s.staff).values([
    { teamId: demoTeam.id, userId: userIds.manager, name: 'Morgan Manager', role: 'manager' },
    { teamId: demoTeam.id, userId: userIds.assistant_coach, name: 'Casey Coach', role: 'assistant_coach' },
  ]);

  // ------------------------------------------------------------ pins with generated artwork
  // Every pin is planned first (drawing from `rand` in the same order as ever), its photos are made
  // on worker threads meanwhile (pin-images.ts), and the pins are written in order as they are ready.
  const PIN_COUNT = Number(process.env.SEED_PINS || 160);
  const plans = [];
  const usedNames = new Set<string>();
  for (let i = 0; i < PIN_COUNT; i++) {
    let name = '';
    let team = '';
    let year = 0;
    let orgIndex = 0;
    let age = '';
    do {
      const city = pick(CITIES);
      const mascot = pick(MASCOTS);
      age = pick(AGES);
      year = between(2012, 2026);
      orgIndex = i % ORGANIZATIONS.length;
      team = `${city} ${mascot}`;
      name = `${team} ${age} - ${ORGANIZATIONS[orgIndex][0]} ${year}`;
    } while (usedNames.has(name));
    usedNames.add(name);
    const totalQuantity = pick([25, 40, 75, 120, 150, 200, 300, 450, 600, 1000, 2500]);
    const { rarity, rarityScore } = rarityFromQuantity(totalQuantity);
    const metal = pick(Object.keys(METALS) as Metal[]);
    const enamel = pick(ENAMELS);
    const art: PinArt = { shape: SHAPES[i % SHAPES.length], metal, enamel, team, line2: `${age} ${year}`, motif: pick(MOTIFS), variant: 0 };
    const photoCount = i % 7 === 0 ? 3 : i % 3 === 0 ? 2 : 1;
    const images = Array.from({ length: photoCount }, (_, v) => photos.render({ ...art, variant: v }));
    // kept from failing the process before its turn comes: awaited below, in order
    for (const image of images) image.catch(() => undefined);
    const value = Math.round((rarityScore * 18 + rand() * 25 + (year < 2016 ? 15 : 0)) * 100);
    const createdBy = i % 9 === 0 ? userIds.manager : i % 11 === 0 ? userIds.vendor : userIds.admin;
    const shapeName = art.shape === 'rounded' ? 'rounded rectangle' : art.shape === 'plate' ? 'home plate' : art.shape;
    const values = {
      name,
      description: `Soft enamel ${shapeName} pin, ${metal} metal, ${enamel[0]} and accent colours; ${art.motif === 'bats' ? 'crossed bats' : art.motif === 'ball' ? 'a baseball' : art.motif === 'glove' ? 'a glove' : 'a star'} with "${team.toUpperCase()}" and "${age} ${year}".`,
      organizationId: orgIds[orgIndex],
      teamId: i % 9 === 0 ? demoTeam.id : null,
      createdBy,
      totalQuantity,
      availableQuantity: i % 6 === 0 ? 0 : Math.floor(totalQuantity * (0.2 + rand() * 0.6)),
      distributionDate: `${year}-0${between(5, 8)}-${String(between(10, 28))}`,
      year,
      event: `${ORGANIZATIONS[orgIndex][0]} ${year}`,
      rarity,
      rarityScore,
      estimatedValueCents: i % 13 === 0 ? null : value,
      isFeatured: i % 17 === 0,
      createdAt: new Date(baseTime - (PIN_COUNT - i) * 3_600_000 * 5),
      updatedAt: new Date(baseTime - (PIN_COUNT - i) * 3_600_000 * 5),
    };
    plans.push({ values, images });
  }
  const pinIds: string[] = [];
  try {
    for (const [i, plan] of plans.entries()) {
      const images = await Promise.all(plan.images);
      const pin = await transaction(async (tx) => {
        const imageIds: string[] = [];
        for (const image of images) imageIds.push((await savePreparedImage(tx, image.prepared)).id);
        const [row] = await tx.insert(s.pins).values({ ...plan.values, images: imageIds }).returning();
        return row.id;
      });
      pinIds.push(pin);
      for (const image of images) await storeComputedFeatures(image.prepared.id, image.computed);
      if (!quiet && (i + 1) % 40 === 0) log(`  ${i + 1} / ${PIN_COUNT} pins`);
    }
  } finally {
    await photos.close();
  }
  log(`  photos: ${photos.stats.made} made, ${photos.stats.cached} from the seed cache`);

  // ------------------------------------------------------------ collections, identifications, badges
  const player = userIds.player;
  const collectionPlan: [number, s.CollectionStatus][] = [
    [0, 'owned'], [3, 'owned'], [7, 'owned'], [12, 'owned'], [20, 'owned'],
    [5, 'wanted'], [9, 'wanted'], [30, 'wanted'],
    [14, 'trading'], [22, 'trading'],
  ];
  for (const [index, status] of collectionPlan) {
    await transaction((tx) =>
      addCollectionEntry(tx, player, { pinId: pinIds[index], status, quantity: status === 'owned' ? between(1, 3) : 1, condition: pick(s.CONDITIONS), tradeable: status === 'trading' }),
    );
  }
  for (const index of [1, 2, 40]) {
    await transaction((tx) => addCollectionEntry(tx, userIds.manager, { pinId: pinIds[index], status: 'owned', condition: 'mint' }));
  }
  for (let k = 0; k < 12; k++) {
    const index = between(0, pinIds.length - 1);
    const confidence = between(72, 98);
    const userId = k % 3 === 0 ? player : null;
    await transaction(async (tx) => {
      await tx.insert(s.identifications).values({
        pinId: pinIds[index],
        userId,
        confidence,
        identificationData: { source: 'demo' },
        createdAt: new Date(baseTime + k * 60_000),
      });
      const [row] = await tx.select({ n: s.pins.identificationCount }).from(s.pins).where(eqId(pinIds[index]));
      await tx.update(s.pins).set({ identificationCount: (row?.n ?? 0) + 1 }).where(eqId(pinIds[index]));
      if (userId) await recordIdentificationActivity(tx, userId, { successful: true });
    });
  }

  // ------------------------------------------------------------ vendors, listings, orders, inventory
  await seedMarketplace({ userIds, pinIds, baseTime });
  await db.insert(s.auditLogs).values([
    { userId: userIds.super_admin, action: 'user.role_change', targetType: 'user', targetId: userIds.admin, details: { from: 'player', to: 'admin' } },
  ]);

  await seedTeamExtras(db, demoTeam.id, userIds.manager);
  await seedCollectorDemo(userIds, baseTime);
  await seedTradingDemo({ userIds, pinIds, baseTime, passwordHash: hash });
  await seedChallengesDemo({ userIds, pinIds });

  log(`Seeded ${PIN_COUNT} pins, ${ORGANIZATIONS.length} organizations, ${Object.keys(userIds).length + 14} users in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  log(`Demo accounts (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.email).join(', ')}`);
}

const eqId = (id: string) => eq(s.pins.id, id);

main()
  .then(() => getDatabase().close())
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
