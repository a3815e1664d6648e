import { HornetQDestination } from '../jms/destination';
import { normalizeName, normalizePrefix, parentContexts } from './names';
import { NameAlreadyBoundException, NameNotFoundException, NamingException } from './naming-exceptions';

export interface NameClassPair {
  name: string;
  /** e.g. 'HornetQConnectionFactory', 'HornetQQueue', 'HornetQTopic' */
  className: string;
}

/**
 * Names to objects. Intermediate contexts are implicit: 'queue/a' makes 'queue' a context, so
 * nothing can be bound at 'queue' itself while it holds names, nor under a name that holds an object.
 */
export class BindingRegistry {
  private readonly bindings = new Map<string, unknown>();

  lookup(name: string): unknown {
    const key = normalizeName(name);
    if (!this.bindings.has(key)) {
      const context = this.isContext(key)
        ? ` (it is a context holding ${this.namesUnder(key).join(', ')})`
        : '';
      throw new NameNotFoundException(`${name} not bound${context}`);
    }
    return this.bindings.get(key);
  }

  has(name: string): boolean {
    return this.bindings.has(normalizeName(name));
  }

  bind(name: string, object: unknown): void {
    const key = normalizeName(name);
    if (this.bindings.has(key)) throw new NameAlreadyBoundException(`${name} is already bound`);
    this.checkBindable(name, key, object);
    this.bindings.set(key, object);
  }

  rebind(name: string, object: unknown): void {
    const key = normalizeName(name);
    this.checkBindable(name, key, object);
    this.bindings.set(key, object);
  }

  unbind(name: string): void {
    const key = normalizeName(name);
    if (!this.bindings.delete(key)) throw new NameNotFoundException(`${name} not bound`);
  }

  rename(oldName: string, newName: string): void {
    const from = normalizeName(oldName);
    const to = normalizeName(newName);
    if (!this.bindings.has(from)) throw new NameNotFoundException(`${oldName} not bound`);
    if (this.bindings.has(to)) throw new NameAlreadyBoundException(`${newName} is already bound`);
    const object = this.bindings.get(from);
    this.bindings.delete(from);
    try {
      this.checkBindable(newName, to, object);
    } catch (error) {
      this.bindings.set(from, object);
      throw error;
    }
    this.bindings.set(to, object);
  }

  /** Every binding whose canonical name starts with the prefix's canonical form (see normalizePrefix). */
  list(prefix?: string): NameClassPair[] {
    const start = prefix === undefined ? '' : normalizePrefix(prefix);
    return [...this.bindings.keys()]
      .filter((name) => name.startsWith(start))
      .sort()
      .map((name) => ({ name, className: classNameOf(this.bindings.get(name)) }));
  }

  private checkBindable(name: string, key: string, object: unknown): void {
    if (object instanceof HornetQDestination && object.isTemporary) {
      throw new NamingException(
        `${name}: a temporary destination lives with its connection and cannot be bound`,
      );
    }
    if (this.isContext(key))
      throw new NameAlreadyBoundException(`${name} is already bound: it is a context holding other names`);
    for (const parent of parentContexts(key)) {
      if (this.bindings.has(parent)) {
        throw new NamingException(`${name} cannot be bound: ${parent} is bound to an object, not a context`);
      }
    }
  }

  private isContext(key: string): boolean {
    return this.namesUnder(key).length > 0;
  }

  private namesUnder(key: string): string[] {
    return [...this.bindings.keys()].filter((name) => name.startsWith(`${key}/`)).sort();
  }
}

function classNameOf(object: unknown): string {
  if (object === null) return 'null';
  if (typeof object !== 'object' && typeof object !== 'function') return typeof object;
  const constructor = (object as { constructor?: { name?: unknown } }).constructor;
  return typeof constructor?.name === 'string' && constructor.name !== '' ? constructor.name : 'Object';
}
