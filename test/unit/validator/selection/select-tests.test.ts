import { describe, expect, it } from 'vitest';
import { ImportGraph } from '../../../../src/validator/selection/import-graph.js';
import { pytestIgnoreOptions, selectTests } from '../../../../src/validator/selection/select-tests.js';

/**
 * A package whose __init__ re-exports every module (as most do), a src layout, relative and
 * absolute imports, a conftest that imports one module, and tests that each import one module.
 */
const REPO = new Map<string, string>([
  ['src/shop/__init__.py', 'from .prices import price\nfrom .cart import Cart\nfrom .tax import *\n'],
  ['src/shop/prices.py', 'from decimal import Decimal\n\ndef price(x):\n    return Decimal(x)\n'],
  ['src/shop/cart.py', 'from . import prices\n\nclass Cart:\n    def total(self):\n        return prices.price(1)\n'],
  ['src/shop/tax.py', 'def rate():\n    return 0.2\n'],
  ['src/shop/report.py', 'def report():\n    from shop.cart import Cart\n    return Cart()\n'],
  ['tests/__init__.py', ''],
  ['tests/test_prices.py', 'from shop import price\n\ndef test_p():\n    assert price(1)\n'],
  ['tests/test_cart.py', 'from shop.cart import Cart\n'],
  ['tests/test_tax.py', 'import shop.tax\n'],
  ['tests/test_report.py', 'from shop.report import report\n'],
  ['tests/api/conftest.py', 'import pytest\nfrom shop import Cart\n'],
  ['tests/api/test_api.py', 'def test_api(cart):\n    pass\n'],
]);

describe('ImportGraph', () => {
  const graph = new ImportGraph(REPO);

  it.each([
    // A name taken from a package depends on the module the package re-exports it from, not on every module.
    ['tests/test_prices.py', ['src/shop/prices.py']],
    ['src/shop/cart.py', ['src/shop/prices.py']],
    ['tests/test_tax.py', ['src/shop/tax.py']],
    // An import inside a function counts.
    ['src/shop/report.py', ['src/shop/cart.py']],
    ['src/shop/__init__.py', ['src/shop/cart.py', 'src/shop/prices.py', 'src/shop/tax.py']],
  ])('%s imports %j', (path, deps) => {
    expect([...graph.dependencies(path)].sort()).toEqual(deps);
  });

  it('follows imports transitively, from the changed file to the tests', () => {
    expect([...graph.affectedBy(['src/shop/prices.py'])].sort()).toEqual([
      'src/shop/__init__.py', 'src/shop/cart.py', 'src/shop/prices.py', 'src/shop/report.py',
      'tests/api/conftest.py', 'tests/test_cart.py', 'tests/test_prices.py', 'tests/test_report.py',
    ]);
  });
});

describe('selectTests', () => {
  it('keeps only the test files that reach the changed module, and the listed ones', () => {
    const selection = selectTests({ sources: REPO, changed: ['src/shop/tax.py'], listed: ['tests/test_report.py'] });
    expect(selection).toEqual({
      status: 'selected',
      // A conftest.py is never left out, so tests/api/ is left out file by file.
      ignore: ['src/shop/cart.py', 'src/shop/prices.py', 'src/shop/report.py', 'tests/api/test_api.py', 'tests/test_cart.py', 'tests/test_prices.py'],
      keptTestFiles: 2,
      testFiles: 5,
    });
  });

  it('keeps every test under a conftest.py that imports the change', () => {
    const selection = selectTests({ sources: REPO, changed: ['src/shop/cart.py'], listed: [] });
    expect(selection.status).toBe('selected');
    if (selection.status !== 'selected') return;
    expect(selection.ignore).not.toContain('tests/api/');
    expect(selection.ignore).toEqual(['src/shop/prices.py', 'src/shop/tax.py', 'tests/test_prices.py', 'tests/test_tax.py']);
  });

  it.each([
    ['a change the import graph cannot follow', ['src/shop/data.json'], /data\.json, which the import graph cannot follow/],
    ['a change every test reaches', ['src/shop/prices.py', 'src/shop/tax.py'], /every one of the 5 test file\(s\)/],
  ])('runs the full suite for %s, and says why', (_label, changed, reason) => {
    const selection = selectTests({ sources: REPO, changed, listed: ['tests/api/test_api.py'] });
    expect(selection).toMatchObject({ status: 'full', reason: expect.stringMatching(reason) });
  });

  it('leaves paths out by absolute path, so a script that changes directory still leaves them out', () => {
    expect(pytestIgnoreOptions(['tests/api/', 'tests/test_a.py'])).toBe('--ignore=/repo/tests/api --ignore=/repo/tests/test_a.py');
  });
});
