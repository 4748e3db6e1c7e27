/** V8's RemoteObjects in the core's words: a short value text, a type, whether it has children. */
import type { Protocol } from 'devtools-protocol';

type RemoteObject = Protocol.Runtime.RemoteObject;
type ObjectPreview = Protocol.Runtime.ObjectPreview;

const FUNCTION_TEXT_CHARS = 80;

export function valueText(obj: RemoteObject): string {
  switch (obj.type) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return JSON.stringify(obj.value);
    case 'number':
    case 'boolean':
      return obj.unserializableValue ?? obj.description ?? String(obj.value);
    case 'bigint':
      return obj.unserializableValue ?? obj.description ?? '';
    case 'symbol':
      return obj.description ?? 'Symbol()';
    case 'function':
      return functionText(obj.description ?? 'function');
    case 'object':
      if (obj.subtype === 'null') return 'null';
      return obj.preview ? previewText(obj.preview) : (obj.description ?? obj.className ?? 'Object');
    default:
      return obj.description ?? String(obj.value);
  }
}

export function typeName(obj: RemoteObject): string {
  if (obj.type === 'object') return obj.subtype === 'null' ? 'null' : (obj.className ?? 'Object');
  return obj.type;
}

/** Objects and arrays (maps, sets, class instances…) can be opened; functions are shown closed. */
export function hasChildren(obj: RemoteObject): boolean {
  return obj.type === 'object' && obj.subtype !== 'null' && !!obj.objectId;
}

export function isArrayLike(obj: RemoteObject): boolean {
  return obj.subtype === 'array' || obj.subtype === 'typedarray';
}

/** The n in `Array(n)`, `Map(n)`, `Uint8Array(n)`. */
export function sizeOf(obj: RemoteObject): number | undefined {
  const m = /\((\d+)\)$/.exec(obj.description ?? '');
  return m ? Number(m[1]) : undefined;
}

/** A value as an argument for `callFunctionOn` / `setVariableValue`. */
export function callArgument(obj: RemoteObject): Protocol.Runtime.CallArgument {
  if (obj.objectId) return { objectId: obj.objectId };
  if (obj.unserializableValue) return { unserializableValue: obj.unserializableValue };
  return { value: obj.value };
}

/** V8's verdict on a failed evaluation: `ReferenceError: nope is not defined`. */
export function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  const exception = details.exception;
  if (exception?.type === 'object' && exception.description) return exception.description.split('\n')[0];
  if (exception) return `${details.text} ${valueText(exception)}`;
  return details.text;
}

/** The exception a program stopped on: its class and message. */
export function exceptionParts(obj: RemoteObject): { type: string; message: string; stack?: string } {
  if (obj.type !== 'object' || obj.subtype === 'null') return { type: obj.type, message: valueText(obj) };
  const type = obj.className ?? 'Error';
  const description = obj.description ?? '';
  const firstLine = description.split('\n')[0];
  const message = firstLine.startsWith(`${type}: `) ? firstLine.slice(type.length + 2) : firstLine.replace(/^\w*Error: /, '');
  return { type, message, stack: description.includes('\n') ? description : undefined };
}

function functionText(source: string): string {
  const head = source.split('\n')[0].replace(/\s*\{?\s*$/, '');
  return head.length > FUNCTION_TEXT_CHARS ? `${head.slice(0, FUNCTION_TEXT_CHARS)}…` : head;
}

function previewText(preview: ObjectPreview): string {
  const more = preview.overflow ? ', …' : '';
  if (preview.subtype === 'array' || preview.subtype === 'typedarray') {
    const items = preview.properties.filter((p) => /^\d+$/.test(p.name)).map(propertyText);
    const prefix = preview.description && !/^Array\(/.test(preview.description) ? `${preview.description} ` : '';
    return `${prefix}[${items.join(', ')}${more}]`;
  }
  if (preview.subtype === 'map' || preview.subtype === 'set') {
    const entries = (preview.entries ?? []).map((e) => (e.key ? `${previewLeaf(e.key)} => ${previewLeaf(e.value)}` : previewLeaf(e.value)));
    return `${preview.description ?? ''} {${entries.join(', ')}${more}}`;
  }
  if (preview.subtype === 'error' || preview.subtype === 'date' || preview.subtype === 'regexp') return preview.description ?? '';
  const props = preview.properties.map((p) => `${p.name}: ${propertyText(p)}`);
  const prefix = preview.description && preview.description !== 'Object' ? `${preview.description} ` : '';
  return `${prefix}{${props.join(', ')}${more}}`;
}

function propertyText(p: Protocol.Runtime.PropertyPreview): string {
  if (p.valuePreview) return previewText(p.valuePreview);
  if (p.type === 'string') return JSON.stringify(p.value ?? '');
  if (p.type === 'function') return 'ƒ';
  if (p.type === 'accessor') return '[Getter]';
  // V8 previews one level deep: a nested plain object is just "Object".
  if (p.type === 'object' && !p.subtype && p.value === 'Object') return '{…}';
  return p.value ?? p.type;
}

function previewLeaf(preview: ObjectPreview): string {
  if (preview.type === 'string') return JSON.stringify(preview.description ?? '');
  if (preview.type === 'object' && preview.subtype !== 'null') return previewText(preview);
  return preview.description ?? preview.type;
}
