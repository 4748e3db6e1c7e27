/**
 * A program named the way Python's command line names a module to run, `-m package.module`: a
 * package with relative imports runs only that way (as its file it has no package).
 */
const MODULE_PROGRAM = /^-m\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$/;

/** The module's dotted name, or undefined for a program that is a path. */
export function moduleOfProgram(program: string): string | undefined {
  return MODULE_PROGRAM.exec(program.trim())?.[1];
}
