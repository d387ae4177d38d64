/** The languages (languages.ts) whose repos the JS runner detectors read: TypeScript runs on the same runners. */
export const JS_LANGUAGES: readonly string[] = ['javascript', 'typescript'];
