import type { Command, Option } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** An option as a shell completes it. */
interface Flag {
  names: string[];
  description: string;
  /** takes a value: the next word is the value, not a command */
  value: boolean;
  choices: readonly string[];
}

/** A command of the tree: the words that may follow it, keyed by the names that lead to it. */
interface Node {
  path: string;
  /** subcommands, and the choices of its arguments (`completion bash`) */
  words: { name: string; description: string }[];
  flags: Flag[];
}

const flagOf = (o: Option): Flag => ({
  names: [o.short, o.long].filter((n): n is string => !!n),
  description: o.description,
  value: o.required || o.optional,
  choices: o.argChoices ?? [],
});

// Walked from commander's own tree, so a new command or option completes without touching this
// file. The program's options are accepted after a subcommand too (commander's default), hence
// inherited.
function walk(cmd: Command, path: string[], inherited: Flag[]): Node[] {
  const help = cmd.createHelp();
  const subs = help.visibleCommands(cmd);
  const flags = [...help.visibleOptions(cmd).map(flagOf), ...inherited];
  const node: Node = {
    path: path.join(' '),
    words: [
      ...subs.map((c) => ({ name: c.name(), description: c.description() })),
      ...cmd.registeredArguments.flatMap((a) =>
        (a.argChoices ?? []).map((name) => ({ name, description: a.description || a.name() })),
      ),
    ],
    flags,
  };
  const passOn = path.length ? inherited : cmd.options.map(flagOf);
  // `help` (commander's own) is offered, not walked: its argument is any command
  return [node, ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()], passOn))];
}

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A shell function `name` that prints, one a line, the words for the key in its argument. */
function lookup(name: string, entries: [key: string, out: string][], fish = false): string {
  const cases = entries.filter(([, out]) => out !== '');
  if (fish)
    return [
      `function ${name}`,
      `    switch "$argv"`,
      ...cases.flatMap(([key, out]) => [`        case ${q(key)}`, `            printf '%s\\n' ${out}`]),
      `    end`,
      `end`,
    ].join('\n');
  return [
    `${name}() {`,
    `  case "$1" in`,
    ...cases.map(([key, out]) => `    ${q(key)}) printf '%s\\n' ${out} ;;`),
    `  esac`,
    `}`,
  ].join('\n');
}

const words = (xs: string[]) => xs.map(q).join(' ');
const choiceEntries = (nodes: Node[]) =>
  nodes.flatMap((n) =>
    n.flags.flatMap((f) =>
      f.names.map((name): [string, string] => [n.path ? `${n.path} ${name}` : name, words([...f.choices])]),
    ),
  );

/** The command path so far, from the words before the cursor: options and their values skipped. */
const BASH_WALK = `  local cmdpath='' pending='' word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ -n $pending ]]; then pending=''; continue; fi
    if [[ $'\\n'$(_nvcf_valued "$cmdpath")$'\\n' == *$'\\n'"$word"$'\\n'* ]]; then pending=$word; continue; fi
    [[ $word == -* ]] && continue
    if [[ $'\\n'$(_nvcf_words "$cmdpath")$'\\n' == *$'\\n'"$word"$'\\n'* ]]; then cmdpath=\${cmdpath:+$cmdpath }$word; fi
  done`;

function bash(nodes: Node[]): string {
  return `# nvcf completion for bash, from \`nvcf completion bash\`: source it, e.g. in ~/.bashrc:
#   source <(nvcf completion bash)
${lookup(
  '_nvcf_words',
  nodes.map((n) => [n.path, words(n.words.map((w) => w.name))]),
)}
${lookup(
  '_nvcf_flags',
  nodes.map((n) => [n.path, words(n.flags.flatMap((f) => f.names))]),
)}
${lookup(
  '_nvcf_valued',
  nodes.map((n) => [n.path, words(n.flags.filter((f) => f.value).flatMap((f) => f.names))]),
)}
${lookup('_nvcf_choices', choiceEntries(nodes))}
_nvcf() {
${BASH_WALK}
  local cur=\${COMP_WORDS[COMP_CWORD]}
  if [[ -n $pending ]]; then
    # no choices: an empty reply falls back to file names (complete -o default)
    COMPREPLY=($(compgen -W "$(_nvcf_choices "\${cmdpath:+$cmdpath }$pending")" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_nvcf_flags "$cmdpath")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_nvcf_words "$cmdpath")" -- "$cur"))
  fi
}
complete -o default -F _nvcf nvcf
`;
}

// _describe takes `name:description`; a colon in the name would end it
const described = (name: string, description: string) => q(`${name.replaceAll(':', '\\:')}:${oneLine(description)}`);

function zsh(nodes: Node[]): string {
  return `#compdef nvcf
# nvcf completion for zsh, from \`nvcf completion zsh\`: source it after compinit, e.g. in ~/.zshrc:
#   source <(nvcf completion zsh)
# or save it as _nvcf in a directory of $fpath.
${lookup(
  '_nvcf_words',
  nodes.map((n) => [n.path, words(n.words.map((w) => w.name))]),
)}
${lookup(
  '_nvcf_described_words',
  nodes.map((n) => [n.path, n.words.map((w) => described(w.name, w.description)).join(' ')]),
)}
${lookup(
  '_nvcf_described_flags',
  nodes.map((n) => [n.path, n.flags.flatMap((f) => f.names.map((name) => described(name, f.description))).join(' ')]),
)}
${lookup(
  '_nvcf_valued',
  nodes.map((n) => [n.path, words(n.flags.filter((f) => f.value).flatMap((f) => f.names))]),
)}
${lookup('_nvcf_choices', choiceEntries(nodes))}
_nvcf() {
  local cmdpath='' pending='' word
  local -a found
  for word in "\${(@)words[2,CURRENT-1]}"; do
    if [[ -n $pending ]]; then pending=''; continue; fi
    if (( \${\${(f)"$(_nvcf_valued "$cmdpath")"}[(Ie)$word]} )); then pending=$word; continue; fi
    [[ $word == -* ]] && continue
    if (( \${\${(f)"$(_nvcf_words "$cmdpath")"}[(Ie)$word]} )); then cmdpath=\${cmdpath:+$cmdpath }$word; fi
  done
  if [[ -n $pending ]]; then
    found=(\${(f)"$(_nvcf_choices "\${cmdpath:+$cmdpath }$pending")"})
    found=(\${found:#})
    if (( $#found )); then compadd -a found; else _files; fi
  elif [[ \${words[CURRENT]} == -* ]]; then
    found=(\${(f)"$(_nvcf_described_flags "$cmdpath")"})
    found=(\${found:#})
    _describe -t options 'nvcf option' found
  else
    found=(\${(f)"$(_nvcf_described_words "$cmdpath")"})
    found=(\${found:#})
    _describe -t commands 'nvcf command' found
  fi
}
if [[ \${funcstack[1]} == _nvcf ]]; then _nvcf "$@"; else compdef _nvcf nvcf; fi
`;
}

function fish(nodes: Node[]): string {
  const at = (path: string) => q(`__nvcf_at ${q(path)}`);
  const lines = nodes.flatMap((n) => [
    ...n.words.map((w) => `complete -c nvcf -n ${at(n.path)} -a ${q(w.name)} -d ${q(oneLine(w.description))}`),
    ...n.flags.map((f) => {
      const names = f.names.map((name) =>
        name.startsWith('--') ? `-l ${q(name.slice(2))}` : `-s ${q(name.slice(1))}`,
      );
      const value = !f.value ? '' : f.choices.length ? ` -x -a ${q(f.choices.join(' '))}` : ' -r -F';
      return `complete -c nvcf -n ${at(n.path)} ${names.join(' ')}${value} -d ${q(oneLine(f.description))}`;
    }),
  ]);
  return `# nvcf completion for fish, from \`nvcf completion fish\`: save it as
#   nvcf completion fish > ~/.config/fish/completions/nvcf.fish
${lookup(
  '__nvcf_words',
  nodes.map((n) => [n.path, words(n.words.map((w) => w.name))]),
  true,
)}
${lookup(
  '__nvcf_valued',
  nodes.map((n) => [n.path, words(n.flags.filter((f) => f.value).flatMap((f) => f.names))]),
  true,
)}
# the command path so far, from the words before the cursor: options and their values skipped
function __nvcf_cmdpath
    set -l cmdpath
    set -l pending 0
    set -l typed (commandline -opc)
    set -e typed[1]
    for word in $typed
        if test $pending = 1
            set pending 0
        else if contains -- $word (__nvcf_valued $cmdpath)
            set pending 1
        else if not string match -q -- '-*' $word; and contains -- $word (__nvcf_words $cmdpath)
            set -a cmdpath $word
        end
    end
    string join ' ' -- $cmdpath
end
function __nvcf_at
    set -l cmdpath (__nvcf_cmdpath)
    test "$cmdpath" = "$argv[1]"
end
complete -c nvcf -f
${lines.join('\n')}
`;
}

/** The completion script for `shell`, covering every command and option of `program`. */
export function completionScript(shell: Shell, program: Command): string {
  const nodes = walk(program, [], []);
  return { bash, zsh, fish }[shell](nodes);
}
