/**
 * Function breakpoint names, told the way people say them: `handleOrder`, `Cart.total`,
 * `Cart.prototype.total`, `exports.handleOrder`.
 */

/** Where a function's first statement starts (0-based, as V8 counts), and the names it goes by. */
export interface FunctionSite {
  names: string[];
  line: number;
  column: number;
}

/** Whether a site answers to a name: `.prototype` is optional, and a bare name also finds methods of that name. */
export function answersTo(site: FunctionSite, query: string): boolean {
  const wanted = normalize(query);
  return site.names.some((name) => {
    const n = normalize(name);
    return n === wanted || (!wanted.includes('.') && n.endsWith(`.${wanted}`));
  });
}

/** The last part of a name: what must appear in a script's text for it to define the function. */
export function shortName(query: string): string {
  return query.split('.').pop() ?? query;
}

function normalize(name: string): string {
  return name.trim().replace(/\.prototype\./g, '.').replace(/^(?:module\.)?exports\./, '');
}
