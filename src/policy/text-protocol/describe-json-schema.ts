/**
 * One-line, model-facing type names for the JSON schema subset zod emits for tool arguments
 * (`string`, `integer`, enums, arrays, nested objects). Anything unusual falls back to its JSON.
 */
export function describeSchemaType(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if ('const' in s) return `exactly ${JSON.stringify(s.const)}`;
  if (Array.isArray(s.anyOf)) return s.anyOf.map(describeSchemaType).join(' or ');
  if (Array.isArray(s.type)) return s.type.join(' or ');
  switch (s.type) {
    case 'array':
      return `array of ${describeSchemaType(s.items)}`;
    case 'object':
      return s.properties ? `object {${Object.keys(s.properties).join(', ')}}` : 'object';
    case 'integer':
    case 'number':
      return withBounds(String(s.type), s);
    case undefined:
      return JSON.stringify(s);
    default:
      return String(s.type);
  }
}

function withBounds(type: string, s: Record<string, unknown>): string {
  const bounds: string[] = [];
  // zod's int() adds ±MAX_SAFE_INTEGER bounds: noise to a model.
  const meaningful = (value: unknown): value is number => typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER;
  if (meaningful(s.minimum)) bounds.push(`≥ ${s.minimum}`);
  if (meaningful(s.exclusiveMinimum)) bounds.push(`> ${s.exclusiveMinimum}`);
  if (meaningful(s.maximum)) bounds.push(`≤ ${s.maximum}`);
  if (meaningful(s.exclusiveMaximum)) bounds.push(`< ${s.exclusiveMaximum}`);
  return bounds.length > 0 ? `${type} ${bounds.join(', ')}` : type;
}

/** Placeholder value of a schema for examples: the shape is right, the content is obviously a stand-in. */
export function placeholderValue(name: string, schema: unknown): unknown {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch (s.type) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return `<${name}>`;
  }
}
