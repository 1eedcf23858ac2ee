/**
 * Optional AI vision analysis through any OpenAI-compatible endpoint (OpenAI, or a local server
 * such as Ollama). Switched on by AI_BASE_URL + AI_API_KEY + AI_MODEL; AI_TIMEOUT_MS bounds the
 * wait (default 8000). The visual index does the identifying; the model describes the pin and
 * reads its text (team, year, tournament), which helps choose among near-identical family pins.
 */
import OpenAI from 'openai';
import sharp from 'sharp';

export interface AiAnalysis {
  name: string;
  description: string;
  features: string[];
  /** every piece of text the model read on the pin */
  text: string[];
  team: string | null;
  year: number | null;
  tournament: string | null;
  /** 0-100 */
  confidence: number;
}

export interface AiConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export class AiUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AiUnavailable';
  }
}

/** The configuration from the environment, or null when AI analysis is off. */
export function aiConfig(env: NodeJS.ProcessEnv = process.env): AiConfig | null {
  const baseURL = env.AI_BASE_URL?.trim();
  const apiKey = env.AI_API_KEY?.trim();
  const model = env.AI_MODEL?.trim();
  if (!baseURL || !apiKey || !model) return null;
  const timeout = Number(env.AI_TIMEOUT_MS);
  return { baseURL, apiKey, model, timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 8000 };
}

const PROMPT = `You are an expert on baseball and softball trading pins. Look at the photo and answer with ONE JSON object only, no prose:
{"name": short name of the pin (team, age group, event, year as printed),
 "description": one or two sentences describing shape, colours, metal, artwork,
 "features": list of short notable features (shape, enamel, danglers, spinners, glitter, colours),
 "text": list of every piece of text you can read on the pin, exactly as printed,
 "team": team name or null, "year": four-digit year as a number or null, "tournament": tournament or event name or null,
 "confidence": 0-100, how sure you are this is a trading pin and your reading is right}`;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 500) : null);
const strList = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'string' || typeof x === 'number' ? String(x).trim() : '')).filter(Boolean).slice(0, 30) : [];

/** Lenient parse of the model's answer (some servers wrap JSON in prose or code fences). */
export function parseAiAnswer(content: string): AiAnalysis {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start < 0 || end <= start) throw new AiUnavailable('The AI answer was not JSON');
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(content.slice(start, end + 1)) as Record<string, unknown>;
  } catch (error) {
    throw new AiUnavailable('The AI answer was not JSON', { cause: error });
  }
  const yearRaw = typeof raw.year === 'number' ? raw.year : typeof raw.year === 'string' ? Number(/\d{4}/.exec(raw.year)?.[0]) : NaN;
  const conf = typeof raw.confidence === 'number' ? raw.confidence : Number(raw.confidence);
  return {
    name: str(raw.name) ?? 'Unknown pin',
    description: str(raw.description) ?? '',
    features: strList(raw.features),
    text: strList(raw.text),
    team: str(raw.team),
    year: Number.isInteger(yearRaw) && yearRaw >= 1900 && yearRaw <= 2100 ? yearRaw : null,
    tournament: str(raw.tournament),
    // some models answer 0-1
    confidence: Number.isFinite(conf) ? Math.round(Math.max(0, Math.min(100, conf <= 1 && conf > 0 ? conf * 100 : conf))) : 0,
  };
}

/** Asks the configured model about the photo. Throws AiUnavailable on any failure or timeout. */
export async function analyzeWithAi(photo: Buffer, config: AiConfig): Promise<AiAnalysis> {
  try {
    // a smaller picture is enough to read a pin and keeps the request fast
    const small = await sharp(photo).rotate().resize(1024, 1024, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer();
    const client = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, timeout: config.timeoutMs, maxRetries: 0 });
    const completion = await client.chat.completions.create(
      {
        model: config.model,
        temperature: 0,
        max_tokens: 600,
        response_format: { type: 'json_object' },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: PROMPT },
              { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${small.toString('base64')}` } },
            ],
          },
        ],
      },
      { timeout: config.timeoutMs, signal: AbortSignal.timeout(config.timeoutMs) },
    );
    const content = completion.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || !content.trim()) throw new AiUnavailable('The AI answer was empty');
    return parseAiAnswer(content);
  } catch (error) {
    if (error instanceof AiUnavailable) throw error;
    throw new AiUnavailable(error instanceof Error ? error.message : 'AI request failed', { cause: error });
  }
}

// ---------------------------------------------------------------- choosing among family members

const tokens = (s: string): string[] =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length >= 2);

export interface TextCandidate {
  pinId: string;
  name: string;
  description: string | null;
  year: number | null;
  event: string | null;
}

/**
 * Picks the candidate whose distinguishing words (those not shared by every candidate: the team
 * name, the year, the colour) the model read on the pin. Returns null unless one candidate clearly
 * wins, so an unsure reading never turns into a wrong answer.
 */
export function pickCandidateByText(ai: Pick<AiAnalysis, 'name' | 'text' | 'team' | 'year' | 'tournament' | 'description'>, candidates: TextCandidate[]): string | null {
  if (candidates.length < 2) return null;
  const read = new Set(tokens([ai.name, ai.team ?? '', ai.tournament ?? '', ai.year ? String(ai.year) : '', ...ai.text].join(' ')));
  if (read.size === 0) return null;
  const words = candidates.map((c) => new Set(tokens(`${c.name} ${c.year ?? ''} ${c.event ?? ''} ${c.description ?? ''}`)));
  const shared = new Set([...words[0]].filter((w) => words.every((set) => set.has(w))));
  const scores = words.map((set) => {
    let hits = 0;
    let misses = 0;
    for (const w of set) {
      if (shared.has(w)) continue;
      if (read.has(w)) hits++;
      else if (/^\d{4}$/.test(w) && ai.year) misses++; // a year read that is not this pin's
    }
    return hits - misses;
  });
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s);
  if (order[0].s <= 0 || order[0].s === order[1].s) return null;
  return candidates[order[0].i].pinId;
}
