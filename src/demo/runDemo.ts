/**
 * `debugbridge demo`: starts this very server as an MCP client would, runs the scripted session for
 * each runtime that works here, and prints the transcript: what the agent asks, what it reads back.
 */
import { BUILT_IN_LANGUAGES } from '../core/engineRegistry.js';
import { checkLanguages } from '../doctor.js';
import { McpTestClient } from './mcpClient.js';
import { dotnetScript, nodeScript, pythonScript, type DemoStep } from './scripts.js';

const SCRIPTS: Record<string, () => DemoStep[] | undefined> = {
  python: pythonScript,
  node: nodeScript,
  dotnet: dotnetScript,
};

export const DEMO_USAGE = `Usage: debugbridge demo [${BUILT_IN_LANGUAGES.join('|')}]…
Runs a scripted debugging session on the bundled samples through the real MCP client, for each
language named (default: every language that works here), and prints what the agent asks and reads.
`;

export async function runDemo(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  if (argv.some((a) => a === '--help' || a === '-h')) {
    out.write(DEMO_USAGE);
    return 0;
  }
  const wanted = argv.filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !(BUILT_IN_LANGUAGES as readonly string[]).includes(w));
  if (unknown.length) {
    err.write(`debugbridge demo: unknown language ${unknown.map((u) => `"${u}"`).join(', ')}; choose ${BUILT_IN_LANGUAGES.join(', ')} (or none for all).\n\n${DEMO_USAGE}`);
    return 2;
  }
  const rows = await checkLanguages();
  const client = await McpTestClient.start({ stderr: 'inherit' });
  let failures = 0;
  try {
    for (const { language, availability } of rows) {
      if (wanted.length && !wanted.includes(language)) continue;
      const script = SCRIPTS[language]?.();
      out.write(`\n══ ${language} ${'═'.repeat(60 - language.length)}\n`);
      if (!availability.available) {
        out.write(`skipped: ${availability.reason}${availability.install ? `\nfix: ${availability.install}` : ''}\n`);
        continue;
      }
      if (!script) {
        out.write('no demo script for this language yet\n');
        continue;
      }
      for (const step of script) {
        if (step.note) out.write(`\n# ${step.note}\n`);
        out.write(`> ${step.tool} ${JSON.stringify(step.args)}\n`);
        const t0 = performance.now();
        const r = await client.call(step.tool, step.args);
        const ms = Math.round(performance.now() - t0);
        out.write(`${r.text.split('\n').map((l) => `  ${l}`).join('\n')}\n  (${ms} ms${r.isError ? ', error' : ''})\n`);
        if (r.isError) {
          failures++;
          break;
        }
      }
    }
  } finally {
    await client.close();
  }
  out.write(failures ? `\n${failures} demo script(s) failed.\n` : '\nDemo finished.\n');
  return failures ? 1 : 0;
}
