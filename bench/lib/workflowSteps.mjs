// The debugging workflow the language benchmarks time, step by step, with the labels of their tables.
export const WORKFLOW_STEPS = [
  ['launch', 'launch + bp → first stop'],
  ['stack', 'stack'],
  ['locals', 'locals (top frame)'],
  ['evaluate', 'evaluate'],
  ['stepOver', 'step over'],
  ['stepInto', 'step into'],
  ['continue', 'continue → next hit'],
  ['stop', 'stop'],
];
