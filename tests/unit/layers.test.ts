/**
 * The layers are enforced by lint: a planted import across a layer is an error, the same import
 * where it belongs is not. Runs ESLint itself with the project's configuration.
 */
import { describe, expect, it } from 'vitest';

// ESLint 8 ships no types of its own: the little of its API used here
interface LintMessage {
  ruleId: string | null;
  message: string;
}
interface Linter {
  lintText(code: string, options: { filePath: string }): Promise<{ messages: LintMessage[] }[]>;
}
const { ESLint } = (await import('eslint' as string)) as { ESLint: new () => Linter };
const eslint = new ESLint();

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it('a route may not import the database', async () => {
    const messages = await restricted('app/routes/planted.ts', "import { db } from '~/db/index.server';\nexport const x = db;\n");
    expect(messages.join()).toContain('Routes do not touch the database');
    expect(await restricted('app/root.tsx', "import { users } from '~/db/schema';\nexport const x = users;\n")).toHaveLength(1);
  });

  it('a component may import no service, database or server module, not even a type', async () => {
    expect((await restricted('app/components/planted.tsx', "import { listPins } from '~/services/pins.server';\nexport const x = listPins;\n")).join()).toContain(
      'Components import no service',
    );
    expect(await restricted('app/components/planted.tsx', "import type { PinDto } from '~/services/pin-dto.server';\nexport type X = PinDto;\n")).toHaveLength(1);
    expect(await restricted('app/components/planted.tsx', "import { Forbidden } from '../services/errors';\nexport const x = Forbidden;\n")).toHaveLength(1);
    expect(await restricted('app/components/planted.tsx', "import type { PinDto } from '~/types/pins';\nexport type X = PinDto;\n")).toHaveLength(0);
  });

  it('a service may import nothing about HTTP', async () => {
    expect((await restricted('app/services/planted.server.ts', "import { json } from '@remix-run/node';\nexport const x = json;\n")).join()).toContain(
      'Services import nothing about HTTP',
    );
    expect(await restricted('app/services/planted.server.ts', "import { readBody } from '~/http/body.server';\nexport const x = readBody;\n")).toHaveLength(1);
    expect(await restricted('app/services/planted.server.ts', "import { db } from '~/db/index.server';\nexport const x = db;\n")).toHaveLength(0);
  });
});
