/**
 * An ECMA-335 metadata root (II.24.2) with its heaps and its `#~` table stream. Used for both the
 * assembly's own metadata and a Portable PDB, whose `#Pdb` stream supplies the row counts of the
 * type-system tables that PDB columns index into.
 */
import { BlobReader, guidText } from './blobReader.js';
import { TABLE_COLUMNS, Table, type ColumnType, type TableColumns } from './tableSchema.js';

const METADATA_SIGNATURE = 0x424a5342;

export type Row = Record<string, number>;

interface Column {
  name: string;
  offset: number;
  size: number;
  type: ColumnType;
}

interface TableLayout {
  rows: number;
  rowSize: number;
  offset: number;
  columns: Column[];
  byName: Map<string, Column>;
  /** The header's sorted bit: rows in order of the table's key column (II.22). */
  sorted: boolean;
}

export class MetadataTables {
  readonly streams = new Map<string, Buffer>();
  private readonly layouts = new Map<number, TableLayout>();
  private readonly stringCache = new Map<number, string>();
  /** Tables not marked sorted: their rows by key value, built on first search. */
  private readonly indexes = new Map<string, Map<number, number[]>>();
  /** The 20-byte id of a Portable PDB (its `#Pdb` stream), else undefined. */
  readonly pdbId?: Buffer;
  readonly pdbEntryPoint: number = 0;

  constructor(root: Buffer) {
    const r = new BlobReader(root);
    if (r.u32() !== METADATA_SIGNATURE) throw new Error('not an ECMA-335 metadata root');
    r.pos += 8; // major, minor, reserved
    const versionLength = r.u32();
    r.pos += versionLength;
    r.pos += 2; // flags
    const streamCount = r.u16();
    for (let i = 0; i < streamCount; i++) {
      const offset = r.u32();
      const size = r.u32();
      const nameStart = r.pos;
      while (root[r.pos] !== 0) r.pos++;
      const name = root.toString('latin1', nameStart, r.pos);
      r.pos = nameStart + ((r.pos - nameStart + 4) & ~3);
      this.streams.set(name, root.subarray(offset, offset + size));
    }

    const externalRows = new Map<number, number>();
    const pdb = this.streams.get('#Pdb');
    if (pdb) {
      const p = new BlobReader(pdb);
      this.pdbId = Buffer.from(p.bytesOf(20));
      this.pdbEntryPoint = p.u32();
      const low = p.u32();
      const high = p.u32();
      for (let table = 0; table < 64; table++) {
        if (bit(low, high, table)) externalRows.set(table, p.u32());
      }
    }
    const tables = this.streams.get('#~') ?? this.streams.get('#-');
    if (!tables) throw new Error('metadata without a table stream');
    this.readLayouts(tables, externalRows);
  }

  rowCount(table: Table): number {
    return this.layouts.get(table)?.rows ?? 0;
  }

  /** One row (1-based id) with every column: heap offsets and row ids as numbers. */
  row(table: Table, rid: number): Row {
    const layout = this.layouts.get(table);
    if (!layout || rid < 1 || rid > layout.rows) throw new Error(`no row ${rid} in table 0x${table.toString(16)}`);
    const tables = this.streams.get('#~') ?? this.streams.get('#-')!;
    const base = layout.offset + (rid - 1) * layout.rowSize;
    const out: Row = {};
    for (const column of layout.columns) {
      const at = base + column.offset;
      out[column.name] = column.size === 2 ? tables.readUInt16LE(at) : column.size === 4 ? tables.readUInt32LE(at) : tables[at]!;
    }
    return out;
  }

  /** One column of one row, read alone (no row object): for scans and searches over big tables. */
  cell(table: Table, rid: number, column: string): number {
    const layout = this.layouts.get(table);
    const col = layout?.byName.get(column);
    if (!layout || !col || rid < 1 || rid > layout.rows) throw new Error(`no ${column} of row ${rid} in table 0x${table.toString(16)}`);
    const tables = this.streams.get('#~') ?? this.streams.get('#-')!;
    const at = layout.offset + (rid - 1) * layout.rowSize + col.offset;
    return col.size === 2 ? tables.readUInt16LE(at) : col.size === 4 ? tables.readUInt32LE(at) : tables[at]!;
  }

  /**
   * The rows whose key `column` holds `value`, found by binary search when the table is marked
   * sorted (as compilers emit CustomAttribute, Constant, MethodSemantics, InterfaceImpl …), else
   * through an index built once. The framework's own assembly has tens of thousands of rows in some.
   * Read-only: the index's own lists are returned, and a caller that changed one (a `.pop()`) would
   * change every later answer for that key.
   */
  rowsWhere(table: Table, column: string, value: number): readonly number[] {
    const count = this.rowCount(table);
    if (!this.layouts.get(table)?.sorted) {
      const key = `${table}:${column}`;
      let index = this.indexes.get(key);
      if (!index) {
        index = new Map();
        for (let rid = 1; rid <= count; rid++) {
          const at = this.cell(table, rid, column);
          const rows = index.get(at);
          if (rows) rows.push(rid);
          else index.set(at, [rid]);
        }
        this.indexes.set(key, index);
      }
      return index.get(value) ?? [];
    }
    const out: number[] = [];
    let low = 1;
    let high = count + 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.cell(table, mid, column) < value) low = mid + 1;
      else high = mid;
    }
    for (let rid = low; rid <= count && this.cell(table, rid, column) === value; rid++) out.push(rid);
    return out;
  }

  string(offset: number): string {
    let text = this.stringCache.get(offset);
    if (text === undefined) {
      const heap = this.streams.get('#Strings');
      if (!heap) return '';
      const end = heap.indexOf(0, offset);
      text = heap.toString('utf8', offset, end < 0 ? heap.length : end);
      this.stringCache.set(offset, text);
    }
    return text;
  }

  blob(offset: number): Buffer {
    const heap = this.streams.get('#Blob');
    if (!heap || offset === 0) return Buffer.alloc(0);
    const r = new BlobReader(heap, offset);
    const length = r.compressedUnsigned();
    return heap.subarray(r.pos, r.pos + length);
  }

  guid(index: number): string {
    const heap = this.streams.get('#GUID');
    if (!heap || index === 0) return '';
    return guidText(heap.subarray((index - 1) * 16, index * 16));
  }

  /** A user string (#US heap), as `ldstr` tokens reference them. */
  userString(offset: number): string {
    const heap = this.streams.get('#US');
    if (!heap) return '';
    const r = new BlobReader(heap, offset);
    const length = r.compressedUnsigned();
    return heap.toString('utf16le', r.pos, r.pos + (length & ~1));
  }

  /**
   * The rows [first, last] that a "list" column of `rid` owns: it runs up to the next row's list
   * start (II.22: e.g. TypeDef.methodList), or to the end of the target table.
   */
  listRange(table: Table, rid: number, column: string, target: Table): { first: number; last: number } {
    const first = this.row(table, rid)[column]!;
    const next = rid < this.rowCount(table) ? this.row(table, rid + 1)[column]! : this.rowCount(target) + 1;
    return { first, last: Math.min(next, this.rowCount(target) + 1) - 1 };
  }

  private readLayouts(stream: Buffer, externalRows: Map<number, number>): void {
    const r = new BlobReader(stream);
    r.pos += 6; // reserved, major, minor
    const heapSizes = r.u8();
    r.pos += 1;
    const validLow = r.u32();
    const validHigh = r.u32();
    const sortedLow = r.u32();
    const sortedHigh = r.u32();
    const rows = new Map<number, number>(externalRows);
    const present: number[] = [];
    for (let table = 0; table < 64; table++) {
      if (bit(validLow, validHigh, table)) {
        present.push(table);
        rows.set(table, r.u32());
      }
    }
    if (heapSizes & 0x40) r.pos += 4; // extra data
    const sizes = {
      string: heapSizes & 0x01 ? 4 : 2,
      guid: heapSizes & 0x02 ? 4 : 2,
      blob: heapSizes & 0x04 ? 4 : 2,
    };
    const sizeOf = (type: ColumnType): number => {
      if (typeof type === 'number') return type;
      if (typeof type === 'string') return sizes[type];
      if ('table' in type) return (rows.get(type.table) ?? 0) < 0x10000 ? 2 : 4;
      const max = Math.max(0, ...type.coded.tables.map((tbl) => (tbl < 0 ? 0 : (rows.get(tbl) ?? 0))));
      return max < 1 << (16 - type.coded.tagBits) ? 2 : 4;
    };
    let offset = r.pos;
    for (const table of present) {
      const schema: TableColumns | undefined = TABLE_COLUMNS[table as Table];
      if (!schema) throw new Error(`unknown metadata table 0x${table.toString(16)}`);
      let rowSize = 0;
      const columns = Object.entries(schema).map(([name, type]) => {
        const size = sizeOf(type);
        const column = { name, offset: rowSize, size, type };
        rowSize += size;
        return column;
      });
      const count = rows.get(table)!;
      const byName = new Map(columns.map((c) => [c.name, c]));
      this.layouts.set(table, { rows: count, rowSize, offset, columns, byName, sorted: bit(sortedLow, sortedHigh, table) });
      offset += rowSize * count;
    }
  }
}

function bit(low: number, high: number, index: number): boolean {
  return index < 32 ? ((low >>> index) & 1) === 1 : ((high >>> (index - 32)) & 1) === 1;
}

/** A coded index of a table's row (the inverse of decodeCoded); -1 when the coding has no such table. */
export function encodeCoded(table: number, rid: number, coded: { tagBits: number; tables: number[] }): number {
  const tag = coded.tables.indexOf(table);
  return tag < 0 ? -1 : ((rid << coded.tagBits) | tag) >>> 0;
}

/** Splits a coded index into its table and row id. */
export function decodeCoded(value: number, coded: { tagBits: number; tables: number[] }): { table: number; rid: number } {
  const tag = value & ((1 << coded.tagBits) - 1);
  return { table: coded.tables[tag] ?? -1, rid: value >>> coded.tagBits };
}

export { Table };
