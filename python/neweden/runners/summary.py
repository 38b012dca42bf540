"""The last line of `neweden validate`: how many games, valid and invalid, in how long, and
the most frequent errors and warnings, in the current language (the codes as they are)."""

from __future__ import annotations

from collections import Counter

from neweden.i18n import DEFAULT_LANGUAGE, _, current, ngettext, number

__all__ = ["summary_line", "warnings_said"]


def _count(n: int) -> str:
    """A count of the summary as the language writes it for people (`1.234` in Portuguese);
    English keeps the plain digits it has always printed (`1500 games`)."""
    return str(n) if current() == DEFAULT_LANGUAGE else number(n)


def _figures(games: int, valid: int, seconds: float) -> dict[str, str]:
    """The numbers of the summary, each as the language writes it (English: as it always
    has, `2.0 s`, `1,234 games/s`)."""
    rate = games / seconds if seconds > 0 else 0.0
    counts = {"games": _count(games), "valid": _count(valid), "invalid": _count(games - valid)}
    lang = current()
    if lang == DEFAULT_LANGUAGE:
        return counts | {"seconds": f"{seconds:.1f}", "rate": f"{rate:,.0f}"}
    from babel.numbers import format_decimal

    tenths = format_decimal(seconds, "#,##0.0", locale=lang.replace("-", "_"))
    return counts | {"seconds": str(tenths), "rate": number(round(rate))}


def warnings_said(warned: Counter[str]) -> str:
    """The summary's end: the most frequent warnings (nothing when there is none)."""
    if not warned:
        return ""
    common = ", ".join(f"{code} {_count(n)}" for code, n in warned.most_common(5))
    return _("; most frequent warnings: {common}", common=common)


def summary_line(
    games: int, valid: int, codes: Counter[str], seconds: float, interrupted: bool
) -> str:
    """The last line of `neweden validate`, in the current language (codes as they are)."""
    common = ", ".join(f"{code} {_count(n)}" for code, n in codes.most_common(5))
    figures = _figures(games, valid, seconds) | {"common": common or _("none")}
    if interrupted:
        return ngettext(
            "interrupted after {games} games: {valid} valid, {invalid} invalid, in {seconds} s "
            "({rate} games/s); most frequent errors: {common}",
            "interrupted after {games} games: {valid} valid, {invalid} invalid, in {seconds} s "
            "({rate} games/s); most frequent errors: {common}",
            games,
            **figures,
        )
    return ngettext(
        "{games} games: {valid} valid, {invalid} invalid, in {seconds} s ({rate} games/s); "
        "most frequent errors: {common}",
        "{games} games: {valid} valid, {invalid} invalid, in {seconds} s ({rate} games/s); "
        "most frequent errors: {common}",
        games,
        **figures,
    )
