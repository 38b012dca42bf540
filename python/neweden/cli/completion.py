"""`neweden completion bash|zsh|fish`: a shell completion script, written from the parser
itself (every subcommand and option, and the choices an option takes), so it never falls
behind the command line. Source it: `source <(neweden completion bash)`,
`neweden completion zsh > "${fpath[1]}/_neweden"`, `neweden completion fish | source`."""

from __future__ import annotations

import argparse

__all__ = ["SHELLS", "completion_script"]

SHELLS = ("bash", "zsh", "fish")


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [s for a in parser._actions for s in a.option_strings if s.startswith("--")]


def _choices(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    return {
        s: [str(c) for c in a.choices]
        for a in parser._actions
        if a.choices and not isinstance(a, argparse._SubParsersAction)
        for s in a.option_strings
    }


def _bash(parser: argparse.ArgumentParser) -> str:
    commands = _commands(parser)
    cases = []
    for name, sub in commands.items():
        words = _options(sub) + list(_commands(sub))
        choices = "".join(
            f'            {option}) COMPREPLY=($(compgen -W "{" ".join(values)}" -- "$cur")); '
            "return;;\n"
            for option, values in _choices(sub).items()
        )
        cases.append(
            f"        {name})\n"
            f'          case "$prev" in\n{choices}          esac\n'
            f'          COMPREPLY=($(compgen -W "{" ".join(words)}" -- "$cur"))\n'
            '          [[ "$cur" != -* ]] && COMPREPLY+=($(compgen -f -- "$cur"))\n'
            "          return;;\n"
        )
    top = " ".join([*commands, *_options(parser)])
    return (
        "# bash completion for neweden (neweden completion bash)\n"
        "_neweden() {\n"
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" '
        "command=\n"
        "    local i\n"
        "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        '        [[ "${COMP_WORDS[i]}" != -* ]] && { command="${COMP_WORDS[i]}"; break; }\n'
        "    done\n"
        '    case "$command" in\n'
        + "".join(cases)
        + f'        *) COMPREPLY=($(compgen -W "{top}" -- "$cur"));;\n'
        "    esac\n"
        "}\n"
        "complete -o filenames -F _neweden neweden\n"
    )


def _zsh(parser: argparse.ArgumentParser) -> str:
    return (
        "#compdef neweden\n"
        "# zsh completion for neweden (neweden completion zsh), through bash's\n"
        "autoload -U +X bashcompinit && bashcompinit\n" + _bash(parser)
    )


def _fish(parser: argparse.ArgumentParser) -> str:
    commands = _commands(parser)
    lines = ["# fish completion for neweden (neweden completion fish)"]
    for name, sub in commands.items():
        lines.append(f"complete -c neweden -n __fish_use_subcommand -a {name}")
        choices = _choices(sub)
        for option in _options(sub):
            values = f" -x -a '{' '.join(choices[option])}'" if option in choices else ""
            lines.append(
                f"complete -c neweden -n '__fish_seen_subcommand_from {name}' "
                f"-l {option[2:]}{values}"
            )
    return "\n".join(lines) + "\n"


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of `parser` for `shell` (one of :data:`SHELLS`)."""
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](parser)
