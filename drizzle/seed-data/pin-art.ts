/**
 * Generates trading-pin artwork as SVG (rendered by sharp): a die-cut shape with a metal outline,
 * flat enamel fills, a motif, and the team name and year. Deterministic for a given seed.
 */
export type Shape = 'circle' | 'shield' | 'diamond' | 'pennant' | 'star' | 'rounded' | 'baseball' | 'plate';
export const SHAPES: Shape[] = ['circle', 'shield', 'diamond', 'pennant', 'star', 'rounded', 'baseball', 'plate'];
export const METALS = { gold: ['#f5d77a', '#b8860b'], silver: ['#f1f1f1', '#8c8c8c'], 'black nickel': ['#6b6b6b', '#1f1f1f'] } as const;
export type Metal = keyof typeof METALS;
export const ENAMELS: [string, string, string][] = [
  ['Navy', '#1b2a6b', '#c8102e'],
  ['Royal', '#1d4ed8', '#f59e0b'],
  ['Cardinal', '#9f1239', '#facc15'],
  ['Forest', '#166534', '#fde68a'],
  ['Black', '#111827', '#f97316'],
  ['Purple', '#5b21b6', '#e5e7eb'],
  ['Teal', '#0f766e', '#fef3c7'],
  ['Orange', '#ea580c', '#1e293b'],
  ['Maroon', '#7f1d1d', '#d1d5db'],
  ['Sky', '#0284c7', '#fde047'],
];

export interface PinArt {
  shape: Shape;
  metal: Metal;
  enamel: [string, string, string];
  team: string;
  line2: string;
  motif: 'bats' | 'ball' | 'star' | 'glove';
  variant: number; // 0 = front; 1, 2 = other photos of the same pin
}

function shapePath(shape: Shape, c: number, r: number): string {
  switch (shape) {
    case 'circle':
      return `<circle cx="${c}" cy="${c}" r="${r}"/>`;
    case 'baseball':
      return `<circle cx="${c}" cy="${c}" r="${r}"/>`;
    case 'shield':
      return `<path d="M${c - r} ${c - r * 0.85} L${c + r} ${c - r * 0.85} L${c + r} ${c} Q${c + r} ${c + r * 0.7} ${c} ${c + r} Q${c - r} ${c + r * 0.7} ${c - r} ${c} Z"/>`;
    case 'diamond':
      return `<path d="M${c} ${c - r} L${c + r} ${c} L${c} ${c + r} L${c - r} ${c} Z"/>`;
    case 'pennant':
      return `<path d="M${c - r} ${c - r * 0.6} L${c + r} ${c} L${c - r} ${c + r * 0.6} Z"/>`;
    case 'star': {
      const pts: string[] = [];
      for (let i = 0; i < 10; i++) {
        const a = (Math.PI / 5) * i - Math.PI / 2;
        const rr = i % 2 === 0 ? r : r * 0.55;
        pts.push(`${(c + rr * Math.cos(a)).toFixed(1)},${(c + rr * Math.sin(a)).toFixed(1)}`);
      }
      return `<polygon points="${pts.join(' ')}"/>`;
    }
    case 'rounded':
      return `<rect x="${c - r}" y="${c - r * 0.75}" width="${r * 2}" height="${r * 1.5}" rx="${r * 0.25}"/>`;
    case 'plate':
      return `<path d="M${c - r * 0.8} ${c - r} L${c + r * 0.8} ${c - r} L${c + r * 0.8} ${c + r * 0.2} L${c} ${c + r} L${c - r * 0.8} ${c + r * 0.2} Z"/>`;
  }
}

function motif(kind: PinArt['motif'], c: number, metal: string, accent: string): string {
  switch (kind) {
    case 'bats':
      return `<g stroke="${metal}" stroke-width="5"><rect x="${c - 6}" y="${c - 70}" width="12" height="120" rx="6" fill="${accent}" transform="rotate(35 ${c} ${c})"/><rect x="${c - 6}" y="${c - 70}" width="12" height="120" rx="6" fill="${accent}" transform="rotate(-35 ${c} ${c})"/></g>`;
    case 'ball':
      return `<g><circle cx="${c}" cy="${c - 10}" r="42" fill="#fafafa" stroke="${metal}" stroke-width="5"/><path d="M${c - 25} ${c - 42} Q${c - 8} ${c - 10} ${c - 25} ${c + 22}" fill="none" stroke="#dc2626" stroke-width="4" stroke-dasharray="6 4"/><path d="M${c + 25} ${c - 42} Q${c + 8} ${c - 10} ${c + 25} ${c + 22}" fill="none" stroke="#dc2626" stroke-width="4" stroke-dasharray="6 4"/></g>`;
    case 'star':
      return `<polygon points="${c},${c - 55} ${c + 14},${c - 18} ${c + 52},${c - 18} ${c + 22},${c + 5} ${c + 33},${c + 42} ${c},${c + 20} ${c - 33},${c + 42} ${c - 22},${c + 5} ${c - 52},${c - 18} ${c - 14},${c - 18}" fill="${accent}" stroke="${metal}" stroke-width="5"/>`;
    case 'glove':
      return `<g fill="${accent}" stroke="${metal}" stroke-width="5"><path d="M${c - 40} ${c + 30} L${c - 45} ${c - 30} Q${c - 40} ${c - 50} ${c - 28} ${c - 35} L${c - 22} ${c - 55} Q${c - 12} ${c - 68} ${c - 4} ${c - 52} L${c + 2} ${c - 58} Q${c + 14} ${c - 66} ${c + 18} ${c - 48} L${c + 26} ${c - 40} Q${c + 40} ${c - 40} ${c + 38} ${c - 20} L${c + 42} ${c + 30} Z"/></g>`;
  }
}

/** The width of bold capitals in em (DejaVu Sans Bold, rounded up). */
function emWidth(text: string): number {
  let em = 0;
  for (const ch of text) em += ch === ' ' ? 0.35 : ch === 'I' || ch === '.' || ch === "'" ? 0.4 : ch === 'M' || ch === 'W' ? 1.0 : 0.8;
  return em;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The SVG of a pin photo, 512 px, pin flat on a white or light background. */
export function pinSvg(art: PinArt): string {
  const size = 512;
  const c = size / 2;
  const r = 200;
  const [shine, edge] = METALS[art.metal];
  const [, base, accent] = art.enamel;
  const bg = art.variant === 0 ? '#ffffff' : art.variant === 1 ? '#f3efe6' : '#e8eef5';
  const rotate = art.variant === 0 ? 0 : art.variant === 1 ? -8 : 11;
  // The team name is sized to fit its 300 px banner with a margin (270 px), from the advance of
  // DejaVu Sans Bold's capitals. (textLength would squeeze it, but librsvg, which sharp renders
  // with, ignores it: long names ran past the banner.)
  const team = art.team.toUpperCase();
  const teamSize = Math.max(10, Math.min(38, Math.floor(270 / Math.max(1, emWidth(team)))));
  const teamBaseline = c + 73 + Math.round(teamSize * 0.36);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <defs>
    <linearGradient id="metal" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${shine}"/><stop offset="1" stop-color="${edge}"/></linearGradient>
    <filter id="shadow" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="4" dy="6" stdDeviation="6" flood-opacity="0.25"/></filter>
  </defs>
  <rect width="${size}" height="${size}" fill="${bg}"/>
  <g transform="rotate(${rotate} ${c} ${c})" filter="url(#shadow)">
    <g fill="url(#metal)">${shapePath(art.shape, c, r)}</g>
    <g fill="${base}">${shapePath(art.shape, c, r - 14)}</g>
    <g fill="none" stroke="url(#metal)" stroke-width="4">${shapePath(art.shape, c, r - 40)}</g>
    ${motif(art.motif, c, edge, accent)}
    <rect x="${c - 150}" y="${c + 48}" width="300" height="50" rx="10" fill="${accent}" stroke="url(#metal)" stroke-width="5"/>
    <text x="${c}" y="${teamBaseline}" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="${teamSize}" fill="${base}">${esc(team)}</text>
    <text x="${c}" y="${c - 86}" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="30" fill="${accent}" stroke="${edge}" stroke-width="1">${esc(art.line2)}</text>
  </g>
</svg>`;
}
