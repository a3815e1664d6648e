/**
 * Brands: how a class of this package recognises its instances when `instanceof` cannot. An
 * application that loads two copies of the package (its own and a dependency's, or src and dist)
 * has two of every class, and an error thrown by one copy is no instance of the other's. A brand
 * is a property under a `Symbol.for('hornetq-js.<Class>')` key, which both copies share.
 *
 * A branded class names its brand in its own static `brand` (each subclass redeclares it: the name
 * is written out rather than read from `constructor.name`, which a minifier renames). The family's
 * root constructor calls `brandInstance(this, new.target)` (`brandError` for an error), which marks the instance with the brand
 * of its class and of every ancestor, so that a parent's check accepts a subclass's instance and a
 * subclass's check refuses its parent's.
 */

/** The static side of a branded class. */
export interface BrandedClass {
  readonly brand: string;
}

/**
 * A class, seen by its prototype: abstract classes and classes with a protected constructor too,
 * which a `new (...) => T` type leaves out.
 */
export interface ClassOf<T extends object> {
  readonly prototype: T;
  readonly name: string;
}

/** The type `is()` narrows to for the class it is called on. */
export type InstanceOf<C> = C extends { readonly prototype: infer R } ? R : never;

function brandKey(brand: string): symbol {
  return Symbol.for(`hornetq-js.${brand}`);
}

/** The brand a class declares itself, or null for one that declares none (an application's subclass). */
export function ownBrand(type: object): string | null {
  if (!Object.hasOwn(type, 'brand')) return null;
  const brand: unknown = (type as Partial<BrandedClass>).brand;
  return typeof brand === 'string' ? brand : null;
}

/** The brand keys each class's instances get, worked out once per class: messages are made on hot paths. */
const keysByClass = new WeakMap<object, { keys: symbol[]; name: string }>();

function brandsOf(leaf: ClassOf<object>): { keys: symbol[]; name: string } {
  let known = keysByClass.get(leaf);
  if (known === undefined) {
    const keys: symbol[] = [];
    for (let type: unknown = leaf; typeof type === 'function'; type = Object.getPrototypeOf(type)) {
      const brand = ownBrand(type);
      if (brand !== null) keys.push(brandKey(brand));
    }
    known = { keys, name: ownBrand(leaf) ?? leaf.name };
    keysByClass.set(leaf, known);
  }
  return known;
}

/**
 * Marks `instance` with the brands of `leaf` (its `new.target`) and of every ancestor, and returns
 * the name its instances go by: the leaf's brand, else (a subclass declaring none) its class name.
 */
export function brandInstance(instance: object, leaf: ClassOf<object>): string {
  const { keys, name } = brandsOf(leaf);
  for (const key of keys) Object.defineProperty(instance, key, { value: true });
  return name;
}

/** Classes whose prototypes carry their brands already. */
const brandedPrototypes = new WeakSet<object>();

/**
 * For classes made on hot paths (messages, destinations): the brands go on the prototypes of
 * `leaf` and its ancestors, once per class, and every instance inherits them. Marking each
 * instance instead costs a property definition per brand per message, and gives every message
 * object extra own properties.
 */
export function brandPrototypes(leaf: ClassOf<object>): void {
  if (brandedPrototypes.has(leaf)) return;
  for (let type: unknown = leaf; typeof type === 'function'; type = Object.getPrototypeOf(type)) {
    const brand = ownBrand(type);
    const prototype = (type as { prototype?: object }).prototype;
    if (brand === null || prototype === undefined || Object.hasOwn(prototype, brandKey(brand))) continue;
    Object.defineProperty(prototype, brandKey(brand), { value: true });
  }
  brandedPrototypes.add(leaf);
}

/**
 * As brandInstance, and sets the error's `name` (not enumerable, as Error's own is) so that the
 * stack and `String(error)` start with the class, not 'Error'.
 */
export function brandError(error: Error, leaf: ClassOf<Error>): void {
  const name = brandInstance(error, leaf);
  Object.defineProperty(error, 'name', {
    value: name,
    enumerable: false,
    configurable: true,
    writable: true,
  });
}

/**
 * True when `value` carries the brand `type` declares, whichever copy of the package made it; for
 * a class that declares no brand of its own, what `instanceof` says.
 */
export function hasBrand(value: unknown, type: ClassOf<object>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const brand = ownBrand(type);
  if (brand === null) return Object.prototype.isPrototypeOf.call(type.prototype, value);
  return (value as Record<symbol, unknown>)[brandKey(brand)] === true;
}
