/**
 * The partial transaction built while commands run: a tree of create / exercise / fetch nodes, the contracts created
 * and consumed so far, the input contracts, and the authorization context (the authorizers of the current choice
 * body). A try-catch takes a checkpoint; a handled exception rolls back to it (the nodes created since are dropped, as
 * the Ledger API does not show rolled-back nodes, and the contract states are restored through an undo log).
 */
import type { QualifiedName } from '../../../../daml-lf/ast/ast.js';
import type { Json } from '../convert.js';
import type { VRecord } from '../value.js';

export interface ContractInfo {
  cid: string;
  /** The template whose package types `arg` (for stored contracts: the version the code asked for). */
  templateId: QualifiedName;
  packageName: string;
  arg: VRecord;
  signatories: string[];
  observers: string[];
  key?: { json: Json; maintainers: string[]; hash: string };
  /** Interfaces (package-id qualified) the template implements. */
  implementedInterfaces: string[];
}

export interface CreateNode {
  kind: 'create';
  c: ContractInfo;
  argJson: Json;
}

export interface ExerciseNode {
  kind: 'exercise';
  c: ContractInfo;
  /** The template the choice was exercised on (package of the code that ran). */
  templateId: QualifiedName;
  iface?: QualifiedName;
  choice: string;
  consuming: boolean;
  actors: string[];
  choiceObservers: string[];
  argJson: Json;
  result: Json;
  children: PNode[];
}

export interface FetchNode {
  kind: 'fetch';
  c: ContractInfo;
  iface?: QualifiedName;
}

export type PNode = CreateNode | ExerciseNode | FetchNode;

interface Frame {
  children: PNode[];
  authorizers: ReadonlySet<string>;
  node?: ExerciseNode;
}

export interface Checkpoint {
  undo: number;
  depth: number;
  children: number;
}

export class Ptx {
  readonly roots: PNode[] = [];
  private readonly frames: Frame[];
  /** Contracts created by this transaction (active or consumed). */
  readonly local = new Map<string, ContractInfo>();
  readonly consumed = new Set<string>();
  /** Contracts created before this transaction that it used, by id. */
  readonly inputs = new Map<string, ContractInfo>();
  /** Contracts created before this transaction that it consumed. */
  readonly archivedInputs: string[] = [];
  /** Keys of contracts created by this transaction (hash → contract id, or null once archived). */
  readonly keys = new Map<string, string | null>();
  private readonly undo: (() => void)[] = [];
  private created = 0;

  constructor(actAs: readonly string[]) {
    this.frames = [{ children: this.roots, authorizers: new Set(actAs) }];
  }

  private get top(): Frame {
    return this.frames[this.frames.length - 1] as Frame;
  }

  get authorizers(): ReadonlySet<string> {
    return this.top.authorizers;
  }

  /** A fresh index for a contract id. */
  nextContractIndex(): number {
    return this.created++;
  }

  addCreate(c: ContractInfo, argJson: Json): void {
    this.top.children.push({ kind: 'create', c, argJson });
    this.local.set(c.cid, c);
    const key = c.key;
    if (key) {
      const prev = this.keys.get(key.hash);
      this.keys.set(key.hash, c.cid);
      this.undo.push(() => (prev === undefined ? this.keys.delete(key.hash) : this.keys.set(key.hash, prev)));
    }
    this.undo.push(() => this.local.delete(c.cid));
  }

  addFetch(c: ContractInfo, iface?: QualifiedName): void {
    this.top.children.push(iface ? { kind: 'fetch', c, iface } : { kind: 'fetch', c });
  }

  useInput(c: ContractInfo): void {
    if (this.local.has(c.cid) || this.inputs.has(c.cid)) return;
    this.inputs.set(c.cid, c);
    this.undo.push(() => this.inputs.delete(c.cid));
  }

  /** Starts an exercise; its body runs with `authorizers`. A consuming choice archives the contract now. */
  beginExercise(node: ExerciseNode, authorizers: ReadonlySet<string>): void {
    this.top.children.push(node);
    this.frames.push({ children: node.children, authorizers, node });
    if (node.consuming) {
      const cid = node.c.cid;
      this.consumed.add(cid);
      const key = node.c.key;
      const wasInput = !this.local.has(cid);
      if (wasInput) this.archivedInputs.push(cid);
      const prevKey = key ? this.keys.get(key.hash) : undefined;
      if (key) this.keys.set(key.hash, null);
      this.undo.push(() => {
        this.consumed.delete(cid);
        if (wasInput) this.archivedInputs.pop();
        if (key) {
          if (prevKey === undefined) this.keys.delete(key.hash);
          else this.keys.set(key.hash, prevKey);
        }
      });
    }
  }

  endExercise(result: Json): void {
    const f = this.frames.pop();
    if (f?.node) f.node.result = result;
  }

  checkpoint(): Checkpoint {
    return { undo: this.undo.length, depth: this.frames.length, children: this.top.children.length };
  }

  rollback(cp: unknown): void {
    const p = cp as Checkpoint;
    this.frames.length = p.depth;
    this.top.children.length = p.children;
    while (this.undo.length > p.undo) (this.undo.pop() as () => void)();
  }
}
