import type { SeededRng } from '../../../util/seeded-rng.js';

/** How the procedural Injector breaks code: method §7 removal and history; `operator` plays `direct`. */
export type InjectorStrategy = 'removal' | 'history' | 'operator';

/** What the Injector takes from its prompts: the strategy and the thresholds it must meet. */
export interface InjectorSettings {
  strategy: InjectorStrategy;
  /** What the prompt asked for: a strategy, `mixed` (removal or history drawn per rollout) or `unknown`. */
  requested: InjectorStrategy | 'direct' | 'mixed' | 'unknown';
  minChangedFiles: number;
  minFailingTests: number;
  minPassingTests: number;
  /** The validator's breadth cap, as the prompt states it. */
  maxFailingTests: number;
  maxFailingFiles: number;
}

// "Strategy: removal", "## Strategy: remove functionality", "Strategy: undo past fixes",
// "strategy = direct", "the history strategy": the word after "Strategy:" names it.
const EXPLICIT = [/\bstrategy\b[*_`"']*\s*[:=\-—]\s*[*_`"']*(\w+)/i, /\b(removal|history|direct|operator|mixed)[*_`"']*\s+strategy\b/i];
const NAMED: [RegExp, InjectorSettings['requested']][] = [
  [/^remov/i, 'removal'],
  [/^(history|undo|revert)/i, 'history'],
  [/^(direct|inject|free)/i, 'direct'],
  [/^(operator|mutat)/i, 'operator'],
  [/^mix/i, 'mixed'],
];

// Wording that only one strategy's prompt uses, scored when no strategy is named outright.
const CUES: Record<'removal' | 'history' | 'direct', RegExp[]> = {
  removal: [/\bremov(?:al|e|ing)\b/gi, /\bdelet(?:e|ing) (?:significant|whole|code|functions?|hunks?)\b/gi, /\bempty(?:ing)? (?:whole )?(?:files?|function|bodies)\b/gi],
  history: [/\bgit log\b/gi, /\bgit show\b/gi, /\bhistory\b/gi, /\brevert(?:ing|s)?\b/gi, /\bpast (?:fix|commit)/gi],
  direct: [/\bdirect(?:ly)? inject/gi, /\bfree[- ]form\b/gi, /\bany (?:kind of )?bug\b/gi],
};

const THRESHOLDS = {
  minChangedFiles: [/\bmin_changed_files\b\D{0,40}?(\d+)/i, /\bat least (\d+) (?:code |source |different |distinct )*files?\b/i],
  minFailingTests: [
    /\bmin_failing_tests\b\D{0,40}?(\d+)/i,
    /\bat least (\d+) (?:previously[- ]passing |existing )?tests?(?:\(s\))? (?:that passed[^.]{0,60}? )?(?:must |should |to )?fail/i,
  ],
  minPassingTests: [/\bmin_passing_tests\b\D{0,40}?(\d+)/i, /\bat least (\d+) (?:tests?(?:\(s\))? )?(?:must |should )?pass(?:ing)?\b/i],
  maxFailingTests: [/\bmax_failing_tests\b\D{0,40}?(\d+)/i, /\bat most (\d+) of those tests fail/i],
  maxFailingFiles: [/\bmax_failing_files\b\D{0,40}?(\d+)/i, /\bin at most (\d+) test file/i],
} as const;

// The repos.yaml defaults, for a prompt that states no cap.
const DEFAULTS = { minChangedFiles: 1, minFailingTests: 1, minPassingTests: 10, maxFailingTests: 40, maxFailingFiles: 8 };

/**
 * Read strategy and thresholds from the rendered prompts. A strategy named outright wins
 * ("Strategy: history"); else the cue words of each strategy are counted. `mixed` or no clear
 * winner draws removal or history with `rng`, as method §7's default mix does per rollout.
 */
export function readInjectorSettings(systemPrompt: string, userPrompt: string, rng: SeededRng): InjectorSettings {
  const text = `${systemPrompt}\n${userPrompt}`;
  const requested = requestedStrategy(text);
  const strategy: InjectorStrategy =
    requested === 'removal' || requested === 'history' || requested === 'operator'
      ? requested
      : requested === 'direct'
        ? 'operator'
        : rng.pick(['removal', 'history'] as const);
  return {
    strategy,
    requested,
    minChangedFiles: threshold(text, 'minChangedFiles'),
    minFailingTests: threshold(text, 'minFailingTests'),
    minPassingTests: threshold(text, 'minPassingTests'),
    maxFailingTests: threshold(text, 'maxFailingTests'),
    maxFailingFiles: threshold(text, 'maxFailingFiles'),
  };
}

/** The strategy a prompt asks for, without drawing one. */
export function requestedStrategy(text: string): InjectorSettings['requested'] {
  for (const pattern of EXPLICIT) {
    const word = pattern.exec(text)?.[1];
    const named = word === undefined ? undefined : NAMED.find(([prefix]) => prefix.test(word))?.[1];
    if (named) return named;
  }
  const scores = (Object.keys(CUES) as (keyof typeof CUES)[]).map((name) => ({
    name,
    score: CUES[name].reduce((sum, cue) => sum + (text.match(cue)?.length ?? 0), 0),
  }));
  scores.sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (!best || best.score === 0) return 'unknown';
  // Both removal and history explained at length: the prompt offers a mix.
  if (second && second.score > 0 && second.score * 2 > best.score && best.name !== 'direct' && second.name !== 'direct') return 'mixed';
  return best.name;
}

function threshold(text: string, key: keyof typeof THRESHOLDS): number {
  for (const pattern of THRESHOLDS[key]) {
    const value = Number(pattern.exec(text)?.[1]);
    if (Number.isSafeInteger(value) && value >= 1) return value;
  }
  return DEFAULTS[key];
}
