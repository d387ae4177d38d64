import { describe, expect, it } from 'vitest';
import { interactiveRefusal } from '../../../src/tools/interactive-guard.js';
import { simpleCommands } from '../../../src/tools/shell-commands.js';

describe('interactiveRefusal', () => {
  it.each<[string, string]>([
    ['vim foo.py', 'vim'],
    ['cd src && vi x.py', 'vi'],
    ['/usr/bin/nano README', 'nano'],
    ['emacs -nw file', 'emacs'],
    ['git log | less', 'less'],
    ['cat big.txt | more', 'more'],
    ['top', 'top'],
    ['htop', 'htop'],
    ['watch -n1 ls', 'watch'],
    ['python', 'python'],
    ['python3', 'python3'],
    ['python3 -u', 'python3'],
    ['python -i script.py', 'python'],
    ['ipython', 'ipython'],
    ['node', 'node'],
    ['bash', 'bash'],
    ['sh', 'sh'],
    ['bash -i', 'bash'],
    ['sudo vim /etc/hosts', 'vim'],
    ['FOO=1 env BAR=2 timeout 10 vim x', 'vim'],
    ['if true; then vim x; fi', 'vim'],
    ['(cd src; nano a)', 'nano'],
    ['ls\nvim x', 'vim'],
    ['git commit', 'git'],
    ['git commit -a', 'git'],
    ['git -C /repo commit -v && git status', 'git'],
    ['git rebase -i HEAD~3', 'git'],
    ['git rebase --interactive main', 'git'],
    ['git add -p', 'git'],
    ['git checkout -p file', 'git'],
    ['git mergetool', 'git'],
  ])('refuses %j', (command, program) => {
    expect(interactiveRefusal(command)).toMatch(new RegExp(`^Refused to run \`${program}\`: .+ This shell is non-interactive`));
  });

  it.each([
    'ls -la',
    'grep -rn vim .',
    'echo "vim is an editor"',
    "echo 'python'",
    'python script.py',
    'python3 -m pytest -q',
    'python -c "print(1)"',
    'python3 - <<EOF\nprint(1)\nEOF',
    'python3 <<\'EOF\'\nimport sys\nEOF',
    'cat x | python3',
    'python3 < script.py',
    'python3 <<< "print(1)"',
    'node -e "1"',
    'bash script.sh',
    'bash -c "ls"',
    'bash -lc "ls"',
    'sh -s <<EOF\nls\nEOF',
    'cat > run.sh <<EOF\nvim\npython\nless\nEOF',
    'cat <<-EOF > x\n\tnano\n\tEOF\nls',
    'git log --oneline | head',
    'git commit -m "fix"',
    'git commit -am "fix"',
    'git commit --message=fix',
    'git commit -F msg.txt',
    'git commit --amend',
    'git commit --no-edit',
    'git rebase main',
    'git add -A',
    'git diff HEAD~1',
    'emacs --batch -l x.el',
    'ls # vim in a comment',
    'echo $(python3 -c "print(1)")',
    'echo hi > less',
    'sort < more.txt 2>&1 | head',
    'env',
    'timeout 5 pytest -x',
    'diff <(sort a) <(sort b)',
  ])('lets %j run', (command) => {
    expect(interactiveRefusal(command)).toBeNull();
  });
});

describe('simpleCommands', () => {
  it.each<[string, string[][]]>([
    ['a b; c && d || e & f', [['a', 'b'], ['c'], ['d'], ['e'], ['f']]],
    ["echo 'a b' \"c $(d e) f\" g\\ h", [['echo', 'a b', 'c $(d e) f', 'g h']]],
    ['x 2>&1 >out <in y', [['x', 'y']]],
    ['cat <<EOF\nbody; rm\nEOF\nls', [['cat'], ['ls']]],
    ['a \\\n  b', [['a', 'b']]],
    ['x=1 y # z', [['x=1', 'y']]],
  ])('splits %j', (script, expected) => {
    expect(simpleCommands(script).map((c) => c.words)).toEqual(expected);
  });

  it('knows whose stdin is fed', () => {
    expect(simpleCommands('a | b; c < f; d <<EOF\nx\nEOF\ne').map((c) => [c.words[0], c.stdinFed])).toEqual([
      ['a', false],
      ['b', true],
      ['c', true],
      ['d', true],
      ['e', false],
    ]);
  });
});
