/**
 * The scripts `fux completion SHELL` prints. Each hands the words typed so far to
 * `fux completion --complete -- WORDS…` (the last word is the one being completed, maybe empty)
 * and shows the candidates it prints, one `value<TAB>description` per line (complete.ts).
 */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Shell, bin: string): string {
  const fn = `_${bin.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;
  switch (shell) {
    case 'bash':
      return `# ${bin} completion for bash. Load it with: source <(${bin} completion bash)
# or install it: ${bin} completion bash > ~/.local/share/bash-completion/completions/${bin}
${fn}() {
  local IFS=$'\\n'
  COMPREPLY=($(${bin} completion --complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null | cut -f1))
}
# -o default: with no candidate (a --cwd value, a command to run), complete file names.
complete -o default -F ${fn} ${bin}
`;
    case 'zsh':
      return `#compdef ${bin}
# ${bin} completion for zsh. Load it (after compinit) with: source <(${bin} completion zsh)
# or install it as _${bin} in a directory of your $fpath.
${fn}() {
  local -a candidates
  local line
  for line in "\${(@f)$(${bin} completion --complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -n $line ]] && candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  if (( \${#candidates} )); then _describe '${bin}' candidates; else _files; fi
}
compdef ${fn} ${bin}
`;
    case 'fish':
      return `# ${bin} completion for fish. Load it with: ${bin} completion fish | source
# or install it: ${bin} completion fish > ~/.config/fish/completions/${bin}.fish
function ${fn}
    set -l words (commandline -opc)
    ${bin} completion --complete -- $words[2..-1] (commandline -ct) 2>/dev/null
end
complete -c ${bin} -f -a '(${fn})'
`;
  }
}
