/**
 * The scripts `pdesk completion bash|zsh|fish` prints. Each is a thin shim: it hands the words on the command
 * line to `pdesk __complete` (complete.ts) and shows what comes back, so a script never needs regenerating when
 * commands or options change. Lines back are `value<TAB>description`, and a line `:files` asks for file names.
 * (Template literals: a backslash, a backtick and a dollar-brace of the shell are escaped.)
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const BASH = `# bash completion for pdesk, printed by \`pdesk completion bash\`.
# This shell:  source <(pdesk completion bash)
# Every shell: pdesk completion bash > "\${BASH_COMPLETION_USER_DIR:-\${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion}/completions/pdesk"
# Candidates come from \`pdesk __complete\`, which reads the commands, the profiles and the local stores and
# sends nothing.

_pdesk() {
    local words=() cword=0 rest=\${COMP_LINE:0:COMP_POINT} i w trimmed
    # Bash splits words at = and : (COMP_WORDBREAKS): join the pieces that stand together on the line, so that
    # --output=json reaches pdesk as one word.
    for (( i = 0; i <= COMP_CWORD; i++ )); do
        w=\${COMP_WORDS[i]}
        trimmed=\${rest#"\${rest%%[![:space:]]*}"}
        if (( i > 0 )) && [[ -n $COMP_LINE && \${#trimmed} -eq \${#rest} ]]; then
            words[cword]+=$w
        else
            (( i > 0 )) && cword=$(( cword + 1 ))
            words[cword]=$w
        fi
        rest=\${trimmed:\${#w}}
    done
    local cur=\${words[cword]} raw=\${COMP_WORDS[COMP_CWORD]} prefix= out line value files=
    # Readline replaces only the text after the last = or :, so the candidates lose what stands before it.
    if [[ $cur != "$raw" ]]; then
        if [[ -z \${raw//[=:]/} ]]; then prefix=$cur; else prefix=\${cur%"$raw"}; fi
    fi
    out=$("\${words[0]/#\\~/$HOME}" __complete "\${words[@]:1:cword}" 2>/dev/null) || return 0
    COMPREPLY=()
    while IFS= read -r line; do
        case $line in
            '') ;;
            :files) files=1 ;;
            *)
                line=\${line%%$'\\t'*}
                printf -v value '%q' "\${line#"$prefix"}"
                COMPREPLY+=("$value")
                ;;
        esac
    done <<<"$out"
    if [[ -n $files ]]; then
        while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "\${cur#"$prefix"}")
        compopt -o filenames 2>/dev/null
    fi
    return 0
}

complete -F _pdesk pdesk
`;

const ZSH = `#compdef pdesk
# zsh completion for pdesk, printed by \`pdesk completion zsh\`.
# Every shell: pdesk completion zsh > "\${fpath[1]}/_pdesk"   (then start a new shell)
# This shell:  source <(pdesk completion zsh)                 (after compinit)
# Candidates come from \`pdesk __complete\`, which reads the commands, the profiles and the local stores and
# sends nothing.

_pdesk() {
    local -a described
    local out line value files=0 ret=1
    out=$("\${words[1]}" __complete "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
    for line in "\${(@f)out}"; do
        case $line in
            '') ;;
            :files) files=1 ;;
            *$'\\t'*)
                value=\${line%%$'\\t'*}
                described+=("\${value//:/\\\\:}:\${line#*$'\\t'}")
                ;;
            *) described+=("\${line//:/\\\\:}") ;;
        esac
    done
    (( \${#described} )) && _describe -t pdesk pdesk described && ret=0
    (( files )) && _files && ret=0
    return ret
}

if [[ "\${funcstack[1]}" == _pdesk ]]; then
    _pdesk "$@"
else
    compdef _pdesk pdesk
fi
`;

const FISH = `# fish completion for pdesk, printed by \`pdesk completion fish\`.
# Every shell: pdesk completion fish > ~/.config/fish/completions/pdesk.fish
# This shell:  pdesk completion fish | source
# Candidates come from \`pdesk __complete\`, which reads the commands, the profiles and the local stores and
# sends nothing.

function __pdesk_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($words[1] __complete $words[2..-1] $current 2>/dev/null)
    or return 0
    for line in $out
        if test "$line" = :files
            __fish_complete_path $current
        else if test -n "$line"
            printf '%s\\n' $line
        end
    end
end

complete -c pdesk -f -a '(__pdesk_complete)'
`;

export const SCRIPTS: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH };
