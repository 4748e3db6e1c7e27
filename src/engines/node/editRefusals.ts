/** What V8's LiveEdit statuses mean for the agent: the reason in V8's terms, and what to do instead. */
import type { Protocol } from 'devtools-protocol';

export interface Refusal {
  reason: string;
  nextStep: string;
}

type Status = Protocol.Debugger.SetScriptSourceResponse['status'];

/**
 * `running`: the changed functions on the paused stack, by name; `mapped`: the script is compiled
 * from the edited file (a compile error's place is then in the JavaScript it compiles to).
 */
export function refusalOf(answer: Protocol.Debugger.SetScriptSourceResponse, running: string[], mapped: boolean): Refusal {
  const status: Status = answer.status;
  const on = running.length ? `: ${running.join(', ')} ${running.length === 1 ? 'is' : 'are'} on the stack` : '';
  switch (status) {
    case 'CompileError': {
      const d = answer.exceptionDetails;
      const where = d ? ` (${mapped ? 'compiled JavaScript, ' : ''}line ${d.lineNumber + 1}, column ${d.columnNumber + 1})` : '';
      return { reason: `${(d?.exception?.description ?? d?.text ?? 'SyntaxError').replace(/^Uncaught /, '').split('\n')[0]}${where}`, nextStep: 'fix the file and call session_apply_changes again' };
    }
    case 'BlockedByActiveFunction':
      return {
        reason: `V8 refused (BlockedByActiveFunction): the edit changes a function that is running${on}; V8 replaces a running function only when it is the paused top frame and not async`,
        nextStep: 'let it return (execution_step out, or continue to a stop outside it), then call session_apply_changes again',
      };
    case 'BlockedByActiveGenerator':
      return {
        reason: 'V8 refused (BlockedByActiveGenerator): the edit changes an async function or generator that has a call suspended at an await or yield',
        nextStep: 'call session_apply_changes again once that call has finished (e.g. between two requests)',
      };
    case 'BlockedByTopLevelEsModuleChange':
      return {
        reason: "V8 refused (BlockedByTopLevelEsModuleChange): the edit changes an ES module's top-level code, which V8 does not replace",
        nextStep: 'keep the edit inside functions, or session_restart to run the module again',
      };
    default:
      return { reason: `V8 refused (${String(status)})`, nextStep: 'session_restart runs the program with the edited file' };
  }
}
