import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schema at a schema path, looking through defaults, optionals, pipes and arrays. */
function objectAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): Def | undefined {
  let current: z.ZodType | undefined = schema;
  let index = 0;
  while (current) {
    const def = defOf(current);
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (index === path.length) return def.type === 'object' ? def : undefined;
    else if (def.type === 'array' && typeof path[index] === 'number') { current = def.element; index += 1; }
    else if (def.type === 'object' && typeof path[index] === 'string') { current = def.shape?.[path[index] as string]; index += 1; }
    else return undefined;
  }
  return undefined;
}

/** The keys a strict object schema accepts at `path` (e.g. `['repos', 0, 'image']`), for "unknown key" errors. */
export function knownKeysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  return Object.keys(objectAt(schema, path)?.shape ?? {});
}
