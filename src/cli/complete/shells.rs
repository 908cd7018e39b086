//! Our own completion adapters (README, "Shell completions and man
//! pages"): clap_complete's engine finds the candidates, and each adapter
//! writes them so that the shell cannot run or expand any of them. bash
//! gets every candidate quoted by us and reads them with `mapfile` (no
//! word splitting, no globbing); zsh and fish quote what they insert
//! themselves and get the values unquoted but never a control character;
//! PowerShell and Elvish, which no test here drives, get only candidates
//! that need no quoting at all.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::Path;

use clap::Command;
use clap_complete::engine::{self, CompletionCandidate};
use clap_complete::env::{self, EnvCompleter, Shells};

use super::quote::{self, Dialect};

/// Every shell the binary answers and `generate` writes a script for.
pub const SHELLS: Shells<'static> = Shells(&[&Bash, &Zsh, &Fish, &Powershell, &Elvish]);

/// The candidates for `args` (the words after `--`, the binary's name
/// first) completing the word at `index`, each dequoted as `dialect`.
fn candidates(
    cmd: &mut Command,
    args: Vec<OsString>,
    index: usize,
    cwd: Option<&Path>,
    dialect: Dialect,
) -> io::Result<Vec<CompletionCandidate>> {
    let args = args
        .into_iter()
        .map(|a| quote::dequote(&a.to_string_lossy(), dialect).value.into())
        .collect();
    engine::complete(cmd, args, index, cwd)
}

fn value(candidate: &CompletionCandidate) -> String {
    candidate.get_value().to_string_lossy().into_owned()
}

/// The first line of a candidate's description, sanitized.
fn help(candidate: &CompletionCandidate) -> Option<String> {
    let help = candidate.get_help()?.to_string();
    Some(quote::help(help.lines().next().unwrap_or_default()))
}

fn index_from_env() -> usize {
    std::env::var("_CLAP_COMPLETE_INDEX")
        .ok()
        .and_then(|i| i.parse().ok())
        .unwrap_or_default()
}

/// bash: candidates quoted for bash, one a line.
#[derive(Debug, Clone, Copy)]
pub struct Bash;

impl EnvCompleter for Bash {
    fn name(&self) -> &'static str {
        "bash"
    }
    fn is(&self, name: &str) -> bool {
        name == "bash"
    }
    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        let completer = quote::bash(completer, None).unwrap_or_else(|| completer.to_string());
        let script = BASH_REGISTRATION
            .replace("NAME", &name.replace('-', "_"))
            .replace("BIN", bin)
            .replace("COMPLETER", &completer)
            .replace("VAR", var);
        buf.write_all(script.as_bytes())
    }
    fn write_complete(
        &self,
        cmd: &mut Command,
        args: Vec<OsString>,
        cwd: Option<&Path>,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        let index = index_from_env();
        let raw = args
            .get(index)
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default();
        let typed = quote::dequote(&raw, Dialect::Posix);
        if typed.open.is_some() && !typed.open_at_start {
            // readline would put the answer after that quote: offer nothing.
            return Ok(());
        }
        for candidate in candidates(cmd, args, index, cwd, Dialect::Posix)? {
            if let Some(quoted) = quote::bash(&value(&candidate), typed.open) {
                writeln!(buf, "{quoted}")?;
            }
        }
        Ok(())
    }
}

/// The bash script: the binary's answer read line by line with `mapfile`
/// into COMPREPLY, so no candidate is split or globbed; the word being
/// completed is passed as typed (the binary dequotes it).
const BASH_REGISTRATION: &str = r#"
_clap_complete_NAME() {
    local _CLAP_COMPLETE_INDEX=${COMP_CWORD}
    if compopt +o nospace 2> /dev/null; then
        local _CLAP_COMPLETE_SPACE=false
    else
        local _CLAP_COMPLETE_SPACE=true
    fi
    COMPREPLY=()
    mapfile -t COMPREPLY < <( \
        _CLAP_COMPLETE_INDEX="$_CLAP_COMPLETE_INDEX" \
        VAR="bash" \
        COMPLETER -- "${COMP_WORDS[@]}" 2> /dev/null \
    )
    if [[ $_CLAP_COMPLETE_SPACE == false ]] && [[ "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace
    fi
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -o nospace -o nosort -F _clap_complete_NAME BIN
else
    complete -o nospace -F _clap_complete_NAME BIN
fi
"#;

/// zsh: `value:description` for `_describe`, whose `compadd` quotes the
/// value as it inserts it.
#[derive(Debug, Clone, Copy)]
pub struct Zsh;

impl EnvCompleter for Zsh {
    fn name(&self) -> &'static str {
        "zsh"
    }
    fn is(&self, name: &str) -> bool {
        name == "zsh"
    }
    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        // clap's script: compsys runs it with its own options
        // (NO_globsubst, NO_shwordsplit), so no candidate is globbed or
        // split; `${(@f)…}` splits the answer on newlines only.
        env::Zsh.write_registration(var, name, bin, completer, buf)
    }
    fn write_complete(
        &self,
        cmd: &mut Command,
        mut args: Vec<OsString>,
        cwd: Option<&Path>,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        let index = index_from_env();
        if args.len() == index {
            args.push(OsString::new());
        }
        for candidate in candidates(cmd, args, index, cwd, Dialect::Posix)? {
            let value = value(&candidate);
            if !quote::offerable(&value) {
                continue;
            }
            write!(buf, "{}", quote::zsh_describe(&value))?;
            if let Some(help) = help(&candidate) {
                write!(buf, ":{}", help.replace('\\', "\\\\"))?;
            }
            writeln!(buf)?;
        }
        Ok(())
    }
}

/// fish: `value<TAB>description`, one a line; fish escapes what it
/// inserts.
#[derive(Debug, Clone, Copy)]
pub struct Fish;

impl EnvCompleter for Fish {
    fn name(&self) -> &'static str {
        "fish"
    }
    fn is(&self, name: &str) -> bool {
        name == "fish"
    }
    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        env::Fish.write_registration(var, name, bin, completer, buf)
    }
    fn write_complete(
        &self,
        cmd: &mut Command,
        args: Vec<OsString>,
        cwd: Option<&Path>,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        let index = args.len().saturating_sub(1);
        write_tabbed(
            candidates(cmd, args, index, cwd, Dialect::Fish)?,
            buf,
            quote::offerable,
        )
    }
}

/// `value<TAB>description` lines, only of the values `offer` allows.
fn write_tabbed(
    candidates: Vec<CompletionCandidate>,
    buf: &mut dyn Write,
    offer: fn(&str) -> bool,
) -> io::Result<()> {
    for candidate in candidates {
        let value = value(&candidate);
        if !offer(&value) {
            continue;
        }
        write!(buf, "{value}")?;
        if let Some(help) = help(&candidate) {
            write!(buf, "\t{help}")?;
        }
        writeln!(buf)?;
    }
    Ok(())
}

/// PowerShell: clap's script, which evaluates what it is given with
/// `Invoke-Expression`. No test here drives PowerShell, so only candidates
/// that need no quoting in any shell are offered.
#[derive(Debug, Clone, Copy)]
pub struct Powershell;

impl EnvCompleter for Powershell {
    fn name(&self) -> &'static str {
        "powershell"
    }
    fn is(&self, name: &str) -> bool {
        env::Powershell.is(name)
    }
    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        env::Powershell.write_registration(var, name, bin, completer, buf)
    }
    fn write_complete(
        &self,
        cmd: &mut Command,
        args: Vec<OsString>,
        cwd: Option<&Path>,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        let index = args.len().saturating_sub(1);
        write_tabbed(
            candidates(cmd, args, index, cwd, Dialect::Posix)?,
            buf,
            quote::plain,
        )
    }
}

/// Elvish: clap's script. No test here drives Elvish, so only candidates
/// that need no quoting in any shell are offered, one a line.
#[derive(Debug, Clone, Copy)]
pub struct Elvish;

impl EnvCompleter for Elvish {
    fn name(&self) -> &'static str {
        "elvish"
    }
    fn is(&self, name: &str) -> bool {
        name == "elvish"
    }
    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        env::Elvish.write_registration(var, name, bin, completer, buf)
    }
    fn write_complete(
        &self,
        cmd: &mut Command,
        args: Vec<OsString>,
        cwd: Option<&Path>,
        buf: &mut dyn Write,
    ) -> io::Result<()> {
        let index = index_from_env();
        for candidate in candidates(cmd, args, index, cwd, Dialect::Posix)? {
            let value = value(&candidate);
            if quote::plain(&value) {
                writeln!(buf, "{value}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "shells_tests.rs"]
mod tests;
