
_clap_complete_pushleft_controller() {
    local _CLAP_COMPLETE_INDEX=${COMP_CWORD}
    if compopt +o nospace 2> /dev/null; then
        local _CLAP_COMPLETE_SPACE=false
    else
        local _CLAP_COMPLETE_SPACE=true
    fi
    COMPREPLY=()
    mapfile -t COMPREPLY < <( \
        _CLAP_COMPLETE_INDEX="$_CLAP_COMPLETE_INDEX" \
        COMPLETE="bash" \
        pushleft-controller -- "${COMP_WORDS[@]}" 2> /dev/null \
    )
    if [[ $_CLAP_COMPLETE_SPACE == false ]] && [[ "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace
    fi
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -o nospace -o nosort -F _clap_complete_pushleft_controller pushleft-controller
else
    complete -o nospace -F _clap_complete_pushleft_controller pushleft-controller
fi
