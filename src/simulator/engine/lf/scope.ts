/**
 * Compile-time scopes: closure conversion. Each function body has registers (arguments first, then let / case
 * binders, reused once a binder goes out of scope) and a frame of captured values; a variable of an enclosing function
 * becomes a capture, read from the enclosing scope when the closure is built.
 */
import { EngineError } from './errors.js';
import type { Node } from './machine.js';
import { SFree, SLocal } from './nodes.js';

export class FnScope {
  /** Binder names by register (a stack: the last binding of a name shadows earlier ones). */
  private readonly names: string[];
  maxSlots: number;
  private readonly free = new Map<string, number>();
  readonly captures: Node[] = [];

  constructor(
    private readonly parent: FnScope | undefined,
    params: string[],
  ) {
    this.names = [...params];
    this.maxSlots = params.length;
  }

  lookup(name: string): Node {
    for (let i = this.names.length - 1; i >= 0; i--) if (this.names[i] === name) return new SLocal(i);
    const f = this.free.get(name);
    if (f !== undefined) return new SFree(f);
    if (!this.parent) throw new EngineError('Internal', `unbound variable ${name}`);
    const outer = this.parent.lookup(name);
    const idx = this.captures.length;
    this.captures.push(outer);
    this.free.set(name, idx);
    return new SFree(idx);
  }

  /** Binds `name` to a fresh register. */
  push(name: string): number {
    const slot = this.names.length;
    this.names.push(name);
    if (this.names.length > this.maxSlots) this.maxSlots = this.names.length;
    return slot;
  }

  pop(n: number): void {
    this.names.length -= n;
  }
}
