/**
 * The tool list a model reads before its first call stays lean: names, descriptions and input
 * schemas together, as compact JSON, at most 14 KB (the breakpoints a launch takes are
 * named by their fields and referred to breakpoint_set); and the compaction keeps every argument.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compactSchema, referBreakpointFields } from '../../src/server/toolListing.js';

const TOOL_LIST_CHARS = 14_000;
const catalog = JSON.parse(readFileSync(new URL('../../dist/server/toolCatalog.json', import.meta.url), 'utf8')) as {
  tools: { name: string; description: string; inputSchema: { properties?: Record<string, unknown> } }[];
};

describe('tools/list', () => {
  it(`names, descriptions and input schemas fit ${TOOL_LIST_CHARS} characters of compact JSON`, () => {
    const size = catalog.tools.map(({ name, description, inputSchema }) => JSON.stringify({ name, description, inputSchema }).length).reduce((a, b) => a + b, 0);
    expect(catalog.tools.length).toBeGreaterThanOrEqual(32);
    expect(size).toBeLessThanOrEqual(TOOL_LIST_CHARS);
  });

  it('has the answers tools with their arguments', () => {
    const tool = (name: string) => catalog.tools.find((t) => t.name === name);
    expect(Object.keys(tool('watch_add')!.inputSchema.properties!)).toContain('expressions');
    expect(Object.keys(tool('breakpoint_set')!.inputSchema.properties!)).toEqual(expect.arrayContaining(['trace', 'maxHits']));
    expect(Object.keys(tool('inspect_evaluate')!.inputSchema.properties!)).toEqual(expect.arrayContaining(['expression', 'expressions', 'maxChars']));
    expect(tool('breakpoint_trace')).toBeDefined();
  });
});

describe('compactSchema', () => {
  it('drops "no other keys" (the instructions say it once), examples (for --help) and upper bounds of lists; never an argument of those names', () => {
    const schema = {
      type: 'object',
      properties: {
        trace: { type: 'array', maxItems: 10, items: { type: 'string' } },
        breakpoint: { type: 'object', properties: { line: { type: 'integer' } }, additionalProperties: false, examples: [{ line: 1 }] },
        examples: { type: 'string' },
        maximum: { type: 'integer', maximum: 5 },
      },
      additionalProperties: false,
    };
    expect(compactSchema(schema)).toEqual({
      type: 'object',
      properties: {
        trace: { type: 'array', items: { type: 'string' } },
        breakpoint: { type: 'object', properties: { line: { type: 'integer' } } },
        examples: { type: 'string' },
        maximum: { type: 'integer' },
      },
    });
  });

  it('drops the dialect, upper and obvious lower bounds, and keeps the rest', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        line: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        port: { type: 'integer', minimum: 1024, maximum: 65535 },
        env: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } },
        options: { type: 'object', additionalProperties: {} },
        name: { type: 'string', minLength: 1, description: 'kept' },
      },
      required: ['line'],
    };
    expect(compactSchema(schema)).toEqual({
      type: 'object',
      properties: {
        line: { type: 'integer' },
        port: { type: 'integer', minimum: 1024 },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        options: { type: 'object' },
        name: { type: 'string', description: 'kept' },
      },
      required: ['line'],
    });
  });
});

describe('referBreakpointFields', () => {
  const withBreakpoints = {
    type: 'object',
    properties: {
      program: { type: 'string' },
      breakpoints: { type: 'array', items: { type: 'object', properties: { file: { type: 'string' }, line: { type: 'integer' }, condition: { type: 'string' } }, required: ['file', 'line'] } },
    },
  };

  it('lists the breakpoints of a launch by their first fields, pointing at breakpoint_set', () => {
    const referred = referBreakpointFields('session_launch', withBreakpoints) as typeof withBreakpoints;
    expect(referred.properties.program).toEqual({ type: 'string' });
    expect(referred.properties.breakpoints).toEqual({ type: 'array', items: { type: 'object', description: "{file, line, …}: breakpoint_set's fields." } });
  });

  it('keeps breakpoint_set\'s own schema whole, and schemas without breakpoints as they are', () => {
    expect(referBreakpointFields('breakpoint_set', withBreakpoints)).toBe(withBreakpoints);
    const plain = { type: 'object', properties: { sessionId: { type: 'string' } } };
    expect(referBreakpointFields('session_stop', plain)).toBe(plain);
  });
});
