/**
 * An element of a configuration file. Names stay values (in Maps and fields), never plain-object
 * keys, so a file cannot reach Object.prototype through an element or attribute name.
 */
export interface XmlElement {
  /** The qualified name as written, e.g. 'connection-factory'. */
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: readonly XmlElement[];
  /** The element's own text (entities decoded), not its children's. */
  readonly text: string;
  /** 1-based line of the start tag. */
  readonly line: number;
}
