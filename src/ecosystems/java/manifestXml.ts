import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { excerpt } from '../../text/excerpt';
import { lineOfOffset, ManifestError } from '../manifestError';

/** An element parsed to an object: child elements by local name (one value, or an array when repeated). */
export type XmlElement = { [name: string]: unknown };

// Typed `Symbol` (the wrapper) by the library; it is a primitive symbol at run time.
const METADATA = XMLParser.getMetaDataSymbol() as unknown as symbol;

/**
 * Parses a POM's XML safely: a document type declaration is refused outright, so no entity is ever
 * defined, let alone expanded (no billion laughs, no external entities). Namespace prefixes are
 * dropped, comments skipped, values kept as strings. `text` comes without a byte order mark.
 */
export function parsePomXml(text: string, file: string): XmlElement {
  const declaration = /<!(DOCTYPE|ENTITY)/i.exec(text);
  if (declaration) {
    throw new ManifestError(file, lineOfOffset(text, declaration.index), `<!${declaration[1].toUpperCase()}: document type and entity declarations are not accepted`);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ManifestError(file, valid.err.line || null, `malformed XML: ${excerpt(valid.err.msg)}`);
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    parseTagValue: false,
    trimValues: true,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    commentPropName: false,
    captureMetaData: true,
  });
  let document: unknown;
  try {
    document = parser.parse(text);
  } catch (e) {
    throw new ManifestError(file, null, `malformed XML: ${excerpt((e as Error).message)}`);
  }
  const project = isElement(document) ? document.project : undefined;
  if (!isElement(project)) throw new ManifestError(file, 1, 'the root element is not <project>');
  return project;
}

export function isElement(value: unknown): value is XmlElement {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The line where the element starts, when the parser recorded it. */
export function elementLine(element: XmlElement, text: string): number | null {
  const meta = (element as Record<symbol, { startIndex?: number } | undefined>)[METADATA];
  return typeof meta?.startIndex === 'number' ? lineOfOffset(text, meta.startIndex) : null;
}

/** Own children only: tag names like `toString` must never reach Object.prototype. */
export function child(element: XmlElement, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(element, name) ? element[name] : undefined;
}

export function asArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * The text of a leaf element, with the predefined entities and character references decoded (never
 * anything user-defined); null when absent or empty. Throws when the element is repeated or has children.
 */
export function leafText(value: unknown, describe: () => string): string | null {
  if (value === undefined) return null;
  if (Array.isArray(value)) throw new Error(`${describe()} is given more than once`);
  if (typeof value !== 'string') throw new Error(`${describe()} must hold text, not elements`);
  const text = decodeXmlReferences(value).trim();
  return text === '' ? null : text;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXmlReferences(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref];
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
