// @ts-check

/**
 * The value at a dotted `path` in `settings`, or `fallback` when it is missing (null or
 * undefined). Falsy values that are set (0, '', false) are kept.
 * @param {Record<string, any> | null | undefined} settings
 * @param {string} path
 * @param {unknown} fallback
 * @returns {unknown}
 */
export function getSetting(settings, path, fallback) {
  let value = settings;
  for (const key of path.split('.')) value = value?.[key];
  return value ?? fallback;
}

/**
 * A deep merge of `override` onto `base`: nested plain objects merge, everything else replaces.
 * Neither input is changed.
 * @param {Record<string, any>} base
 * @param {Record<string, any>} override
 * @returns {Record<string, any>}
 */
export function mergeSettings(base, override) {
  const merged = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeSettings(current, value) : value;
  }
  return merged;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parse "key=value" lines; `#` starts a comment; numbers and booleans are converted.
 * @param {string} text
 * @returns {Record<string, string | number | boolean>}
 */
export function parseSettings(text) {
  /** @type {Record<string, string | number | boolean>} */
  const result = {};
  for (const raw of text.split('\n')) {
    const line = raw.split('#')[0].trim();
    if (line === '') continue;
    const equals = line.indexOf('=');
    if (equals === -1) throw new SyntaxError(`expected key=value, got "${line}"`);
    const key = line.substring(0, equals).trim();
    const value = line.substring(equals + 1).trim();
    if (value === 'true' || value === 'false') result[key] = value === 'true';
    else if (value !== '' && !Number.isNaN(Number(value))) result[key] = Number(value);
    else result[key] = value;
  }
  return result;
}
