import { ownBrand, type ClassOf } from '../lang/brand';
import { HornetQDestination } from '../jms/destination';
import { JndiErrorCode } from './jndi-error-code';
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

  /**
   * The object bound under `name` if it is a `type`: by the class's own `is()` where it has one
   * (a brand check, which holds across copies of this package), else by its prototype chain.
   */
  lookupAs<T extends object>(name: string, type: ClassOf<T>): T {
    const object = this.lookup(name);
    if (isA(object, type)) return object;
    throw new NamingException(
      `'${name}' is ${withArticle(classNameOf(object))}, not ${withArticle(classLabel(type))}`,
      {
        code: JndiErrorCode.NAME_WRONG_TYPE,
      },
    );
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
    if (HornetQDestination.is(object) && object.isTemporary) {
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

function isA<T extends object>(object: unknown, type: ClassOf<T>): object is T {
  const is: unknown = (type as { is?: unknown }).is;
  if (typeof is === 'function') return is.call(type, object) === true;
  return (
    typeof object === 'object' &&
    object !== null &&
    Object.prototype.isPrototypeOf.call(type.prototype, object)
  );
}

function classLabel(type: ClassOf<object>): string {
  return ownBrand(type) ?? (type.name === '' ? 'anonymous class' : type.name);
}

function withArticle(className: string): string {
  if (className === 'null' || className === 'undefined') return className;
  return `${/^[aeiou]/i.test(className) ? 'an' : 'a'} ${className}`;
}
