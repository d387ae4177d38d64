import type { SetupStep } from '../../config/repos-schema.js';
import { missingJsModuleHint } from './missing-js-module.js';

/** Import names whose Debian and PyPI packages are not named after them. */
const PACKAGES: Readonly<Record<string, { debian: string; pip: string }>> = {
  yaml: { debian: 'python3-yaml', pip: 'PyYAML' },
  PIL: { debian: 'python3-pil', pip: 'Pillow' },
  dateutil: { debian: 'python3-dateutil', pip: 'python-dateutil' },
  bs4: { debian: 'python3-bs4', pip: 'beautifulsoup4' },
  sklearn: { debian: 'python3-sklearn', pip: 'scikit-learn' },
  cv2: { debian: 'python3-opencv', pip: 'opencv-python' },
  attr: { debian: 'python3-attr', pip: 'attrs' },
  google: { debian: 'python3-protobuf', pip: 'protobuf' },
};

/** A Python module a clean run could not import, and the two repos.yaml lines that would install it. */
export interface MissingModule {
  /** The top-level module, as the error names it (`six` of `six.moves`). */
  module: string;
  /** The error line of the log, quoted in a refusal. */
  error: string;
  /** Debian package of the debian-python base: a name for image.packages. */
  debian: string;
  /** pip requirement: the image.setup step `{ pip: <name> }`. */
  pip: string;
  /** The module is the repo's own (a top-level or src/ package or module of it): no package provides it. */
  own?: boolean;
  /** A JavaScript / TypeScript module (missing-js-module.ts): `module` is the npm package, `pip` unused. */
  node?: true;
}

const NO_MODULE = /(?:ModuleNotFoundError|ImportError): No module named '?([A-Za-z_][\w.]*)'?/;

/**
 * The first module a Python test log says is missing (`ModuleNotFoundError: No module named
 * 'six'`), with the packages that provide it: the cause a refusal must name, which the log's last
 * line (a pytest summary) usually hides. Undefined when the log names none.
 */
export function missingModuleIn(log: string): MissingModule | undefined {
  const match = NO_MODULE.exec(log);
  if (!match) return undefined;
  const module = match[1]!.split('.')[0]!;
  const known = PACKAGES[module];
  const debian = known?.debian ?? `python3-${module.toLowerCase().replace(/_/g, '-')}`;
  return { module, error: match[0], debian, pip: known?.pip ?? module };
}

/**
 * The repos.yaml line `ssr init` tries by itself: a pip step, which installs from the package index
 * the user configured (as init's requirements steps do) on any base. The Debian package is named in
 * the refusal as the other way.
 */
export function installStep(missing: MissingModule): SetupStep {
  return { pip: missing.pip };
}

/** A shell test, run in /repo, that succeeds when the module is the repo's own. */
export function ownModuleTest(module: string): string {
  return ['', 'src/'].map((dir) => `[ -e ${dir}${module}.py ] || [ -d ${dir}${module} ]`).join(' || ');
}

/** The sentence a refusal adds: the module, and both lines that install it (or, for the repo's own, how tests find it). */
export function missingModuleHint(missing: MissingModule): string {
  if (missing.node) return missingJsModuleHint(missing);
  if (missing.own) {
    return (
      `; its log shows "${missing.error}", a module of the repo itself: the tests cannot import it from /repo: ` +
      'install the project with an image.setup step { pip: "." } or put its directory on pytest\'s pythonpath (a pytest.ini)'
    );
  }
  return (
    `; its log shows "${missing.error}": the image lacks ${missing.module}: install it from repos.yaml with ` +
    `image.packages: [${missing.debian}] (a Debian package) or an image.setup step { pip: ${missing.pip} }`
  );
}
