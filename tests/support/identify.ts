/**
 * Test pictures for identification, generated at test time (no fixtures on disk): a pin-like
 * artwork (die-cut shape, enamel colours, artwork, lettering) and a "phone photo" of it
 * (rotated, scaled, on a textured background, re-encoded as JPEG).
 */
import sharp from 'sharp';

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PALETTE = ['#c8102e', '#003087', '#ffb612', '#006341', '#4b2e83', '#fa4616', '#00a3e0', '#000000', '#ffffff', '#7a0019'];

/**
 * A 512 px catalogue-style picture of an invented pin; the same seed gives the same pin. `spin` (degrees)
 * adds a spinner: a centre disc with its own artwork, turned by that angle; `yearSize` is the year's font size;
 * `hexagon` draws another design (a hexagon with a silver outline, a bar across it, serif lettering);
 * `banner` colours the banner (a colour variant of the pin); `glitter` scatters specks of glitter over the
 * banner, at places of its own for each seed (no two glitter pins carry them alike); `ink` fills the
 * team name and colours its outline (the die line between two enamels) on the round pin; `ball` makes
 * the spinner a baseball (its two seams of red stitches and nothing else).
 */
export async function pinArtwork(
  seed: number,
  text = `TEAM ${seed}`,
  year = 2000 + (seed % 25),
  opts: { spin?: number; yearSize?: number; hexagon?: boolean; banner?: string; glitter?: number; ink?: { fill: string; line: string }; ball?: boolean; condensed?: boolean; arc?: string } = {},
): Promise<Buffer> {
  const r = rng(seed);
  const pick = () => PALETTE[Math.floor(r() * PALETTE.length)];
  const [a, b, picked] = [pick(), pick(), pick()];
  const c = opts.banner ?? picked; // the rest of the design stays that of the seed
  const shapes: string[] = [];
  for (let i = 0; i < 14; i++) {
    const x = 120 + r() * 272;
    const y = 120 + r() * 272;
    const size = 18 + r() * 60;
    shapes.push(
      i % 3 === 0
        ? `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${pick()}" stroke="#d4af37" stroke-width="4"/>`
        : i % 3 === 1
          ? `<rect x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size * 0.6}" transform="rotate(${r() * 90} ${x} ${y})" fill="${pick()}" stroke="#d4af37" stroke-width="3"/>`
          : `<polygon points="${x},${y - size / 2} ${x + size / 2},${y + size / 2} ${x - size / 2},${y + size / 2}" fill="${pick()}" stroke="#d4af37" stroke-width="3"/>`,
    );
  }
  const svg = opts.hexagon
    ? `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
    <rect width="512" height="512" fill="#ffffff"/>
    <polygon points="256,30 452,143 452,369 256,482 60,369 60,143" fill="${a}" stroke="#c0c0c0" stroke-width="12"/>
    <rect x="126" y="150" width="260" height="220" fill="${b}" stroke="#c0c0c0" stroke-width="6"/>
    ${shapes.join('\n')}
    <rect x="40" y="200" width="432" height="64" fill="${c}" stroke="#c0c0c0" stroke-width="5"/>
    <text x="256" y="246" font-family="serif" font-size="40" font-style="italic" text-anchor="middle" fill="#000000">${text}</text>
    <text x="256" y="420" font-family="serif" font-size="${opts.yearSize ?? 40}" text-anchor="middle" fill="#000000">${year}</text>
  </svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
    <rect width="512" height="512" fill="#ffffff"/>
    <circle cx="256" cy="256" r="220" fill="${a}" stroke="#d4af37" stroke-width="14"/>
    <circle cx="256" cy="256" r="160" fill="${b}" stroke="#d4af37" stroke-width="8"/>
    ${shapes.join('\n')}
    <path d="M70 330 L442 330 L420 400 L92 400 Z" fill="${c}" stroke="#d4af37" stroke-width="6"/>
    ${opts.glitter === undefined ? '' : glitter(opts.glitter)}
    <text x="256" y="378" font-family="sans-serif" font-size="44" font-weight="bold" text-anchor="middle" fill="${opts.ink?.fill ?? '#ffffff'}" stroke="${opts.ink?.line ?? '#000'}" stroke-width="1.5">${text}</text>
    <text x="256" y="140" font-family="sans-serif" font-size="${opts.yearSize ?? 40}" font-weight="bold" text-anchor="middle" fill="#ffffff" stroke="#000" stroke-width="1.5"${opts.condensed ? ' transform="translate(256 0) scale(0.5 1) translate(-256 0)"' : ''}>${year}</text>
    ${opts.spin === undefined ? '' : spinner(opts.spin, opts.ball)}
    ${opts.arc === undefined ? '' : arcText(opts.arc)}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
}

/**
 * A 512 px catalogue-style picture of a round pin with a dangler: a plate hanging from a short neck
 * under the pin, printing `label`, swung by `swing` degrees about its ring (a dangler swings between
 * photos).
 */
export async function danglingPin(label: string, swing = 0): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
    <rect width="512" height="512" fill="#ffffff"/>
    <g transform="rotate(${swing} 256 340)">
      <rect x="250" y="330" width="12" height="40" fill="#d4af37"/>
      <rect x="196" y="366" width="120" height="76" rx="10" fill="#fff3c4" stroke="#d4af37" stroke-width="6"/>
      <text x="256" y="420" font-family="sans-serif" font-size="40" font-weight="bold" text-anchor="middle" fill="#c8102e">${label}</text>
    </g>
    <circle cx="256" cy="180" r="150" fill="#003087" stroke="#d4af37" stroke-width="10"/>
    <circle cx="200" cy="130" r="30" fill="#c8102e" stroke="#d4af37" stroke-width="4"/>
    <text x="256" y="200" font-family="sans-serif" font-size="44" font-weight="bold" text-anchor="middle" fill="#ffffff" stroke="#000" stroke-width="1.5">EAGLES</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
}

/**
 * Lettering along the bottom of the ring, each letter turned to follow it, as a ring pin prints its
 * event and year: read left to right, its last letters stand on the ring's rising side.
 */
function arcText(text: string): string {
  const letters = [...text].map((ch, i) => {
    const angle = 116 - i * 7; // degrees clockwise from the horizontal through the centre (90: the bottom)
    const rad = (angle * Math.PI) / 180;
    const x = (256 + 190 * Math.cos(rad)).toFixed(1), y = (256 + 190 * Math.sin(rad)).toFixed(1);
    return `<text x="${x}" y="${y}" font-family="sans-serif" font-size="30" font-weight="bold" text-anchor="middle" dominant-baseline="central" fill="#ffffff" stroke="#000" stroke-width="1.2" transform="rotate(${angle - 90} ${x} ${y})">${ch}</text>`;
  });
  return `<circle cx="256" cy="256" r="190" fill="none" stroke="#202020" stroke-width="40"/>${letters.join('')}`;
}

/** Specks of glitter over the round pin's banner (white dots of 1-2 px), placed by `seed`. */
function glitter(seed: number): string {
  const r = rng(seed * 7919);
  const dots: string[] = [];
  for (let i = 0; i < 800; i++) {
    const y = 334 + r() * 62;
    const x = 92 + r() * 328;
    dots.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(0.7 + r() * 0.6).toFixed(2)}" fill="#ffffff"/>`);
  }
  return dots.join('');
}

function spinner(angle: number, ball = false): string {
  if (ball) {
    // a baseball: two seams, each a column of red stitches about 40 px tall
    const seam = (x: number, bend: number) =>
      Array.from({ length: 6 }, (_, k) => {
        const y = 230 + k * 7, cx = x + bend * Math.sin((k / 5) * Math.PI);
        return `<path d="M${cx - 7} ${y - 4} L${cx} ${y} L${cx + 7} ${y - 4}" fill="none" stroke="#c8102e" stroke-width="3"/>`;
      }).join('') + `<path d="M${x} 224 Q${x + bend * 2} 250 ${x} 270" fill="none" stroke="#c8102e" stroke-width="2"/>`;
    return `<g transform="rotate(${angle} 256 250)">
    <circle cx="256" cy="250" r="96" fill="#f4f1e8" stroke="#d4af37" stroke-width="8"/>
    <circle cx="256" cy="250" r="9" fill="#d4af37"/>
    ${seam(226, -4)}${seam(286, 4)}
  </g>`;
  }
  return `<g transform="rotate(${angle} 256 250)">
    <circle cx="256" cy="250" r="96" fill="#f4f1e8" stroke="#d4af37" stroke-width="8"/>
    <path d="M196 214 L236 190 L226 236 Z" fill="#c8102e" stroke="#000" stroke-width="3"/>
    <rect x="270" y="196" width="44" height="30" fill="#003087" stroke="#000" stroke-width="3" transform="rotate(20 292 211)"/>
    <circle cx="226" cy="296" r="16" fill="#006341" stroke="#000" stroke-width="3"/>
    <text x="262" y="270" font-family="sans-serif" font-size="34" font-weight="bold" text-anchor="middle" fill="#4b2e83" stroke="#000" stroke-width="1">SPIN</text>
    <polygon points="300,282 324,300 292,314" fill="#fa4616" stroke="#000" stroke-width="3"/>
  </g>`;
}

/**
 * A phone-like photo of a picture: smaller, slightly rotated, on a textured background, JPEG. With
 * `cutOut`, the round pin of a `pinArtwork` lies on the background without the white of its picture.
 */
export async function phonePhoto(picture: Buffer, opts: { rotate?: number; size?: number; quality?: number; cutOut?: boolean } = {}): Promise<Buffer> {
  return photoOfPins([{ picture, ...opts }], opts.quality);
}

/** One pin in `photoOfPins`: as in `phonePhoto`, with the centre of the pin in the 800 x 640 frame. */
export interface PinInPhoto {
  picture: Buffer;
  rotate?: number;
  size?: number;
  cutOut?: boolean;
  centre?: [number, number];
}

/** A phone-like photo of one or more pins lying side by side (a lanyard, a pin board). */
export async function photoOfPins(pins: PinInPhoto[], quality = 80): Promise<Buffer> {
  const w = 800;
  const h = 640;
  const round = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><circle cx="256" cy="256" r="228" fill="#000"/></svg>');
  const layers = await Promise.all(
    pins.map(async (p) => {
      const size = p.size ?? 360;
      const shaped = p.cutOut ? await sharp(p.picture).ensureAlpha().composite([{ input: round, blend: 'dest-in' }]).png().toBuffer() : p.picture;
      const pin = await sharp(shaped)
        .resize(size, size)
        .rotate(p.rotate ?? 8, { background: '#8a7f70' })
        .toBuffer();
      const meta = await sharp(pin).metadata();
      const [cx, cy] = p.centre ?? [w / 2, h / 2];
      return { input: pin, left: Math.round(cx - (meta.width ?? size) / 2), top: Math.round(cy - (meta.height ?? size) / 2) };
    }),
  );
  const stripes = Array.from({ length: 40 }, (_, i) => `<rect x="0" y="${i * 16}" width="${w}" height="8" fill="#80776a"/>`).join('');
  const background = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#8a7f70"/>${stripes}</svg>`))
    .png()
    .toBuffer();
  return sharp(background)
    .composite(layers)
    .modulate({ brightness: 0.95 })
    .jpeg({ quality })
    .toBuffer();
}

export const dataUrl = (bytes: Buffer, type = 'image/jpeg') => `data:${type};base64,${bytes.toString('base64')}`;

/**
 * The photo smeared along a straight line, as when the phone moves while the shutter is open: each
 * pixel the mean of the scene along a segment of `length` px at `angle` degrees (image axes, y down),
 * drawn into a kernel by 64 points per pixel to the nearest cell and applied by sharp (libvips).
 */
export async function motionBlurred(photo: Buffer, length: number, angle: number, quality = 85): Promise<Buffer> {
  const size = 2 * Math.ceil(length / 2) + 3;
  const kernel = new Array<number>(size * size).fill(0);
  const c = (size - 1) / 2, th = (angle * Math.PI) / 180;
  const n = Math.round(length * 64);
  for (let i = 0; i <= n; i++) {
    const d = -length / 2 + (length * i) / n;
    kernel[Math.round(c + d * Math.sin(th)) * size + Math.round(c + d * Math.cos(th))] += 1;
  }
  return sharp(photo)
    .convolve({ width: size, height: size, kernel, scale: n + 1 })
    .jpeg({ quality })
    .toBuffer();
}
