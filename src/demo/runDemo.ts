/**
 * `debugbridge demo`: starts this very server as an MCP client would, runs the scripted session for
 * each runtime that works here, and prints the transcript: what the agent asks, what it reads back.
 */
import { checkLanguages } from '../doctor.js';
import { McpTestClient } from './mcpClient.js';
import { dotnetScript, nodeScript, pythonScript, type DemoStep } from './scripts.js';

const SCRIPTS: Record<string, () => DemoStep[] | undefined> = {
  python: pythonScript,
  node: nodeScript,
  dotnet: dotnetScript,
};

export async function runDemo(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const wanted = argv.filter((a) => !a.startsWith('-'));
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
